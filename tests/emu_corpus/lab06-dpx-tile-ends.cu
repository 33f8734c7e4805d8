// expect: pass
// The textbook unrolled transpose (TILE_DIM x BLOCK_ROWS threads, a padded
// tile), whose bounds are where the tile ends: min(first + TILE_DIM, rows)
// with Hopper's fused add-and-min, __viaddmin_s32 (a DPX function of
// compute capability 9.0, which CUDA also runs on other GPUs in software).
// A student's file (2026-11-28): nvcc builds it, an H100 transposes right;
// the emulator had no DPX functions and refused to build it.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_kernel(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int c0 = blockIdx.x * TILE_DIM, r0 = blockIdx.y * TILE_DIM;
    int row_end = __viaddmin_s32(r0, TILE_DIM, rows);
    int col_end = __viaddmin_s32(c0, TILE_DIM, cols);
    int x = c0 + threadIdx.x;
    for (int j = threadIdx.y; r0 + j < row_end; j += BLOCK_ROWS)
        if (x < col_end)
            tile[j][threadIdx.x] = in[(size_t)(r0 + j) * cols + x];
    __syncthreads();
    x = r0 + threadIdx.x;
    for (int j = threadIdx.y; c0 + j < col_end; j += BLOCK_ROWS)
        if (x < row_end)
            out[(size_t)(c0 + j) * rows + x] = tile[threadIdx.x][j];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_kernel<<<grid, block>>>(d_out, d_in, rows, cols);
}
