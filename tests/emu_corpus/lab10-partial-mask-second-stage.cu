// expect: pass
// Correct: a grid-stride loop, each warp's sum by five __shfl_down_sync
// rounds, then the block's eight warp sums finished by lanes 0-7 of the
// first warp alone, with the mask 0xff that names exactly them (lanes 4-7
// read lanes past the mask, whose values are undefined but reach no sum).
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_masked(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    constexpr unsigned warps = BLOCK_SIZE / 32;
    constexpr unsigned mask = warps >= 32 ? 0xffffffffu : (1u << warps) - 1u;
    if (threadIdx.x < warps) {
        v = warp_sums[threadIdx.x];
        for (unsigned off = warps / 2; off > 0; off /= 2)
            v += __shfl_down_sync(mask, v, off);
        if (threadIdx.x == 0) atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemsetAsync(d_out, 0, sizeof(float), 0);
    if (n == 0) return;
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned int blocks = want > 2048 ? 2048 : (unsigned int)want;
    sum_masked<<<blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
