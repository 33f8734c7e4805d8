/*
 * An instructor's held-back cases (HIDDEN=), read (grade_held_back.c): for
 * grade-held-back, which checks the file before anyone is graded, and for
 * grade-lab, which gives a lab's suite its cases (grade_lab.c).
 *
 * The file holds a kind a line, # for comments (the last line of a kind counts):
 *
 *   seed 4242                   every random test again, with this seed
 *
 * and the operations' own keywords, each with its cases (harness/core/ops/:
 * an operation's .held_back, and .held_back_are, what follows it), e.g.
 *
 *   shapes 97x1031,4095x33      transposes: rows x cols
 *   products 97x65x1031         matrix products (labs 7-8): m x n x k
 */
#ifndef TILELAB_GRADE_HELD_BACK_H
#define TILELAB_GRADE_HELD_BACK_H

/* Reads file; where op is not NULL, *input becomes what a suite of operation op reads
 * on its standard input for them (free it): a "TILELAB_SEED=N" line and a
 * "TILELAB_HIDDEN=CASES" line (the operation's cases), each where the file has its
 * kind, "" where it has neither (tests/tl_test.h: never a command line or an
 * environment, which a lab's code could read). 0; 2 for a line it cannot read (said
 * on stderr, with what it should be: the grader stops before it grades anyone,
 * rather than leaving a case silently out), a file it cannot open, or an operation
 * not in the kit's table. */
int tl_held_back(const char *file, const char *op, char **input);

#endif
