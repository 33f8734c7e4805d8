/*
 * A lab's performance, measured in the sandbox: grade_lab.h. What each
 * method's runs are and what they came to is grade_measured.h's; this builds
 * the measuring program and runs them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade_command.h"
#include "grade_lab.h"
#include "grade_measured.h"
#include "grade_outcomes.h"
#include "grade_text.h"

#define LOG_MAX (1L << 20)

/* The last three lines of the build's log, its trailing newlines left out (free it). */
static char *log_tail(const char *log)
{
    char *text = tl_slurp(log, LOG_MAX);
    size_t end = strlen(text);
    if (end && text[end - 1] == '\n')
        end--;
    size_t from = end;
    for (int lines = 0; from > 0; from--)
        if (text[from - 1] == '\n' && ++lines == 3)
            break;
    while (end > from && text[end - 1] == '\n')
        end--;
    char *tail = strndup(text + from, end - from);
    free(text);
    return tail;
}

/* The measuring program (targets, NULL-ended) built in link mode for backend; where it
 * is not, the lab's performance not measured, what's built and the log's end said. */
static int built(const tl_grading *g, const char *lab, const char *backend, char *const *targets, const char *what)
{
    char *log = tl_output_new(g->outputs, NULL);
    if (!log)
        return 0;
    int ok = tl_build(g, log, "link", backend, targets) == 0;
    if (!ok) {
        char *tail = log_tail(log), *why;
        if (asprintf(&why, "%s did not build: %s", what, tail) >= 0) {
            tl_measured_none(g->outcomes, g->outputs, lab, "build", why);
            free(why);
        }
        free(tail);
    }
    free(log);
    return ok;
}

/* One measuring run in dir (perf mode: it writes there), within the grading's
 * perf-limit: grade-run's word (ok or fail), its output in output. options: grade-run's. */
static char *measuring_run(const tl_grading *g, const char *dir, const char *output, tl_argv *options,
                           char *const *argv)
{
    tl_command c = {.limit = g->perf_limit, .output = output, .mode = "perf", .dir = dir, .argv = argv};
    if (options)
        c.options = *options;
    char *words = tl_command_run(g, &c);
    words[strcspn(words, "\n")] = '\0';
    return words;
}

/* After a run: past the disk's limit, the lab's performance not measured, and 1. */
static int over_quota(const tl_grading *g, const char *lab, const char *dir)
{
    char *quota = tl_over_quota(g, dir);
    if (!quota)
        return 0;
    tl_measured_none(g->outcomes, g->outputs, lab, "disk-quota", quota);
    free(quota);
    return 1;
}

/*
 * Where a measured program runs from: a folder in its run's folder (the one a perf run may
 * write), nested to a path of PERF_FOLDER_LEN characters whatever the grading's paths, a
 * copy of the program in it. Valgrind lays the program's stack under its full path, and its
 * own memory under its options; the loader and main run there, and with the hand-in's name
 * and the grading's folder in that path their simulated misses moved by one in 650 000 from
 * grading to grading (grade_perf.c). Programs run from folders of one length count the same
 * misses, whatever the folders' names. The folder into folder: 0, or -1 where the run's
 * folder is too long or the copy failed.
 */
#define PERF_FOLDER_LEN 1024
#define PAD_NAME_MAX 200
static int fixed_length_folder(const char *run_dir, const char *program, char folder[PATH_MAX])
{
    size_t len = strlen(run_dir);
    if (len + 2 > PERF_FOLDER_LEN)
        return -1;
    memcpy(folder, run_dir, len + 1);
    while (len < PERF_FOLDER_LEN) {
        size_t n = PERF_FOLDER_LEN - len - 1; /* a name of n characters after its '/' */
        if (n > PAD_NAME_MAX)
            n = PAD_NAME_MAX;
        folder[len++] = '/';
        memset(folder + len, 'p', n);
        folder[len += n] = '\0';
        if (mkdir(folder, 0777) && errno != EEXIST)
            return -1;
    }
    char copy[PATH_MAX + 64];
    snprintf(copy, sizeof copy, "%s/%s", folder, strrchr(program, '/') + 1);
    return tl_copy_file(program, copy, 0755);
}

/* After the run: valgrind's two files moved up to the run's folder (where grade-report
 * reads them), the copy and the folders taken away. */
static void leave_folder(const char *run_dir, char folder[PATH_MAX], const char *program)
{
    const char *files[] = {"callgrind.out", "valgrind.log"};
    char from[PATH_MAX + 64], to[PATH_MAX + 64];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(from, sizeof from, "%s/%s", folder, files[i]);
        snprintf(to, sizeof to, "%s/%s", run_dir, files[i]);
        rename(from, to);
    }
    snprintf(from, sizeof from, "%s/%s", folder, program);
    unlink(from);
    for (size_t len = strlen(folder); len > strlen(run_dir) && !rmdir(folder);) {
        while (folder[--len] != '/')
            ;
        folder[len] = '\0';
    }
}

/* A CPU lab: valgrind's cache simulation (the grading's measured command) of the
 * baseline, the reference and the student's, one run each (tl_callgrind_runs). Each
 * program starts from a folder of fixed length (above), as ./grade-perf-NAME, and valgrind
 * writes its files there by names alone, so that the program's arguments and valgrind's
 * are the same in every grading, as its environment is (grade.sh). */
static int measure_cpu(const tl_grading *g, const char *lab, const char *dir)
{
    char student[PATH_MAX], reference[PATH_MAX], seed[32], size[16];
    snprintf(student, sizeof student, "%s/build/lab%s/grade-perf-student", g->sandbox.work, lab);
    snprintf(reference, sizeof reference, "%s/build/lab%s/grade-perf-reference", g->sandbox.work, lab);
    char *targets[] = {student, reference, NULL};
    if (!built(g, lab, "cpu", targets, "the measuring program"))
        return 0;
    /* The seed on its standard input, which it reads once the lab's code has started: on
     * its command line, the lab's code could read it and make in's values itself. */
    /* (random, new each time: grade_perf.c says why) */
    snprintf(seed, sizeof seed, "%llu", tl_fresh_seed());
    snprintf(size, sizeof size, "%d", g->perf_size);
    tl_measured_run runs[TL_CALLGRIND_RUNS];
    char *outputs[TL_CALLGRIND_RUNS] = {0}, *words[TL_CALLGRIND_RUNS] = {0};
    int n = 0, rc = 0;
    for (; n < TL_CALLGRIND_RUNS; n++) {
        const tl_callgrind_run *r = &tl_callgrind_runs[n];
        const char *built_program = strcmp(r->binary, "student") ? reference : student;
        const char *program = strrchr(built_program, '/') + 1;
        char run_dir[PATH_MAX + 32], folder[PATH_MAX], started[PATH_MAX];
        snprintf(run_dir, sizeof run_dir, "%s/%s", dir, r->name);
        mkdir(run_dir, 0777);
        if (fixed_length_folder(run_dir, built_program, folder)) {
            tl_measured_none(g->outcomes, g->outputs, lab, "setup",
                             "the grader could not make the measuring program's folder (the grading's path "
                             "is too long, or its disk is full), so nothing was measured");
            goto done;
        }
        snprintf(started, sizeof started, "./%s", program);
        tl_argv argv = {0}, options = {0};
        tl_argv_add(&argv, "env");
        tl_argv_add(&argv, "-C");
        tl_argv_add(&argv, folder);
        for (int i = 0; i < g->n_measured; i++)
            tl_argv_add(&argv, g->measured[i]);
        tl_argv_add(&argv, "--cache-sim=yes");
        for (int i = 0; i < g->n_cache_sim; i++)
            tl_argv_add(&argv, g->cache_sim[i]);
        const char *rest[] = {"--callgrind-out-file=callgrind.out", "--log-file=valgrind.log", started, size, r->mode, "-"};
        for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
            tl_argv_add(&argv, rest[i]);
        tl_argv_add(&options, "--input");
        tl_argv_add(&options, seed);
        outputs[n] = tl_output_new(g->outputs, NULL);
        words[n] = outputs[n] ? measuring_run(g, run_dir, outputs[n], &options, argv.v) : strdup("fail");
        tl_argv_free(&argv);
        tl_argv_free(&options);
        leave_folder(run_dir, folder, program);
        if (over_quota(g, lab, dir))
            goto done;
        runs[n] = (tl_measured_run){r->name, words[n], outputs[n] ? outputs[n] : ""};
        if (strcmp(words[n], "ok")) {
            n++;
            break;
        }
    }
    rc = tl_measured_record(g->outcomes, g->outputs, lab, "callgrind", dir, size, runs, n);
done:
    for (int i = 0; i < TL_CALLGRIND_RUNS; i++)
        free(outputs[i]), free(words[i]);
    return rc;
}

/* A GPU lab on the emulator: its profile, which counts every memory access. */
static int measure_emu(const tl_grading *g, const char *lab, const char *dir)
{
    char program[PATH_MAX], csv[PATH_MAX + 16], path[PATH_MAX + 64];
    snprintf(program, sizeof program, "%s/build/lab%s/grade-profile", g->sandbox.work, lab);
    snprintf(csv, sizeof csv, "%s/profile.csv", dir);
    char *targets[] = {program, NULL};
    if (!built(g, lab, "emu", targets, "the profile"))
        return 0;
    char *output = tl_output_new(g->outputs, NULL);
    if (!output)
        return 1;
    /* The reference's counts, counted once beside the compiled references (make references'
     * REFERENCE_PROFILES), which the sandbox hides: on the profile's standard input, which it
     * reads whole before the hand-in's lab process starts. Where there are none, it counts
     * them. */
    snprintf(path, sizeof path, "%s/lab%s-emu.profile.csv", g->sandbox.prebuilt, lab);
    char *rows = tl_slurp(path, 16 << 10);
    tl_argv options = {0};
    if (*rows) {
        tl_argv_add(&options, "--input");
        tl_argv_add(&options, rows);
    }
    char *with_rows[] = {program, "--grade-size", "--csv", csv, "--reference-rows", "-", NULL};
    char *counting[] = {program, "--grade-size", "--csv", csv, NULL};
    char *word = measuring_run(g, dir, output, &options, *rows ? with_rows : counting);
    tl_argv_free(&options);
    free(rows);
    int rc = 0;
    if (!over_quota(g, lab, dir)) {
        tl_measured_run run = {"profile", word, output};
        rc = tl_measured_record(g->outcomes, g->outputs, lab, "emu", dir, NULL, &run, 1);
    }
    free(word);
    free(output);
    return rc;
}

/* A GPU lab on the GPU: grade-bench holds none of the hand-in's host code: it runs the
 * launch plans the hand-in's lab process records (harness/core/include/plan.h), and ends
 * that process and all it started before it times anything. */
static int measure_gpu(const tl_grading *g, const char *lab, const char *dir)
{
    char program[PATH_MAX], csv[PATH_MAX + 16], record[PATH_MAX + 16], lock[PATH_MAX];
    snprintf(program, sizeof program, "%s/build/lab%s/grade-bench", g->sandbox.work, lab);
    snprintf(csv, sizeof csv, "%s/bench.csv", dir);
    snprintf(record, sizeof record, "%s/bench.tsv", dir);
    char *targets[] = {program, NULL};
    if (!built(g, lab, "cuda", targets, "the bench"))
        return 0;
    char *output = tl_output_new(g->outputs, NULL);
    if (!output)
        return 1;
    /* Never two timings on the GPU at once, whichever grader runs them: each bench holds
     * the lock alone while it times, and shares it while it starts, checks and makes the
     * plans (harness/core/include/timing_lock.h). */
    snprintf(lock, sizeof lock, "%s/gpu-timing.lock", g->sandbox.tools);
    int fd = open(lock, O_WRONLY | O_APPEND | O_CREAT, 0666);
    if (fd >= 0)
        close(fd);
    tl_argv options = {0};
    tl_argv_add(&options, "--lock");
    tl_argv_add(&options, lock);
    /* Its record (bench.h) says what became of each variant, and why one of yours was
     * not timed: grade-report reads it (grade_measure.c). */
    char *argv[] = {program, "--gpu-lock-fd", "4", "--only", "ceiling,student,reference", "--grade-size",
                    "--reps", "20", "--csv", csv, "--record", record, NULL};
    char *word = measuring_run(g, dir, output, &options, argv);
    int rc = 0;
    if (!over_quota(g, lab, dir)) {
        tl_measured_run run = {"bench", word, output};
        rc = tl_measured_record(g->outcomes, g->outputs, lab, "gpu", dir, NULL, &run, 1);
    }
    tl_argv_free(&options);
    free(word);
    free(output);
    return rc;
}

int tl_measure(const tl_grading *g, const char *lab, const char *kind, const char *backend)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/perf/lab%s", g->sandbox.work, lab);
    mkdir(dir, 0777);
    if (!strcmp(kind, "cpu"))
        return measure_cpu(g, lab, dir);
    if (!strcmp(backend, "emu"))
        return measure_emu(g, lab, dir);
    return measure_gpu(g, lab, dir);
}
