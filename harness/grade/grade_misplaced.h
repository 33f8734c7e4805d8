/*
 * What a hand-in holds instead of a lab file the grader looks for, and the
 * likely slip (grade_misplaced.c): one line for the student, from the
 * hand-in's listing (grade-unpack's: its files, one a line, as the hand-in
 * names them). Lab files are named as the kit names them under labs/
 * ("01-cpu-naive/transpose.c").
 */
#ifndef TILELAB_GRADE_MISPLACED_H
#define TILELAB_GRADE_MISPLACED_H

#include <stddef.h>
#include <stdio.h>

/* The listing's lines, read from f: an array of *n strings (tl_found_free frees it). */
char **tl_found_read(FILE *f, size_t *n);
void tl_found_free(char **found, size_t n);

/* No lab's file was where the grader looks (grade.sh's nothing_gradable): what
 * found holds instead ("found A, B, C and 4 more, expected labs/..."), and the
 * likeliest slip over every file: a kit packed from the folder above it (its lab
 * files one folder too deep), then from inside labs/, then lab files elsewhere; the
 * files that show it are named first, three at most, and how many more. labs: each
 * lab's file, in the labs' order. Free it. */
char *tl_misplaced(char *const *labs, int n_labs, char *const *found, size_t n_found);

/* One lab's file, dir_file, not where the grader looks, though found holds a file of
 * its name in a folder of the lab's name (labs/03-gpu-naive/src/transpose.cu): "found
 * ... -- " and the slip, as tl_misplaced says it, naming those files alone. NULL where
 * found holds none (free it). */
char *tl_misplaced_lab(const char *dir_file, char *const *found, size_t n_found);

#endif
