/*
 * grade-perf ROWSxCOLS call|skip: what the grader runs under cache simulation
 * to measure a CPU lab. It is linked with one lab file only (the student's or
 * the reference, never both), so a hand-in cannot reach the reference's code.
 *
 * "call" transposes a matrix once and checks the result; "skip" does all
 * the same but the call. The grader counts every thread of both runs and
 * subtracts: work moved to another thread is still counted, and work done
 * before the call (in a constructor) counts against the hand-in.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lab.h"
#include "matrix.h"
#include "shapes.h"

int main(int argc, char **argv)
{
    tl_shape s;
    char why[256];
    if (argc != 3 || tl_parse_shape(argv[1], &s, why, sizeof why) ||
        (strcmp(argv[2], "call") && strcmp(argv[2], "skip"))) {
        fprintf(stderr, "usage: grade-perf ROWSxCOLS call|skip\n");
        return 2;
    }
    size_t n = (size_t)s.rows * (size_t)s.cols;
    tl_matrix in, out;
    if (tl_matrix_alloc(&in, n) || tl_matrix_alloc(&out, n)) {
        fprintf(stderr, "grade-perf: out of memory\n");
        return 1;
    }
    tl_fill_random(in.data, n, TL_DEFAULT_SEED);
    tl_fill_bits(out.data, n, TL_POISON_BITS);
    if (!strcmp(argv[2], "skip"))
        return 0;
    tl_todo_reset();
    transpose(out.data, in.data, s.rows, s.cols);
    if (tl_todo_message()) {
        printf("not implemented yet: %s\n", tl_todo_message());
        return 3;
    }
    for (size_t r = 0; r < (size_t)s.rows; r++)
        for (size_t c = 0; c < (size_t)s.cols; c++)
            if (tl_float_bits(out.data[c * s.rows + r]) != tl_float_bits(in.data[r * s.cols + c])) {
                printf("the transpose of a %d x %d matrix was wrong at row %zu, col %zu: "
                       "measured only when right\n", s.rows, s.cols, r, c);
                return 3;
            }
    return 0;
}
