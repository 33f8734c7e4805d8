// expect: pass
// Correct: a grid-stride loop, a sequential tree in shared memory down to
// 32 values, then the threads still inside `if (tid < 32)` take
// cg::coalesced_threads() and cg::reduce it; its rank 0 adds the block's
// sum with one atomicAdd.
// Its verdict on a lent H200, as above (student17, session 17).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "lab.h"

namespace cg = cooperative_groups;

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_coalesced(float *out, const float *in, size_t n)
{
    __shared__ float s[BLOCK_SIZE];
    const unsigned tid = threadIdx.x;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + tid; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    s[tid] = v;
    __syncthreads();
    for (unsigned half = BLOCK_SIZE / 2; half >= 32; half /= 2) {
        if (tid < half) s[tid] += s[tid + half];
        __syncthreads();
    }
    if (tid < 32) {
        cg::coalesced_group active = cg::coalesced_threads();
        float sum = cg::reduce(active, s[tid], cg::plus<float>());
        if (active.thread_rank() == 0) atomicAdd(out, sum);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0) return;
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned int blocks = want > 1024 ? 1024 : (unsigned int)want;
    sum_coalesced<<<blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
