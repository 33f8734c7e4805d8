/*
 * A lab's tests, in one suite run, each recorded with its own verdict: grade_lab.h.
 *
 * One suite run of the lab's suite runs them all, one at a time (grade-run with
 * several tests): one start of the suite and of its lab process, and on a GPU
 * one server and its context (harness/lab/lab_process.h), for a lab's tests,
 * where a run of its own for each test opened two contexts a test, which a
 * GPU's driver opens one at a time. Each test keeps its own verdict, limits
 * and output (a call that never returns fails its own test, and does not skip
 * those after it, as it does in make labN test: TILELAB_HANG_FILE empty); one
 * that timed out runs again alone (grade_retry.c).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade_command.h"
#include "grade_lab.h"
#include "grade_outcomes.h"

#define TESTS_MAX 64 /* of one suite run: grade-run's own limit */
/* Bytes of a GPU's records of launches given to the emulator's run: a suite's standard input
 * holds 64 KiB (tests/tl_test.h), a lab's technique checks write a few KiB. */
#define TL_GPU_LAUNCHES_MAX (48 << 10)

typedef struct {
    char kind[64], id[512], tag[256];
    int seconds;
    char *output; /* what the student reads of it */
} planned;

/* The plan's lines, at most TESTS_MAX, into tests: how many. */
static int read_plan(FILE *plan, planned *tests)
{
    char line[2048];
    int n = 0;
    while (n < TESTS_MAX && fgets(line, sizeof line, plan)) {
        planned *t = &tests[n];
        char *field[4] = {line, NULL, NULL, NULL};
        line[strcspn(line, "\n")] = '\0';
        for (int k = 1; k < 4 && field[k - 1]; k++) {
            char *tab = strchr(field[k - 1], '\t');
            if (tab)
                *tab = '\0', field[k] = tab + 1;
        }
        if (!field[2])
            continue;
        snprintf(t->kind, sizeof t->kind, "%.63s", field[0]);
        snprintf(t->id, sizeof t->id, "%.511s", field[1]);
        snprintf(t->tag, sizeof t->tag, "%.255s", field[3] ? field[3] : "");
        t->seconds = atoi(field[2]);
        t->output = NULL;
        n++;
    }
    return n;
}

int tl_lab_cpu_left(const tl_grading *g, const char *lab)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/cpu-lab%s", g->records, lab);
    FILE *f = fopen(path, "r");
    double used = 0, s;
    while (f && fscanf(f, "%lf", &s) == 1)
        used += s;
    if (f)
        fclose(f);
    int left = (int)(g->lab_limit - used);
    return left > 0 ? left : 0;
}

/* The test's line of outcomes: test LAB KIND ID+TAG VERDICT OUTPUT. */
static int record(const tl_grading *g, const char *lab, const planned *t, const char *verdict)
{
    char name[sizeof t->id + sizeof t->tag];
    snprintf(name, sizeof name, "%s%s", t->id, t->tag);
    const char *fields[] = {"test", lab, t->kind, name, verdict, t->output};
    return tl_outcome(g->outcomes, fields, 6);
}

/* The run of every test of tests, within limit seconds of CPU time: grade-run's words. */
static char *run_all(const tl_grading *g, const char *lab, const char *input, const char *bin, char *const *env,
                     planned *tests, int n, int limit)
{
    tl_command c = {.limit = limit, .mode = "run"};
    char record[PATH_MAX], *pattern = NULL;
    size_t len = 0;
    FILE *p = open_memstream(&pattern, &len);
    if (input) {
        tl_argv_add(&c.options, "--input");
        tl_argv_add(&c.options, input);
    }
    snprintf(record, sizeof record, "%s/cpu-lab%s", g->records, lab);
    tl_argv_add(&c.options, "--cpu-record");
    tl_argv_add(&c.options, record);
    for (int k = 0; k < n; k++) {
        char *test;
        if (asprintf(&test, "%s=%s", tests[k].id, tests[k].output) < 0)
            abort();
        tl_argv_add(&c.options, "--test");
        tl_argv_add(&c.options, test);
        free(test);
        fprintf(p, "%s%s", k ? "|" : "@(", tests[k].id);
    }
    fputc(')', p);
    fclose(p);
    tl_argv argv = {0};
    tl_argv_add(&argv, "env");
    tl_argv_add(&argv, "TILELAB_HANG_FILE=");
    for (char *const *e = env; *e; e++)
        tl_argv_add(&argv, *e);
    const char *rest[] = {bin, "--filter", pattern, "--tap=/dev/fd/3", "--jobs", "1", "--verbose"};
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
        tl_argv_add(&argv, rest[i]);
    char *whole = tl_output_new(g->outputs, NULL), *words = NULL;
    if (whole) {
        c.output = whole;
        c.argv = argv.v;
        words = tl_command_run(g, &c);
        /* the run's whole output: the records' */
        char kept[PATH_MAX];
        snprintf(kept, sizeof kept, "%s/run-%s.txt", g->records, tests[0].id);
        for (char *s = kept + strlen(g->records) + 1; *s; s++)
            if (*s == '/')
                *s = '-';
        rename(whole, kept);
    }
    free(whole);
    free(pattern);
    tl_argv_free(&argv);
    tl_argv_free(&c.options);
    return words;
}

int tl_run_tests(const tl_grading *g, const char *lab, const char *input, const char *bin, char *const *env,
                 FILE *plan)
{
    planned tests[TESTS_MAX];
    int n = read_plan(plan, tests), limit = 0, rc = 0;
    if (n == 0)
        return 0;
    for (int k = 0; k < n; k++) {
        if (!(tests[k].output = tl_output_new(g->outputs, NULL)))
            return 1;
        /* The suite's own limits come first: its watch on each call's CPU time
         * (tests/tl_test.h), which the run's CPU time is at least, and, at three times
         * the test's limit, Criterion's clock (a test it stops is run again alone). */
        limit += 3 * tests[k].seconds + g->test_margin;
    }
    /* The lab's limit on all its tests bounds the run too: the tests it stops are not run. */
    int left = tl_lab_cpu_left(g, lab);
    if (limit > left)
        limit = left;
    char *words = NULL;
    if (limit <= 0) {
        for (int k = 0; k < n; k++) {
            FILE *f = fopen(tests[k].output, "w");
            if (f) {
                fprintf(f, "not run: the tests of this lab ran past %d seconds of CPU time in all\n", g->lab_limit);
                fclose(f);
            }
        }
    } else {
        words = run_all(g, lab, input, bin, env, tests, n, limit);
    }
    char *line = words, verdict[16];
    for (int k = 0; k < n; k++) {
        /* grade-run's "timeout": past a time limit by its record or the suite's, never by the output's words */
        size_t len = line ? strcspn(line, "\n") : 0;
        snprintf(verdict, sizeof verdict, "%.*s", (int)(len < sizeof verdict ? len : 0), line ? line : "");
        line = line && line[len] ? line + len + 1 : NULL;
        if (!*verdict)
            strcpy(verdict, "fail");
        if (!strcmp(verdict, "timeout") && tl_lab_cpu_left(g, lab) > 0)
            tl_retry_alone(g, lab, tests[k].id, tests[k].seconds, &tests[k].output, input, bin, env, verdict);
        else if (!strcmp(verdict, "timeout"))
            tl_output_append(tests[k].output,
                             "\nnot run (again): the tests of this lab ran past %d seconds of CPU time in all\n",
                             g->lab_limit);
        if (!strcmp(verdict, "timeout"))
            strcpy(verdict, "fail");
        rc |= record(g, lab, &tests[k], verdict);
        free(tests[k].output);
    }
    free(words);
    return rc;
}

int tl_fail_tests(const tl_grading *g, const char *lab, const char *why, FILE *plan)
{
    planned tests[TESTS_MAX];
    int n = read_plan(plan, tests), rc = 0;
    for (int k = 0; k < n; k++) {
        if (!(tests[k].output = tl_output_new(g->outputs, why)))
            return 1;
        rc |= record(g, lab, &tests[k], "fail");
        free(tests[k].output);
    }
    return rc;
}

char *tl_gpu_launches(const tl_grading *g, const char *lab, const char *input, const char *bin, char *const *env,
                      FILE *plan)
{
    planned tests[TESTS_MAX];
    int n = read_plan(plan, tests), limit = 0;
    for (int k = 0; k < n; k++) {
        if (!(tests[k].output = tl_output_new(g->outputs, NULL)))
            return NULL;
        limit += 3 * tests[k].seconds + g->test_margin;
    }
    int left = tl_lab_cpu_left(g, lab);
    char *words = n > 0 && left > 0 ? run_all(g, lab, input, bin, env, tests, n, limit < left ? limit : left) : NULL;
    free(words); /* the verdicts are the emulator's run's to give */
    for (int k = 0; k < n; k++) {
        unlink(tests[k].output);
        free(tests[k].output);
    }
    /* grade-run's copy of the done record, the run's lines as they came */
    char path[PATH_MAX], line[16384];
    snprintf(path, sizeof path, "%s/done", g->records);
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    while (f && out && fgets(line, sizeof line, f))
        if (!strncmp(line, "launches ", 9) && strchr(line, '\n'))
            fprintf(out, "TILELAB_GPU_LAUNCH=%s", line + 9);
    if (f)
        fclose(f);
    if (out)
        fclose(out);
    /* None (the GPU's run reached no call), or more than a suite's calls write (lines besides
     * the suite's, which the emulator's run would read only in part): a line that names no
     * test, so that its checks say what ran on the GPU is not known. */
    if (text && (!*text || len > TL_GPU_LAUNCHES_MAX)) {
        free(text);
        text = strdup("TILELAB_GPU_LAUNCH=-\n");
    }
    return text;
}
