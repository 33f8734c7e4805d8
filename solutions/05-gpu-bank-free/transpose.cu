/*
 * Lab 5 reference: lab 4's kernel with one float of padding per tile row.
 * Shared memory has 32 banks of 4 bytes; element [y][x] of a tile whose
 * rows are TILE_DIM + 1 floats long sits in bank (y * 33 + x) % 32 when
 * TILE_DIM is 32, so the 32 threads reading a column, tile[x][y] for x = 0..31,
 * hit 32 different banks instead of one.
 */
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];

    __syncthreads();

    int out_c = blockIdx.y * TILE_DIM + threadIdx.x;
    int out_r = blockIdx.x * TILE_DIM + threadIdx.y;
    if (out_r < cols && out_c < rows)
        out[(size_t)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
