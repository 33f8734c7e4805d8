// expect: pass
// The tile is filled and drained by __device__ helpers.
#include "lab.h"

#define TILE 32

__device__ void load(float (*tile)[TILE], const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
}

__device__ void store(float *out, float (*tile)[TILE], int rows, int cols)
{
    int c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    load(tile, in, rows, cols);
    __syncthreads();
    store(out, tile, rows, cols);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
