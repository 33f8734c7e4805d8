/*
 * Lab 4 reference: a shared-memory tile makes both global accesses
 * coalesced. A block reads a TILE_DIM x TILE_DIM tile of in row by row and
 * writes it to out row by row; the transpose happens in shared memory,
 * where reading a column is cheap. Cheap, not free: tile[x][y] with x
 * running across a warp reads addresses TILE_DIM floats apart, all in the
 * same bank when TILE_DIM is 32. Lab 5 removes that conflict.
 */
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];

    __syncthreads();

    /* The same tile seen from out: its rows are columns of in. */
    int out_c = blockIdx.y * TILE_DIM + threadIdx.x;
    int out_r = blockIdx.x * TILE_DIM + threadIdx.y;
    if (out_r < cols && out_c < rows)
        out[(size_t)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
