/*
 * Lab 1: the naive CPU transpose.
 *
 *   void transpose(float *out, const float *in, int rows, int cols);
 *
 * in  is rows x cols, row-major: in[r][c]  is in[(size_t)r * cols + c]
 * out is cols x rows, row-major: out[c][r] is out[(size_t)c * rows + r]
 *
 * Write out[c][r] = in[r][c] for every r < rows and c < cols.
 *
 * Sizes: any rows, cols >= 1: 1x1, 1xN, Nx1, primes, rectangles both ways,
 *        4096x4096, and random shapes you have not seen.
 * Rules: only read in; write each element of out once and nothing outside
 *        it; move each float as it is (bit for bit: -0.0, NaN, denormals),
 *        no arithmetic on the values. Index with size_t: r * cols can pass
 *        2^31 on large matrices.
 * Graded by: make lab1 test (correctness, every shape above) and
 *        make lab1 bench (GB/s beside the reference and memcpy).
 * Read README.md in this folder first.
 */
#include "lab.h"

#include <stddef.h> /* size_t, for the (size_t) casts of the indices */

void transpose(float *out, const float *in, int rows, int cols)
{
    TODO("write two loops, over r < rows and c < cols, that copy in[r][c] to out[c][r] "
         "(the comment at the top of labs/01-cpu-naive/transpose.c gives both indices)");
    (void)out;
    (void)in;
    (void)rows;
    (void)cols;
}
