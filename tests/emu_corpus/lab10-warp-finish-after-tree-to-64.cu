// expect: fail elements each: a thread that adds only a few
// expect-not: waits at a __syncthreads() in rounds a warp does alone
// gpu-expect: pass
// Step 5 as the handout writes it: the first add during load, a tree of
// __syncthreads() down to 64 values, and the first warp finishing alone, a
// __syncwarp() between each round's reads and its stores. It passes "a warp-
// level last step" (three barriers a block of 256: after the load, at 128 and
// at 64 values) and fails only "several elements a thread" (two each).
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
    for (unsigned k = BLOCK_SIZE / 2; k > 32; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        v = s[t];
        for (unsigned k = 32; k > 0; k >>= 1) {
            v += s[t + k];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE);
    sum_blocks<<<(unsigned)blocks, BLOCK_SIZE, BLOCK_SIZE * sizeof(float)>>>(d_out, d_in, n);
}
