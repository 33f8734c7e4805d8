// expect: fail count of blocks done that an earlier call left past 0
// The last block adds the partials (threadfence and atomicInc, as CUDA's
// threadFenceReduction sample does), but its count of blocks done is
// atomicInc(&blocks_done, gridDim.x), which leaves it at gridDim.x after the
// last block (it wraps to 0 only at the next), and nothing sets it back: the
// first call is right, and the next finds no last block, or one too early. A tester's student file (2026-11-29).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#define MAX_BLOCKS 512

__device__ float partials[MAX_BLOCKS];
__device__ unsigned int blocks_done = 0;

__device__ float block_sum(float v)
{
    __shared__ float w[32];
    for (int off = 16; off; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    if (threadIdx.x % 32 == 0)
        w[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? w[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int off = 16; off; off >>= 1)
            v += __shfl_down_sync(0xffffffff, v, off);
    __syncthreads();
    return v;
}

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ bool last;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        v += in[i];
    v = block_sum(v);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence();
        unsigned ticket = atomicInc(&blocks_done, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        float s = 0.0f;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
            s += ((volatile float *)partials)[b];
        s = block_sum(s);
        if (threadIdx.x == 0)
            *out = s;
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    if (n == 0) {
        cudaMemset(d_out, 0, sizeof(float));
        return;
    }
    size_t blocks = (n + 4 * BLOCK_SIZE - 1) / (4 * BLOCK_SIZE);
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
