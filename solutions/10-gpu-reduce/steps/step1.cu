/*
 * Lab 10, step 1 alone (README.md): NVIDIA's first kernel, interleaved
 * addressing with divergent branches. Kept to measure the ladder; the
 * reference (../reduce.cu) is past its last step.
 *
 * One element a thread into shared memory, then a tree: in the round of
 * stride s, the threads whose index is a multiple of 2s add their
 * neighbour s slots up. Every round keeps all warps busy with a branch
 * that only some of their lanes take (tid % (2 * s) == 0), and % is slow.
 * Where NVIDIA's kernel stored each block's sum for a second launch, these
 * steps add it to *d_out with one atomicAdd, as the reference does, so
 * that the steps differ only in what a block does.
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
        if (tid % (2 * s) == 0)
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
