/*
 * One command of the grader (a build, a suite run, a measuring run), run in
 * the grading's sandbox (grade_sandbox.h) under grade-run's limits
 * (grade_run.c), which count CPU time: every build, test and measurement of
 * a hand-in goes through here.
 *
 * The command holds the machine's lock (the grading's alone-lock) shared
 * while it runs, unless its caller holds it alone (a test run again alone:
 * grade_retry.c); waiting for it uses no CPU time, which is what the limits
 * count. Each mode's limits: a file the command writes is capped at the
 * grading's file-limit but in run mode (a test's own cap is the suite's),
 * each process's data at its memory-limit off a GPU. In the setpriv sandbox,
 * what the mode lets the hand-in's user write is given to it before, its
 * processes are ended after (grade_setpriv.c).
 */
#ifndef TILELAB_GRADE_COMMAND_H
#define TILELAB_GRADE_COMMAND_H

#include "grade_grading.h"

typedef struct {
    double limit;       /* seconds of CPU time (grade-run --limit) */
    const char *output; /* where its output goes */
    const char *mode;   /* build, link, run or perf (grade_sandbox.h) */
    const char *dir;    /* perf: the measurement's folder, which it writes */
    int alone;          /* the caller holds the machine's lock alone */
    tl_argv options;    /* grade-run's own: --test, --input, --cpu-record, --lock */
    char *const *argv;  /* the command, ended by NULL */
} tl_command;

/* Runs it: what grade-run printed (pass, fail, skip, timeout, ok: one word a line,
 * one a test with --test), or "fail\n" where it could not be run (why in the log).
 * Free it. */
char *tl_command_run(const tl_grading *g, const tl_command *c);

/* The setpriv sandbox (grade_setpriv.c). Before a command of mode (dir: perf's
 * folder), what the hand-in may write is its user's, the rest root's and closed to
 * writes; with link, the compiled references are copied where its group alone
 * reads them. The command's own folder, its /tmp, or NULL (why on stderr). */
char *tl_setpriv_prepare(const tl_grading *g, const char *mode, const char *dir);
/* After it, every process its user still has is killed (a daemon a hand-in left), its
 * /tmp removed, and Criterion's sockets whose process is gone. */
void tl_setpriv_cleanup(const tl_grading *g, char *private_tmp);

#endif
