// expect: build-error static assertion failed
// static_assert that each thread moves 8 rows, written for TILE_DIM 64:
// with the defaults (TILE_DIM 32, BLOCK_ROWS 8) it moves 4, and the build
// stops at the assertion.
// The kit's GPU build (make GPU=cuda emu-corpus, nvcc 13) refuses it so (student17, session 17).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

static_assert(TILE_DIM % BLOCK_ROWS == 0, "BLOCK_ROWS must divide TILE_DIM");
static_assert(TILE_DIM / BLOCK_ROWS == 8, "each thread moves 8 rows");

__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
}
