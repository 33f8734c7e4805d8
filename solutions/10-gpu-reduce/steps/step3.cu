/*
 * Lab 10, step 3 alone (README.md): NVIDIA's third kernel, sequential
 * addressing. Kept to measure the ladder.
 *
 * The tree turned round: in each round the first s threads add the slot s
 * above their own, s from half the block down to 1. A warp's lanes touch
 * 32 consecutive slots, one a bank: no conflicts. Half the threads do
 * nothing from the first round on, the last warp's lanes mostly nothing.
 */
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256 /* threads a block: a power of two, 64 to 1024 */
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        atomicAdd(out, sdata[0]);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE, BLOCK_SIZE * sizeof(float)>>>(d_out, d_in, n);
}
