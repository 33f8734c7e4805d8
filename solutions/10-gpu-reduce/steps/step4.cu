/*
 * Lab 10, step 4 alone (README.md): NVIDIA's fourth kernel, the first add
 * during load. Kept to measure the ladder.
 *
 * Step 3's tree, with half the blocks: each thread loads two elements a
 * block apart and stores their sum, so that no thread is idle in the first
 * round. Each load has its own bounds test: the second element of a thread
 * near the end may lie past n while the first does not.
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
    size_t blocks = (n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE);
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE, BLOCK_SIZE * sizeof(float)>>>(d_out, d_in, n);
}
