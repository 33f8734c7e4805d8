// expect: fail more blocks than the matrix has tiles
// gpu-expect: pass
// expect-not: one thread per element of a tile
// The kernel is right (64 x 65 padded tile, 64 x 8 threads, 8 elements
// each), but the grid's y is (rows + BLOCK_ROWS - 1) / BLOCK_ROWS where
// (rows + TILE_DIM - 1) / TILE_DIM belongs: 8 times the blocks in y. The
// extra blocks start past the last row and idle behind the bounds tests,
// so out is right and an H200's tests pass (2026-11-28); the technique
// check counts the idle blocks' threads and fails, and its message named
// "one thread per element of a tile", the loop the kernel has, not the
// grid: the emulator counts the blocks that touched no global memory.
#include "lab.h"

#define TILE_DIM 64
#define BLOCK_ROWS 8

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    unrolled<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(out, in, rows, cols);
}
