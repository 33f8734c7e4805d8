/*
 * Which of a lab's tests the grader runs in each of its suite runs, and
 * whether the lab's performance is to be measured (grade_plan.c): what
 * grade-lab's grading of a lab (grade_lab.c) runs.
 */
#ifndef TILELAB_GRADE_PLAN_H
#define TILELAB_GRADE_PLAN_H

#include <stdio.h>

/* What a suite run holds besides (tl_plan's flags). */
enum {
    TL_PLAN_TECHNIQUE_APART = 1, /* visible: the technique tests left out (on a GPU, the emulator's build runs them) */
    TL_PLAN_SEED = 2,            /* held-back: the random tests again, with the held-back seed */
    TL_PLAN_CASES = 4,           /* held-back: the held-back tests, with the operation's held-back cases */
};

/* The tests of one suite run, written to out in the order they run, one a line:
 * the kind the grader records (grade_report.c), the test (SUITE/TEST), its seconds
 * and a tag for its name, tab-separated (grade_lab.h's tl_run_tests reads them).
 * manifest: the suite's own list, written from the reference's build
 * (tests/tl_test.h: "kind suite/test seconds" a line, the last to run first).
 *   visible    every test but the held-back ones (and the technique tests,
 *              TL_PLAN_TECHNIQUE_APART)
 *   technique  the technique tests alone
 *   held-back  the random tests again (TL_PLAN_SEED) and the held-back tests
 *              (TL_PLAN_CASES), each kind "held-back": they run last, in a
 *              sandbox of their own, and are never shown to the student
 * 0; 1 for a manifest that cannot be read (why on stderr); 2 for a run unknown or a
 * flag that is not its. */
int tl_plan(const char *manifest, const char *which, int flags, FILE *out);

/* 1 where every correctness test of lab recorded so far in outcomes passed (technique
 * tests aside): performance counts only then (grade_report.c), so it is measured
 * only then; 0 otherwise, or where outcomes cannot be read (why on stderr). */
int tl_lab_correct(const char *outcomes, const char *lab);

#endif
