// expect: build-error variable length array
// The warps' sums sized by warpSize, __shared__ float sums[BLOCK_SIZE /
// warpSize]: warpSize is a variable of the device, not a constant, so the
// array's length is not a constant expression and nvcc refuses it.
// The kit's GPU build (make GPU=cuda emu-corpus, nvcc 13) refuses it so (student17, session 17).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_warps(float *out, const float *in, size_t n)
{
    __shared__ float sums[BLOCK_SIZE / warpSize];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    for (int off = warpSize / 2; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % warpSize == 0) sums[threadIdx.x / warpSize] = v;
    __syncthreads();
    if (threadIdx.x < warpSize) {
        v = threadIdx.x < BLOCK_SIZE / warpSize ? sums[threadIdx.x] : 0.0f;
        for (int off = warpSize / 2; off > 0; off /= 2)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (threadIdx.x == 0) atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0) return;
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned int blocks = want > 1024 ? 1024 : (unsigned int)want;
    sum_warps<<<blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
