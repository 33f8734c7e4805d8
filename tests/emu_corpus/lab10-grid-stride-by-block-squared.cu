// expect: fail gridDim.x * blockDim.x
// A grid-stride loop whose step is blockDim.x * blockDim.x (65536), where
// gridDim.x * blockDim.x is meant: below n = 65536 each thread adds its first
// element and leaves. The lost tail must be told with the step, not only with
// a grid to round up (the grid is rounded up). A tester's student file (2026-11-29).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float sums[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * blockDim.x)
        v += in[i];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    if (threadIdx.x % 32 == 0)
        sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < BLOCK_SIZE / 32; w++)
            s += sums[w];
        atomicAdd(out, s);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 4 * BLOCK_SIZE - 1) / (4 * BLOCK_SIZE);
    if (blocks > 512)
        blocks = 512;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
