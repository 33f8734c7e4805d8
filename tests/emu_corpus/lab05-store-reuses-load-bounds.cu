// expect: fail the stores' bounds test does not match
// expect-not: <= instead of <
// The store reuses the load's bounds test (one "inside" flag of the
// input's coordinates), so on rectangles and edge tiles it stores where it
// should not and skips where it should.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const bool inside = x < cols && y < rows;
    if (inside)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (inside)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
