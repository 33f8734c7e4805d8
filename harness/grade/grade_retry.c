/*
 * A test that timed out, run again alone: grade_lab.h.
 *
 * Its limit counts CPU time, as every limit of the grader's does (grade-run
 * --limit), so it is scaled from the reference's CPU time for the same test,
 * measured here just before (grade-run --cpu-record), never from the clock:
 * on a busy machine the clock is the neighbours' as much as the test's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grade_command.h"
#include "grade_lab.h"
#include "grade_outcomes.h"
#include "grade_text.h"

/* The reference's suite beside bin's (build/grade-build/labNN/reference[-emu]/test, for
 * .../student[-emu]/test), in path; 0 where it can be run. */
static int reference_of(const tl_grading *g, const char *lab, const char *bin, char path[PATH_MAX])
{
    char copy[PATH_MAX], variant[256];
    snprintf(copy, sizeof copy, "%s", bin);
    const char *v = basename(dirname(copy)), *student = strstr(v, "student");
    if (student)
        snprintf(variant, sizeof variant, "%.*sreference%s", (int)(student - v), v, student + strlen("student"));
    else
        snprintf(variant, sizeof variant, "%s", v);
    snprintf(path, PATH_MAX, "%s/grade-build/lab%s/%s/test", g->sandbox.tools, lab, variant);
    return access(path, X_OK);
}

/* The CPU seconds the reference's suite took for the test on this machine now, alone
 * (its limit: what the test would get at most), or -1 where it could not be run. */
static double reference_cpu(const tl_grading *g, const char *lab, const char *id, int seconds, const char *input,
                            const char *bin, char *const *env)
{
    char reference[PATH_MAX], grade_run[PATH_MAX], output[PATH_MAX], record[PATH_MAX], limit[32];
    if (reference_of(g, lab, bin, reference))
        return -1;
    snprintf(grade_run, sizeof grade_run, "%s/grade-run", g->sandbox.tools);
    snprintf(output, sizeof output, "%s/reference.txt", g->records);
    snprintf(record, sizeof record, "%s/reference.cpu", g->records);
    snprintf(limit, sizeof limit, "%d", g->retry_scale * seconds);
    unlink(record);
    tl_argv a = {0};
    const char *first[] = {grade_run, "--limit", limit, "--output", output, "--cpu-record", record};
    for (size_t i = 0; i < sizeof first / sizeof *first; i++)
        tl_argv_add(&a, first[i]);
    if (input) {
        tl_argv_add(&a, "--input");
        tl_argv_add(&a, input);
    }
    tl_argv_add(&a, "--");
    tl_argv_add(&a, "env");
    for (char *const *e = env; *e; e++)
        tl_argv_add(&a, *e);
    const char *rest[] = {reference, "--filter", id, "--jobs", "1"};
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
        tl_argv_add(&a, rest[i]);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1); /* its verdict: the reference's, which is not the question */
        execv(a.v[0], a.v);
        _exit(127);
    }
    int status;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    tl_argv_free(&a);
    FILE *f = fopen(record, "r");
    double cpu = -1;
    if (!f || fscanf(f, "%lf", &cpu) != 1)
        cpu = -1;
    if (f)
        fclose(f);
    return cpu;
}

void tl_retry_alone(const tl_grading *g, const char *lab, const char *id, int seconds, char **output,
                    const char *input, const char *bin, char *const *env, char verdict[16])
{
    /* once no other command of any grader runs: each holds the lock shared (grade_command.c) */
    int alone = open(g->alone_lock, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    while (alone >= 0 && flock(alone, LOCK_EX) && errno == EINTR)
        ;
    double cpu = reference_cpu(g, lab, id, seconds, input, bin, env);
    /* scaled, in whole seconds up, from the record's hundredths */
    long hundredths = cpu < 0 ? -1 : lround(cpu * 100);
    int limit = hundredths < 0 ? seconds : (int)((g->retry_scale * hundredths + 99) / 100);
    if (limit < seconds)
        limit = seconds;
    char *again = tl_output_new(g->outputs, NULL);
    if (!again) {
        snprintf(verdict, 16, "fail");
        if (alone >= 0)
            close(alone);
        return;
    }
    char cpu_record[PATH_MAX], scale[64];
    snprintf(cpu_record, sizeof cpu_record, "%s/cpu-lab%s", g->records, lab);
    snprintf(scale, sizeof scale, "TILELAB_TIME_SCALE=%.3f", (double)limit / seconds);
    tl_command c = {.limit = limit + g->test_margin, .output = again, .mode = "run", .alone = 1};
    const char *options[] = {"--test", id, "--cpu-record", cpu_record};
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        tl_argv_add(&c.options, options[i]);
    if (input) {
        tl_argv_add(&c.options, "--input");
        tl_argv_add(&c.options, input);
    }
    tl_argv argv = {0};
    tl_argv_add(&argv, "env");
    tl_argv_add(&argv, "TILELAB_HANG_FILE=");
    tl_argv_add(&argv, scale);
    for (char *const *e = env; *e; e++)
        tl_argv_add(&argv, *e);
    const char *rest[] = {bin, "--filter", id, "--tap=/dev/fd/3", "--jobs", "1"};
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
        tl_argv_add(&argv, rest[i]);
    c.argv = argv.v;
    char *words = tl_command_run(g, &c);
    if (alone >= 0)
        close(alone);
    snprintf(verdict, 16, "%.*s", (int)strcspn(words, "\n"), words);
    free(words);
    tl_argv_free(&argv);
    tl_argv_free(&c.options);
    const char *said = !strcmp(verdict, "pass")      ? "passed"
                       : strcmp(verdict, "timeout") ? "failed"
                                                    : "failed, again past its limit: an endless loop, or a kernel far "
                                                      "slower than the reference? Time your lab file spends before the "
                                                      "test starts, in a constructor, counts too.";
    if (hundredths < 0)
        tl_output_append(again,
                         "\ntilelab: this test ran past its time limit (%d seconds), and was run again alone, with no "
                         "other grading on the machine, under its own limit (the reference solution could not be "
                         "run here to scale it): it %s\n",
                         seconds, said);
    else
        tl_output_append(again,
                         "\ntilelab: this test ran past its time limit (%d seconds), and was run again alone, with no "
                         "other grading on the machine, under a limit of %d seconds (its own, or %d times the %.2f "
                         "seconds of CPU time the reference solution took for it on this machine just before, "
                         "whichever is longer): it %s\n",
                         seconds, limit, g->retry_scale, hundredths / 100.0, said);
    char flags[PATH_MAX], first[PATH_MAX + 16];
    snprintf(flags, sizeof flags, "%s/flags.txt", g->sandbox.work);
    tl_output_append(flags, "lab %d %s: timed out once, run again alone: %s\n", atoi(lab), id, verdict);
    snprintf(first, sizeof first, "%s.first-run", again);
    tl_copy_file(*output, first, 0666);
    free(*output);
    *output = again;
}
