/*
 * scores.tsv: what grade-report writes beside each hand-in's results and
 * its gradebook form reads back, one tab-separated record a line:
 *
 *   status   STATUS  DETAILS    how the hand-in was graded, in the words below
 *   sandbox  NAME               bwrap, setpriv or none: where its code ran
 *   warning  TEXT               what an instructor should know of the grading
 *   LAB  SCORE  MAX  STATE      a lab's points (unrounded: the gradebook sums
 *                               them) and what became of it
 *
 * A lab not handed in has a line, so that its cell is left empty rather
 * than read as 0, which an honest hand-in can earn.
 */
#ifndef TILELAB_GRADE_SCORES_H
#define TILELAB_GRADE_SCORES_H

/* What became of a lab. */
enum lab_state {
    LAB_GRADED,  /* built, and its tests ran */
    LAB_STUB,    /* the kit's stub, as it is: not built */
    LAB_TODO,    /* every test reached the stub's TODO() */
    LAB_MISSING, /* not in the hand-in */
    LAB_BUILD,   /* did not build */
    LAB_TIMEOUT, /* graded, but a test ran past its time limit */
    N_LAB_STATES
};

/* Each state as scores.tsv writes it, and as a summary says it of a lab. */
extern const char *const lab_state_name[N_LAB_STATES];
extern const char *const lab_state_said[N_LAB_STATES];

/* A hand-in's status, the gradebook's column: the first that holds. */
#define STATUS_DAMAGED "damaged archive"   /* the archive could not be read whole */
#define STATUS_NOTHING "nothing gradable"  /* no lab's file where the grader looks */
#define STATUS_STUBS "stubs only"          /* every lab handed in is still the stub */
#define STATUS_TIMEOUT "timed out"         /* a test, or a cluster's task, ran out of time */
#define STATUS_BUILD "build failed"        /* a lab did not build */
#define STATUS_GRADED "graded"             /* none of the above */
#define STATUS_NOT_GRADED "not graded"     /* the grader stopped before it scored the hand-in */

/* grade-report gradebook ...: the class's gradebook and end report (grade_book.c). */
int gradebook(int argc, char **argv);

#endif
