/*
 * Lab 10, step 2 alone (README.md): NVIDIA's second kernel, interleaved
 * addressing with a strided index. Kept to measure the ladder.
 *
 * Step 1's rounds, with the work of a round given to the first threads of
 * the block (thread tid adds slot 2 s tid + s into slot 2 s tid): whole
 * warps now take the branch or skip it, and no % is left. The slots a
 * warp touches are 2s apart, so in shared memory's 32 banks the lanes of
 * a warp meet in the same bank, 2 to 16 at a time: bank conflicts.
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
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
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
