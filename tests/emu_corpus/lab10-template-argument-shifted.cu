// expect: pass
// A template argument with a shift in parentheses, just before <<<:
// reduce<BLOCK_SIZE, (BLOCK_SIZE >> 5)><<<...>>> (the emulator once said
// 'a <<< that the emulator cannot read').
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

template <int THREADS, int WARPS>
__global__ void block_sum(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[WARPS];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < n; i += (size_t)gridDim.x * THREADS)
        v += in[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < WARPS ? warp_sums[threadIdx.x] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0)
            atomicAdd(out, v);
    }
}

void reduce(float *out, const float *in, size_t n)
{
    cudaMemsetAsync(out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8);
    block_sum<BLOCK_SIZE, (BLOCK_SIZE >> 5)><<<(unsigned)(blocks < 1024 ? blocks : 1024), BLOCK_SIZE>>>(out, in, n);
}
