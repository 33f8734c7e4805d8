/*
 * What the runs of one lab's measurement are, and what they came to, as the
 * line of outcomes.tsv that grade-report scores (its "perf" line:
 * grade_report.c). grade_measuring.c runs the commands, in their sandbox;
 * the decisions are here.
 *
 * A measurement's runs are named, each with how grade-run said it ended (ok
 * or fail) and its output, in the order they ran; the first that failed is
 * the last given. Where nothing can be read, the line says "none", the
 * reason as a word (results.json gives it) and why, for the student, in a
 * file of its own made in OUTPUTS:
 *   build           the measuring program did not build
 *   setup           the grader could not make the folder it runs from
 *   disk-quota      the hand-in's builds and runs wrote past the grader's limit
 *   forbidden-call  the measured process made a system call it may not
 *                   (another process, the kernel moving memory: grade-confine)
 *   refused         the measuring program would not measure it (grade_perf.c)
 *   run-failed      a run crashed, was wrong, or ran out of time
 *   ended-early     the student's run printed no digest of its output
 *   wrong-result    its digest is not the reference's
 */
#ifndef TILELAB_GRADE_MEASURED_H
#define TILELAB_GRADE_MEASURED_H

typedef struct {
    const char *name;   /* the run's name: its folder under the measurement's */
    const char *binary; /* the build it runs: student or reference */
    const char *mode;   /* what it does: call, or skip (all but the call, whose counts are subtracted) */
} tl_callgrind_run;

/* The CPU labs' runs (callgrind), in their order. Only callgrind takes more than one. */
#define TL_CALLGRIND_RUNS 3
extern const tl_callgrind_run tl_callgrind_runs[TL_CALLGRIND_RUNS];

typedef struct {
    const char *name, *status, *output; /* status: grade-run's ok or fail */
} tl_measured_run;

/* The runs of method (callgrind, emu or gpu) made in dir, n of them; size: the side of
 * the matrix callgrind's runs transposed. Appends the perf line to outcomes: the raw
 * files grade-report reads, or "none" and why. 0 once written, 1 where it could not
 * be, 2 for runs that do not fit the method. */
int tl_measured_record(const char *outcomes, const char *outputs, const char *lab, const char *method,
                       const char *dir, const char *size, const tl_measured_run *runs, int n);

/* The lab's performance not measured: its reason (a word above) and why, for the student. */
int tl_measured_none(const char *outcomes, const char *outputs, const char *lab, const char *reason, const char *why);

#endif
