/*
 * The points of each lab, from labs/grading.conf (WEIGHTS): its own line, or
 * the default line of its kind and operation for a lab of the table of labs
 * (LABS_TSV, harness/tools/labs.c) that has none (grade_report.c says how
 * the file reads). Shared by the report of one hand-in and the gradebook of
 * a class.
 */
#ifndef TILELAB_GRADE_WEIGHTS_H
#define TILELAB_GRADE_WEIGHTS_H

#define MAX_LABS 100

typedef struct {
    int present;
    double correctness, technique, performance, zero_at, full_at;
} weights;

/* Every lab with points, in WEIGHTS' order, then those given a default. */
extern weights lab_weights[MAX_LABS];
/* The share of a lab's correctness tests that must pass before its technique
 * tests count ("technique_needs" in WEIGHTS): a kernel that fails most of
 * them shows no technique, however it is built. */
extern double technique_needs;
extern int lab_order[MAX_LABS], n_labs;

/* Says what is wrong on stderr, and exits 1. */
void die(const char *what, const char *detail);

void read_weights(const char *path);

/* Every lab of the table LABS_TSV (in the environment) gets points: its own line, or
 * its kind's default, which is said on stderr and, when note is given,
 * passed to it. A lab with neither stops the program. */
void default_labs(const char *weights_path, void (*note)(const char *text));

/* The points of the labs of the table LABS_TSV together, once default_labs has run: a
 * hand-in's maximum, which a Gradescope assignment's points must be. */
double table_points(void);

#endif
