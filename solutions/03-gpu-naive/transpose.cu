/*
 * Lab 3 reference: one thread per element. A warp holds 32 threads with
 * consecutive threadIdx.x, so it reads 32 neighbours of one row of in
 * (one 128-byte line) and writes them 32 rows apart in out: 32 separate
 * 32-byte sectors, each used for 4 bytes.
 */
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
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
