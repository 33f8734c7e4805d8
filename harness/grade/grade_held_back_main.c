/*
 * grade-held-back: an instructor's held-back cases (HIDDEN=), read
 * (grade_held_back.h says the file's lines).
 *
 * usage: grade-held-back FILE        is every line of FILE one the grader reads?
 *        grade-held-back FILE OP     what a suite of operation OP reads on its
 *                                    standard input for them
 *
 * A line it cannot read is said, with what it should be, and it exits 2:
 * the grader stops before it grades anyone, rather than leaving a case
 * silently out (grade.sh, grade-all.sh, grade-slurm.sh, gradescope.sh).
 *
 * With OP, it prints "TILELAB_SEED=N" and "TILELAB_HIDDEN=CASES" lines, each
 * where FILE has its kind.
 *
 * Exit status: 0; 2 for a line it cannot read, a file it cannot open, or usage.
 */
#include <stdio.h>
#include <stdlib.h>

#include "grade_held_back.h"

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: grade-held-back FILE [OPERATION]\n");
        return 2;
    }
    char *input = NULL;
    int rc = tl_held_back(argv[1], argc == 3 ? argv[2] : NULL, &input);
    if (!rc && input)
        fputs(input, stdout);
    free(input);
    return rc;
}
