/*
 * grade-perf ROWSxCOLS call|skip SEED: what the grader runs under cache
 * simulation to measure a CPU lab. It is linked with one lab file only (the
 * student's or the reference, never both), so a hand-in cannot reach the
 * reference's code.
 *
 * "call" transposes a matrix of random floats (SEED: a new one each time
 * the grader measures) once; "skip" does all the same but the call and what
 * follows it. The grader counts every thread of both runs and subtracts:
 * work moved to another thread is still counted, and work done before the
 * call (in a constructor) counts against the hand-in. No other process can
 * do it: the grader runs this under grade-confine.
 *
 * After the call, one pass along out's rows prints its digest,
 *
 *     transposed: DIGEST
 *
 * and the grader takes the measure only where it is the reference's digest
 * of the same input: a hand-in that left early (exit() in the lab code)
 * prints none, and one that printed the line itself must have worked out
 * the transpose of this input to know it. The pass costs every hand-in the
 * same misses, a line's worth per 16 floats. An element-by-element check
 * against in, as the tests make, would read one of the two matrices across
 * its rows, as many misses as a naive transpose: added to every hand-in's,
 * they once made the lab 1 loop handed in as lab 2 measure half the
 * reference rather than a tenth of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lab.h"
#include "matrix.h"
#include "shapes.h"

/* FNV-1a over 32-bit words: order matters, so an element in the wrong place
 * changes it. */
#define DIGEST_START 0xcbf29ce484222325u
#define DIGEST_PRIME 0x100000001b3u

static uint64_t digest_step(uint64_t d, float x)
{
    return (d ^ tl_float_bits(x)) * DIGEST_PRIME;
}

static uint64_t digest_in_order(const float *p, size_t n)
{
    uint64_t d = DIGEST_START;
    for (size_t i = 0; i < n; i++)
        d = digest_step(d, p[i]);
    return d;
}

int main(int argc, char **argv)
{
    tl_shape s;
    char why[256], *end;
    unsigned long long seed = argc == 4 ? strtoull(argv[3], &end, 10) : 0;
    if (argc != 4 || tl_parse_shape(argv[1], &s, why, sizeof why) ||
        (strcmp(argv[2], "call") && strcmp(argv[2], "skip")) || !*argv[3] || *end) {
        fprintf(stderr, "usage: grade-perf ROWSxCOLS call|skip SEED\n");
        return 2;
    }
    size_t n = (size_t)s.rows * (size_t)s.cols;
    tl_matrix in, out;
    if (tl_matrix_alloc(&in, n) || tl_matrix_alloc(&out, n)) {
        fprintf(stderr, "grade-perf: out of memory\n");
        return 1;
    }
    tl_fill_random(in.data, n, seed);
    tl_fill_bits(out.data, n, TL_POISON_BITS);
    if (!strcmp(argv[2], "skip"))
        return 0;
    tl_todo_reset();
    transpose(out.data, in.data, s.rows, s.cols);
    if (tl_todo_message()) {
        printf("not implemented yet: %s\n", tl_todo_message());
        return 3;
    }
    printf("transposed: %016" PRIx64 "\n", digest_in_order(out.data, n));
    return 0;
}
