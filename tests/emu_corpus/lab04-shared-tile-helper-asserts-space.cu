// expect: pass
// The tile's load and store in two __device__ helpers, each asserting that
// the tile it was handed lies in shared memory and the matrix in global
// memory (__isShared, __isGlobal): a student's guard against passing the
// arguments the wrong way round (2026-11-28). nvcc builds it and the
// assertions hold on a GPU; the emulator had no __isShared or __isGlobal and
// refused to build it.
#include <assert.h>

#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__device__ void load_tile(float (*tile)[TILE_DIM], const float *in, int rows, int cols)
{
    assert(__isShared(tile) && __isGlobal(in) && !__isLocal(in));
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
}

__device__ void store_tile(float *out, float (*tile)[TILE_DIM], int rows, int cols)
{
    assert(__isGlobal(out) && __isShared(tile) && !__isConstant(tile));
    int x = blockIdx.y * TILE_DIM + threadIdx.x, y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_kernel(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    load_tile(tile, in, rows, cols);
    __syncthreads();
    store_tile(out, tile, rows, cols);
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_kernel<<<grid, block>>>(d_out, d_in, rows, cols);
}
