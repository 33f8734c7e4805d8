// expect: fail
// expect-not: __syncthreads() missing
// Lab 3's launch kept in lab 4: blocks of TILE_DIM x BLOCK_ROWS (32 x 8)
// threads for a kernel that moves one element a thread of a TILE_DIM x
// TILE_DIM tile. Rows 8 to 31 of each tile are never loaded: no thread
// exists to load them. The barrier is there; the block is too short.
#include "lab.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

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

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_tiled<<<grid, block>>>(out, in, rows, cols);
}
