// expect: fail blockIdx.x * gridDim.x + threadIdx.x gives
// expect-not: the bounds test stops them
// expect-not: Round the number of blocks up
// A student's: gridDim where blockDim was meant in the thread's column. Each block's 32
// columns start gridDim.x apart: blocks overlap, or leave gaps, and whole columns of in
// never reach out, though the grid and the bounds test are right.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * gridDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
