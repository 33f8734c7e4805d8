/*
 * Lab 3: the naive GPU transpose, one thread per element.
 *
 *   void transpose(float *d_out, const float *d_in, int rows, int cols);
 *
 * d_in  is rows x cols on the GPU, row-major: in[r][c]  is d_in[(size_t)r * cols + c]
 * d_out is cols x rows on the GPU, row-major: out[c][r] is d_out[(size_t)c * rows + r]
 *
 * Write two things:
 *  1. the kernel: each thread finds its (r, c) from blockIdx, blockDim and
 *     threadIdx, with x running along a row of in (so a warp reads 32
 *     neighbours), checks that it is inside the matrix, and copies one element;
 *  2. the launch in transpose(): blocks of TILE_DIM x BLOCK_ROWS threads and
 *     a grid with enough blocks to cover cols (in x) and rows (in y),
 *     rounding up. Launch on the default stream; do not synchronise.
 *
 * Sizes: any rows, cols >= 1 up to 524280: 1x1, 1xN, Nx1, 33x31, primes,
 *        rectangles both ways, 8192x8192.
 * Rules: move each float as it is (bit for bit); write nothing outside
 *        d_out; index with size_t. TILE_DIM and BLOCK_ROWS may be changed
 *        here or with make lab3 bench TILE_DIM=16 BLOCK_ROWS=16.
 * Graded by: make lab3 test (correctness, and the launch must cover the
 *        matrix) and make lab3 bench (GB/s beside the reference and the
 *        device-to-device copy).
 * Read README.md in this folder first.
 */
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in,
                                int rows, int cols)
{
    /* TODO: r and c of this thread; if inside the matrix,
     * copy one element. */
    (void)out;
    (void)in;
    (void)rows;
    (void)cols;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    TODO("write the kernel transpose_naive, then launch it here with dim3 block(TILE_DIM, "
         "BLOCK_ROWS) and a dim3 grid that covers cols x rows, rounding up (README.md, step 2)");
    (void)d_out;
    (void)d_in;
    (void)rows;
    (void)cols;
}
