/*
 * What the grader does for one lab of a hand-in, each in its sandbox under its
 * limits (grade_command.h), recording what it saw in the grading's outcomes
 * (grade_outcomes.h), which grade-report scores: grade-lab runs them for
 * grade.sh (grade_lab_main.c says how), tl_grade_lab all of them in order.
 */
#ifndef TILELAB_GRADE_LAB_H
#define TILELAB_GRADE_LAB_H

#include <stdio.h>

#include "grade_grading.h"

/* A lab of the table of labs (harness/tools/labs.sh), as grade.sh names it. */
typedef struct {
    const char *lab;  /* its number, two digits: 01 */
    const char *dir;  /* its folder under labs/: 01-cpu-naive */
    const char *file; /* the file a student writes: transpose.c */
    const char *kind; /* cpu or gpu */
    const char *op;   /* its operation (harness/core/ops/) */
} tl_lab;

/* The lab graded, its lines in the grading's outcomes (grade_lab.c): a file not
 * handed in (with where the hand-in holds it, if it does), or the kit's stub
 * unchanged, is the lab lost, said; else its builds (a build that fails is the lab
 * lost), its tests in the suite runs grade_plan.h says, the technique checks' shapes
 * from a seed drawn fresh (tl_fresh_seed), its performance measured where every
 * correctness test passed (on a GPU, only its bench built: grade.sh times the labs
 * one at a time once all are graded), and the held-back cases (the grading's
 * environment's HIDDEN), their seed and shapes on the suite's standard input
 * alone. 0, or 1 where a line could not be recorded. */
int tl_grade_lab(const tl_grading *g, const tl_lab *lab);

/* A seed drawn from the kernel's random source (getrandom). */
unsigned long long tl_fresh_seed(void);

/* Builds targets (NULL-ended) of the hand-in, in mode build or link, for backend (cpu,
 * emu or cuda), its log in log: 0 built, 1 not (the log says why: the compiler, or a
 * file or the disk past the grader's limits). The compiled references are linked
 * from the reference build (make references), the shared harness from the hand-in's
 * own build folder: OPT=-O3 without -march, so that valgrind decodes every
 * instruction and every machine grades alike. */
int tl_build(const tl_grading *g, const char *log, const char *mode, const char *backend, char *const *targets);

/* When the hand-in's builds and measurements together hold more than the grading's
 * disk-limit: why, for the student (free it); its build folder and dir (a
 * measurement's, or NULL) are removed then, so that the disk is given back at
 * once. NULL otherwise. */
char *tl_over_quota(const tl_grading *g, const char *dir);

/* Runs the tests of plan (lines of tl_plan's: kind, SUITE/TEST, seconds and a tag
 * for its name, tab-separated) of bin, the lab's suite, in one suite run, in their
 * order, and records each one's outcome; a test that timed out runs again alone
 * (tl_retry_alone). input, where not NULL: what the suite reads on its standard
 * input (the held-back cases: tests/tl_test.h), where no lab's code reads it. env:
 * NAME=VALUE for the suite, NULL-ended. 0, or 1 where a line could not be recorded. */
int tl_run_tests(const tl_grading *g, const char *lab, const char *input, const char *bin, char *const *env,
                 FILE *plan);

/* On a GPU grading, the tests of plan (the technique tests) run on bin, the GPU's build, for
 * what the GPU launched at their shapes alone (tests/gpu_technique.h, TILELAB_RECORD_LAUNCHES
 * in input): their verdicts are not recorded. Those launches as the emulator's run of the same
 * tests reads them on its standard input, TILELAB_GPU_LAUNCH lines (free it); NULL where no
 * output could be made. */
char *tl_gpu_launches(const tl_grading *g, const char *lab, const char *input, const char *bin, char *const *env,
                      FILE *plan);

/* Records each test of plan as failed, not run, for why (the student's to read). */
int tl_fail_tests(const tl_grading *g, const char *lab, const char *why, FILE *plan);

/* The whole seconds of CPU time left to the lab's tests of the grading's lab-limit,
 * after those its test runs used so far (grade-run --cpu-record: RECORDS/cpu-labNN),
 * 0 at most. */
int tl_lab_cpu_left(const tl_grading *g, const char *lab);

/* A test of bin that timed out, its output in *output, run again once no other
 * command of any grader runs (the machine's lock alone) with limits retry-scale times
 * the reference's CPU time for the same test on this machine now, and never below
 * its own: a loaded machine does not decide the verdict. Its verdict (pass, fail,
 * skip or timeout) in verdict; *output becomes its new output's path, which says
 * what happened, the first run's output kept beside it (.first-run); flags.txt
 * flags the hand-in for the instructor. */
void tl_retry_alone(const tl_grading *g, const char *lab, const char *id, int seconds, char **output,
                    const char *input, const char *bin, char *const *env, char verdict[16]);

/* The lab's performance, measured in the sandbox and recorded (grade_measured.h):
 * kind cpu under callgrind, a GPU lab on backend emu by the emulator's profile, on
 * cuda by the bench, which holds the GPU timing lock while it times. */
int tl_measure(const tl_grading *g, const char *lab, const char *kind, const char *backend);

#endif
