// expect: pass
// The tile loaded with cuda_pipeline.h's asynchronous copies: each thread
// copies its element into shared memory, commits, and waits for it before
// the block's barrier.
#include <cuda_pipeline.h>

#include "lab.h"

#define TILE 32

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        __pipeline_memcpy_async(&tile[threadIdx.y][threadIdx.x], &in[(size_t)r * cols + c], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
