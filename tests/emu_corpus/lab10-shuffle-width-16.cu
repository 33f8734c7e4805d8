// expect: fail offset is not below its width
// Shuffles of width 16 from offset 16 (the width taken for "how far"): the
// width cuts the warp into segments of 16 lanes, a lane whose source lies
// past its segment gets its own value, so the first step doubles every
// value and lanes 16-31's sums never reach lane 0. At n = 1: twice the sum.
// A tester's student file (2026-11-29).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float sums[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        v += in[i];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off, 16);
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
