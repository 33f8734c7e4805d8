// expect: build-error cannot be directly written in a host function
// without-nvcc: builds
// The threadfence reduction of CUDA's samples (each block's partial in a
// __device__ array, a __device__ count of finished blocks, the last block
// adds the partials), with the count reset by the host, done = 0, before
// the launch: host code writes the host's copy of a __device__ variable,
// never the GPU's, and nvcc warns so (#20092-D), which the kit's build
// takes as an error. Without nvcc the emulator builds it and the host's
// write reaches the kernels' variable, a known limit (harness/emu/README.md);
// the kit's GPU build refuses it (student17, session 17).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#define MAX_BLOCKS 1024

__device__ float partials[MAX_BLOCKS];
__device__ unsigned int done;

__device__ float block_sum(float v)
{
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < BLOCK_SIZE / 32 ? warp_sums[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void sum_fence(float *out, const float *in, size_t n)
{
    __shared__ bool last;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    v = block_sum(v);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence();
        last = atomicInc(&done, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        float s = 0.0f;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK_SIZE)
            s += partials[b];
        s = block_sum(s);
        if (threadIdx.x == 0) *out = s;
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned blocks = want > MAX_BLOCKS ? MAX_BLOCKS : want == 0 ? 1 : (unsigned)want;
    done = 0;
    sum_fence<<<blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
