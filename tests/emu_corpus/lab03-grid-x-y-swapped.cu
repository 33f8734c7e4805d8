// expect: fail has its x and y swapped
// expect-not: Round the number of blocks up
// expect-not: stops short
// A student's: the grid's x counted over rows and its y over cols, both rounded up. x runs
// along a row of in, over its columns; the grid reaches too few rows or columns.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((rows + TILE_DIM - 1) / TILE_DIM, (cols + BLOCK_ROWS - 1) / BLOCK_ROWS);
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
