/*
 * A lab's performance, measured in the sandbox: grade_lab.h. What each
 * method's runs are and what they came to is grade_measured.h's; this builds
 * the measuring program and runs them.
 */
#define _GNU_SOURCE
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

/* A CPU lab: valgrind's cache simulation (the grading's measured command) of the
 * baseline, the reference and the student's, one run each (tl_callgrind_runs). Each
 * program starts from its own folder, as ./grade-perf-NAME, so that its arguments are
 * the same in every grading, as its environment is (grade.sh): valgrind lays the
 * program's stack under them, and the hand-in's name and the grading's folder in the
 * program's path moved where its start ran, and so its simulated misses (grade_perf.c). */
static int measure_cpu(const tl_grading *g, const char *lab, const char *dir)
{
    char folder[PATH_MAX], bin[PATH_MAX + 16], student[PATH_MAX + 32], reference[PATH_MAX + 32], seed[32], size[16];
    snprintf(folder, sizeof folder, "%s/build/lab%s", g->sandbox.work, lab);
    snprintf(bin, sizeof bin, "%s/grade-perf", folder);
    snprintf(student, sizeof student, "%s-student", bin);
    snprintf(reference, sizeof reference, "%s-reference", bin);
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
        char run_dir[PATH_MAX + 32], out_file[PATH_MAX + 96], log_file[PATH_MAX + 96], program[64];
        snprintf(run_dir, sizeof run_dir, "%s/%s", dir, r->name);
        mkdir(run_dir, 0777);
        snprintf(out_file, sizeof out_file, "--callgrind-out-file=%s/callgrind.out", run_dir);
        snprintf(log_file, sizeof log_file, "--log-file=%s/valgrind.log", run_dir);
        snprintf(program, sizeof program, "./grade-perf-%s", r->binary);
        tl_argv argv = {0}, options = {0};
        tl_argv_add(&argv, "env");
        tl_argv_add(&argv, "-C");
        tl_argv_add(&argv, folder);
        for (int i = 0; i < g->n_measured; i++)
            tl_argv_add(&argv, g->measured[i]);
        tl_argv_add(&argv, "--cache-sim=yes");
        for (int i = 0; i < g->n_cache_sim; i++)
            tl_argv_add(&argv, g->cache_sim[i]);
        const char *rest[] = {out_file, log_file, program, size, r->mode, "-"};
        for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
            tl_argv_add(&argv, rest[i]);
        tl_argv_add(&options, "--input");
        tl_argv_add(&options, seed);
        outputs[n] = tl_output_new(g->outputs, NULL);
        words[n] = outputs[n] ? measuring_run(g, run_dir, outputs[n], &options, argv.v) : strdup("fail");
        tl_argv_free(&argv);
        tl_argv_free(&options);
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
