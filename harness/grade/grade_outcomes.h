/*
 * What the grader records of a hand-in (OUT_DIR/NAME/outcomes.tsv, which
 * grade-report scores: grade_report.c says its lines), and the files of
 * its outputs/ folder that a line names: what a command printed, or what
 * the student is told.
 */
#ifndef TILELAB_GRADE_OUTCOMES_H
#define TILELAB_GRADE_OUTCOMES_H

/* One line of outcomes, its n fields tab-separated, in one write: labs graded side by
 * side append to their own, but grade-all's second pass appends beside the first's.
 * 0, or 1 (why on stderr). */
int tl_outcome(const char *outcomes, const char *const *fields, int n);

/* A fresh file in outputs (out-XXXXXX), holding text and a newline where text is not
 * NULL, empty otherwise: its path (free it), or NULL (why on stderr). */
char *tl_output_new(const char *outputs, const char *text);

/* Appends the formatted text to the file at path (made if missing); 0, or 1. */
int tl_output_append(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
