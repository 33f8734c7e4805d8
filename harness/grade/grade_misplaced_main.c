/*
 * grade-misplaced: what a hand-in holds instead of its lab files, and the
 * likely slip, when no lab's file was where the grader looks (grade.sh's
 * nothing_gradable): one line for the student (grade_misplaced.h).
 *
 * usage: grade-misplaced FOLDER/FILE... < FOUND
 *
 * FOLDER/FILE: each lab's file as the kit names it under labs/
 * ("01-cpu-naive/transpose.c"), in the labs' order. FOUND: the hand-in's
 * files, one a line, as the hand-in names them, in the order to show them.
 *
 * Exit status: 0; 2 for usage.
 */
#include <stdio.h>
#include <stdlib.h>

#include "grade_misplaced.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: grade-misplaced FOLDER/FILE... < FOUND\n");
        return 2;
    }
    size_t n_found;
    char **found = tl_found_read(stdin, &n_found);
    char *said = tl_misplaced(argv + 1, argc - 1, found, n_found);
    printf("%s\n", said);
    free(said);
    tl_found_free(found, n_found);
    return 0;
}
