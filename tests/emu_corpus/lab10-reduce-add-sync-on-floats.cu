// expect: build-error __reduce_add_sync
// The warp's sum by __reduce_add_sync, the sm_80 hardware reduction, given
// a float: it has only integer forms, (unsigned, unsigned) and (unsigned,
// int), and a float converts to either as well, so nvcc calls the call
// ambiguous ("more than one instance of overloaded function").
// The kit's GPU build (make GPU=cuda emu-corpus, nvcc 13) refuses it so (student17, session 17).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_redux(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    v = __reduce_add_sync(0xffffffffu, v);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK_SIZE / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (threadIdx.x == 0) atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0) return;
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned blocks = want > 1024 ? 1024 : (unsigned)want;
    sum_redux<<<blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
