// expect: fail still waits at a __syncthreads() in rounds a warp does alone
// gpu-expect: pass
// Step 4's tree, a __syncthreads() after every round down to one value, and
// beside it five shuffles of a zero added to the block's sum: the shuffles a
// warp's last step makes, with none of the work. "A warp-level last step"
// counted shuffles alone and gave this its point (found by a cheater's
// hand-in, 2026-11-28: 8.95 of 10 where the same tree without them scored
// 7.95); it now also holds each block to the barriers a warp-finished tree
// passes. On a GPU the technique checks are skipped: its tests pass.
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_blocks(float *out, const float *in, size_t n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * BLOCK_SIZE * 2 + t;
    float v = i < n ? in[i] : 0.0f;
    if (i + BLOCK_SIZE < n)
        v += in[i + BLOCK_SIZE];
    s[t] = v;
    __syncthreads();
    for (unsigned k = BLOCK_SIZE / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    float z = 0.0f;
    for (int d = 16; d > 0; d >>= 1)
        z += __shfl_down_sync(0xffffffffu, z, d);
    if (t == 0)
        atomicAdd(out, s[0] + z);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE);
    sum_blocks<<<(unsigned)blocks, BLOCK_SIZE, BLOCK_SIZE * sizeof(float)>>>(d_out, d_in, n);
}
