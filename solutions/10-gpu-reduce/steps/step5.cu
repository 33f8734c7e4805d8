/*
 * Lab 10, step 5 alone (README.md): NVIDIA's fifth kernel, the last warp
 * unrolled. Kept to measure the ladder.
 *
 * Step 4, with the rounds of the tree stopped at 64 slots: the last six
 * rounds (s = 32 down to 1) are left to the first warp alone, with no
 * __syncthreads() between them. NVIDIA's kernel relied on a warp's 32 lanes
 * running in lockstep (and volatile, so that each lane reads what the
 * others stored). Since Volta they do not: lanes of a warp may run apart,
 * and a lane may read its partner's slot before the partner stored it.
 * __syncwarp() between a round's reads and its stores, and after them,
 * restores the order, as CUDA's programming guide writes it.
 */
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256 /* threads a block: a power of two, 64 to 1024 */
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * (blockDim.x * 2) + tid;
    float v = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        v = sdata[tid];
#pragma unroll
        for (unsigned s = 32; s > 0; s >>= 1) {
            v += sdata[tid + s];
            __syncwarp();
            sdata[tid] = v;
            __syncwarp();
        }
        if (tid == 0)
            atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE);
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE, BLOCK_SIZE * sizeof(float)>>>(d_out, d_in, n);
}
