// expect: build-error too much shared data
// A 128 x 128 tile: 64 KiB of shared memory, over the 48 KiB a block may declare.
#include "lab.h"

#define TILE 128

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * 32 + threadIdx.x, r = blockIdx.x * 32 + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(out, in, rows, cols);
}
