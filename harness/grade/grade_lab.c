/*
 * One lab of a hand-in graded, step by step: grade_lab.h (tl_grade_lab).
 * Each step is a function given the grading and the lab and what the steps
 * before it found, nothing else: the file handed in, the kit's stub, the
 * builds, the suite runs grade_plan.h says, the measurement, the held-back
 * cases.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "grade_held_back.h"
#include "grade_lab.h"
#include "grade_misplaced.h"
#include "grade_outcomes.h"
#include "grade_plan.h"
#include "grade_text.h"

#define LOG_MAX (1L << 20)
#define STUB_MAX (16L << 20) /* bytes of a file compared with the kit's stub: a lab file is far less */

/* What the lab's suite runs were given: its builds (the technique build the emulator's
 * on a GPU, the same as bin elsewhere), and why the emulator could not build the file. */
typedef struct {
    char bin[PATH_MAX], tech_bin[PATH_MAX], manifest[PATH_MAX];
    char *no_emu; /* the emulator's build log, where it failed on a GPU; else NULL */
} lab_builds;

unsigned long long tl_fresh_seed(void)
{
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
        perror("grade-lab: getrandom");
    return seed;
}

/* A line of the lab's outcomes: lab LAB WHAT OUTPUT (the whole lab lost: grade_report.c). */
static int lost(const tl_grading *g, const tl_lab *lab, const char *what, const char *output)
{
    const char *fields[] = {"lab", lab->lab, what, output};
    return tl_outcome(g->outcomes, fields, 4);
}

/* ... with OUTPUT a fresh file holding text. */
static int lost_saying(const tl_grading *g, const tl_lab *lab, const char *what, const char *text)
{
    char *said = tl_output_new(g->outputs, text);
    int rc = said ? lost(g, lab, what, said) : 1;
    free(said);
    return rc;
}

/* The lab's file is not in the hand-in: said, with where the hand-in holds it instead,
 * if it does (grade-unpack's listing, WORK/listing). */
static int missing(const tl_grading *g, const tl_lab *lab)
{
    char listing[PATH_MAX], dir_file[PATH_MAX], *text;
    snprintf(listing, sizeof listing, "%s/listing", g->sandbox.work);
    snprintf(dir_file, sizeof dir_file, "%s/%s", lab->dir, lab->file);
    FILE *f = fopen(listing, "r");
    size_t n = 0;
    char **found = f ? tl_found_read(f, &n) : NULL, *elsewhere = tl_misplaced_lab(dir_file, found, n);
    if (f)
        fclose(f);
    if (asprintf(&text, "labs/%s is not in the hand-in%s%s", dir_file, elsewhere ? ": " : "",
                 elsewhere ? elsewhere : "") < 0)
        abort();
    int rc = lost_saying(g, lab, "missing", text);
    free(text);
    free(elsewhere);
    tl_found_free(found, n);
    return rc;
}

/* The file at path whole, at most STUB_MAX bytes, in *len; NULL where it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(STUB_MAX + 1);
    *len = text ? fread(text, 1, STUB_MAX + 1, f) : 0;
    int bad = !text || ferror(f) || *len > STUB_MAX;
    fclose(f);
    if (bad) {
        free(text);
        return NULL;
    }
    return text;
}

/* The kit's stub as it came (a stub holds TODO()s; an instructor's labs/ may hold
 * finished work): 1 where the file handed in is it. */
static int is_stub(const tl_grading *g, const tl_lab *lab, const char *handed)
{
    char kit[PATH_MAX];
    snprintf(kit, sizeof kit, "%s/labs/%s/%s", g->sandbox.root, lab->dir, lab->file);
    size_t n_kit = 0, n_handed = 0;
    char *stub = read_file(kit, &n_kit), *file = stub ? read_file(handed, &n_handed) : NULL;
    int same = stub && file && memmem(stub, n_kit, "TODO(", 5) && n_kit == n_handed && !memcmp(stub, file, n_kit);
    free(stub);
    free(file);
    return same;
}

/* Builds target for backend: 0, or 1 with the build's log in *log (free it). */
static int build(const tl_grading *g, const char *mode, const char *backend, const char *target, char **log)
{
    char *targets[] = {(char *)target, NULL};
    *log = tl_output_new(g->outputs, NULL);
    if (!*log)
        return 1;
    if (tl_build(g, *log, mode, backend, targets))
        return 1;
    free(*log);
    *log = NULL;
    return 0;
}

/* The lab's builds: the student's for backend, and on a GPU the emulator's, from which
 * technique is judged on every machine (tests/gpu_technique.h). 0; 1 where the lab is
 * lost (recorded): its build failed, or its file is not one program for nvcc and the
 * emulator (emu-compile.sh), which is refused whole. */
static int build_lab(const tl_grading *g, const tl_lab *lab, const char *backend, lab_builds *b)
{
    char *log;
    snprintf(b->bin, sizeof b->bin, "%s/build/lab%s/student%s/test", g->sandbox.work, lab->lab,
             !strcmp(backend, "emu") ? "-emu" : "");
    snprintf(b->tech_bin, sizeof b->tech_bin, "%s", b->bin);
    snprintf(b->manifest, sizeof b->manifest, "%s/lab%s.tests", g->manifests, lab->lab);
    b->no_emu = NULL;
    if (build(g, "build", backend, b->bin, &log)) {
        if (log)
            lost(g, lab, "build", log);
        free(log);
        return 1;
    }
    if (strcmp(backend, "cuda"))
        return 0;
    snprintf(b->tech_bin, sizeof b->tech_bin, "%s/build/lab%s/student-emu/test", g->sandbox.work, lab->lab);
    if (!build(g, "build", "emu", b->tech_bin, &b->no_emu) || !b->no_emu)
        return 0;
    char *said = tl_slurp(b->no_emu, LOG_MAX);
    int refused = strstr(said, "the preprocessor keeps other code here") != NULL;
    free(said);
    if (refused) {
        lost(g, lab, "build", b->no_emu);
        free(b->no_emu);
        b->no_emu = NULL;
    }
    return refused;
}

/* The plan of one suite run (grade_plan.h), to read from the start; NULL where there is none. */
static FILE *plan(const char *manifest, const char *which, int flags)
{
    FILE *f = tmpfile();
    if (f && tl_plan(manifest, which, flags, f)) {
        fclose(f);
        return NULL;
    }
    if (f)
        rewind(f);
    return f;
}

/* On a GPU grading, TILELAB_EMU_DEVICE=LINES, the GPU as the grader's probe found it
 * (WORK/gpu-device, its lines each ended by ';': a lab process opens no file): the
 * emulator's build answers with it (harness/emu/device.c), and the GPU's build is given it
 * too, so that it tells neither apart. NULL elsewhere. */
static char *gpu_device(const tl_grading *g)
{
    char from[PATH_MAX], *env = NULL;
    snprintf(from, sizeof from, "%s/gpu-device", g->sandbox.work);
    FILE *in = fopen(from, "r");
    if (!in)
        return NULL;
    fclose(in);
    char *text = tl_slurp(from, 16 << 10);
    for (char *p = text; *p; p++)
        if (*p == '\n' || *p == ';')
            *p = *p == '\n' ? ';' : ',';
    if (asprintf(&env, "TILELAB_EMU_DEVICE=%s", text) < 0)
        abort();
    free(text);
    return env;
}

/* Runs the tests of a suite run of bin, their input on its standard input. */
static void run_tests(const tl_grading *g, const tl_lab *lab, const char *manifest, const char *which, int flags,
                      const char *bin, const char *input)
{
    static char held_back[] = "TILELAB_HELD_BACK=stdin";
    char *device = gpu_device(g), *const env[] = {held_back, device, NULL};
    FILE *f = plan(manifest, which, flags);
    if (f) {
        tl_run_tests(g, lab->lab, input, bin, env, f);
        fclose(f);
    }
    free(device);
}

/* On a GPU where the emulator could not build the file: its technique tests failed,
 * not run, with the end of the emulator's log. */
static void technique_not_graded(const tl_grading *g, const tl_lab *lab, const lab_builds *b)
{
    char *said = tl_slurp(b->no_emu, LOG_MAX), *why;
    size_t len = strlen(said), from = len > 1500 ? len - 1500 : 0;
    while (len > from && said[len - 1] == '\n')
        len--;
    if (asprintf(&why, "not graded: technique is judged from the CPU emulator's counts of your kernels' run, "
                       "on every machine, and the emulator could not build your file:\n%.*s",
                 (int)(len - from), said + from) < 0)
        abort();
    FILE *f = plan(b->manifest, "technique", 0);
    if (f) {
        tl_fail_tests(g, lab->lab, why, f);
        fclose(f);
    }
    free(why);
    free(said);
}

/* The GPU's SMs, from the grader's probe of the GPU (grade-gpu-probe's "sms N" line, WORK/gpu-device): 0
 * where not known. */
static unsigned gpu_sms(const tl_grading *g)
{
    char path[PATH_MAX], line[512];
    unsigned sms = 0;
    snprintf(path, sizeof path, "%s/gpu-device", g->sandbox.work);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "attr 16 %u", &sms) == 1) /* cudaDevAttrMultiProcessorCount */
            break;
    if (f)
        fclose(f);
    return sms;
}

/* On a GPU, the technique tests run on the emulator's build, and must see it launch what the
 * GPU's build launched at their shapes (tests/gpu_technique.h): the GPU's build runs them
 * first for that alone (tl_gpu_launches), and the emulator's run gets its launches on its
 * standard input beside the shapes' seed. */
static void technique_tests(const tl_grading *g, const tl_lab *lab, const lab_builds *b, const char *seed)
{
    static char held_back[] = "TILELAB_HELD_BACK=stdin";
    char *device = gpu_device(g), *const env[] = {held_back, device, NULL}, *recorded = NULL, *input = NULL;
    FILE *f = plan(b->manifest, "technique", 0);
    if (f) {
        if (asprintf(&input, "%sTILELAB_RECORD_LAUNCHES=1\n", seed) < 0)
            abort();
        recorded = tl_gpu_launches(g, lab->lab, input, b->bin, env, f);
        fclose(f);
        free(input);
    }
    if (asprintf(&input, "%sTILELAB_GPU_SMS=%u\n%s", seed, gpu_sms(g), recorded ? recorded : "") < 0)
        abort();
    run_tests(g, lab, b->manifest, "technique", 0, b->tech_bin, input);
    free(input);
    free(recorded);
    free(device);
}

/* The lab's tests, in one suite run; on a GPU, its technique tests in another, of the
 * emulator's build. The technique checks' shapes come from a seed drawn here, fresh
 * for each hand-in, on the suite's standard input (tests/gpu_technique.h): a lab's
 * code cannot know them. */
static void visible_tests(const tl_grading *g, const tl_lab *lab, const lab_builds *b)
{
    int apart = strcmp(b->tech_bin, b->bin) != 0;
    char input[64];
    if (b->no_emu)
        technique_not_graded(g, lab, b);
    snprintf(input, sizeof input, "TILELAB_TECHNIQUE_SEED=%llu\n", tl_fresh_seed());
    run_tests(g, lab, b->manifest, "visible", apart ? TL_PLAN_TECHNIQUE_APART : 0, b->bin, input);
    if (apart && !b->no_emu)
        technique_tests(g, lab, b, input);
}

/* Held-back cases last, in a sandbox of their own, their output marked hidden. Their
 * seed and shapes go to the suite on its standard input (tl_run_tests' input), never
 * on a command line or in an environment: a sandbox's first process shows both, and
 * a lab's code reads either (/proc/1/cmdline, /proc/1/environ). */
static void held_back_tests(const tl_grading *g, const tl_lab *lab, const lab_builds *b)
{
    char *input = NULL;
    if (!g->sandbox.hidden || !*g->sandbox.hidden || tl_held_back(g->sandbox.hidden, lab->op, &input)) {
        free(input);
        return;
    }
    int flags = (strstr(input, "TILELAB_SEED=") ? TL_PLAN_SEED : 0) | (strstr(input, "TILELAB_HIDDEN=") ? TL_PLAN_CASES : 0);
    if (flags)
        run_tests(g, lab, b->manifest, "held-back", flags, b->bin, input);
    free(input);
}

int tl_grade_lab(const tl_grading *g, const tl_lab *lab)
{
    const char *backend = !strcmp(lab->kind, "cpu") ? "cpu" : g->gpu_backend;
    char handed[PATH_MAX];
    struct stat st;
    snprintf(handed, sizeof handed, "%s/submission/labs/%s/%s", g->sandbox.work, lab->dir, lab->file);
    if (stat(handed, &st) || !S_ISREG(st.st_mode))
        return missing(g, lab);
    if (is_stub(g, lab, handed)) {
        char *text;
        if (asprintf(&text, "labs/%s/%s is the kit's stub, unchanged: its TODO()s say what to write, and make lab%d "
                            "test checks it", lab->dir, lab->file, atoi(lab->lab)) < 0)
            abort();
        int rc = lost_saying(g, lab, "stub", text);
        free(text);
        return rc;
    }
    lab_builds b;
    if (build_lab(g, lab, backend, &b))
        return 0;
    visible_tests(g, lab, &b);
    /* GPU timing waits until every lab is graded (grade.sh's gpu_timing), one lab at a
     * time; what it runs is built now, beside the other labs' work. */
    if (tl_lab_correct(g->outcomes, lab->lab)) {
        if (strcmp(backend, "cuda")) {
            tl_measure(g, lab->lab, lab->kind, backend);
        } else {
            char bench[PATH_MAX], *log = NULL;
            snprintf(bench, sizeof bench, "%s/build/lab%s/grade-bench", g->sandbox.work, lab->lab);
            build(g, "link", "cuda", bench, &log); /* its log, if it fails, comes with the timing */
            free(log);
        }
    }
    held_back_tests(g, lab, &b);
    free(b.no_emu);
    return 0;
}
