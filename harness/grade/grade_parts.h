/*
 * A suite run of several tests (grade-run), its output cut into each test's
 * part as it comes: what the student reads for that test, and nothing that
 * decides a verdict.
 *
 * Criterion, run with --jobs 1 --verbose, runs the tests one at a time and
 * prints a line as each starts ("[RUN ] suite::test") and ends ("[PASS]
 * suite::test: (0.20s)", [FAIL], [SKIP]). A test's part is what came after
 * the end line of the test before it, up to its own: a test's own output
 * may come before its start line, which Criterion prints once the test has
 * told it, never after its end line. A test the run stopped in (after its
 * start line, before its end) gets what is left; where none had started,
 * each test that never ended reads it (a suite that could not start at
 * all says why there). Criterion's lines that say
 * nothing of the test (the run's headers, the tests the filter left out,
 * the start lines) are left out.
 *
 * Each part keeps its first and its last keep / 2 bytes, and says how many
 * it cut between them: a kernel's debugging printf fills one test's part
 * and not the others', and what a failed test says at its end (the checks'
 * diagnosis, just before its end line) is kept. The lab's code cannot print
 * such lines: what the lab process prints reaches the output through its
 * suite, each line behind "[lab process] " (lab_client.c), and a piece of a
 * line longer than this reads at once is never taken for one.
 */
#ifndef TILELAB_GRADE_PARTS_H
#define TILELAB_GRADE_PARTS_H

#include <stddef.h>

typedef struct tl_parts tl_parts;

/* For the tests named, as Criterion names them ("suite::test"), each part kept to keep bytes. */
tl_parts *tl_parts_new(const char *const *names, int n, size_t keep);
/* The next bytes of the run's output (stdout and stderr together, as they came). */
void tl_parts_feed(tl_parts *p, const char *bytes, size_t n);
/* Once the run's output has ended: test k's part, a string; whether it started and ended. */
const char *tl_parts_of(tl_parts *p, int k, int *began, int *ended);

#endif
