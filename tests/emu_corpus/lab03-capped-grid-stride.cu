// expect: fail in y, 16 blocks of 8 threads are 128 threads for 1000 rows
// expect-not: (cols + TILE_DIM - 1) / TILE_DIM
// A grid capped at 16 x 16 blocks and 2-D grid-stride loops: right values, but
// lab 3's launch must cover the matrix. At 1000 x 37 the short side is y (rows):
// the message names it, and does not ask to round the columns up (stud8, bug 5).
/* A student from a CUDA-samples background: a fixed grid and 2-D
 * grid-stride loops, so "any size" works with at most 64 x 64 blocks. */
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += blockDim.y * gridDim.y)
        for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += blockDim.x * gridDim.x)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static unsigned cap(int need, unsigned most) { return need < (int)most ? (unsigned)need : most; }

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid(cap((cols + TILE_DIM - 1) / TILE_DIM, 16), cap((rows + BLOCK_ROWS - 1) / BLOCK_ROWS, 16));
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
