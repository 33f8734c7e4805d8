// expect: fail
// expect-not: atomicAdd(d_out
// emulator-says: came after it
// The right kernel (grid-stride, 8 elements a thread or more, shuffles,
// one atomic a block), but cudaMemset(d_out, 0) comes after the launch: on
// the default stream it runs after the kernel and wipes the sum. *d_out is
// 0 for every n (an H200 fails it so, 2026-11-28). The technique check
// that reads which work made *d_out said a store it cannot see, such as
// *d_out += sum, was to blame and advised the atomicAdd the kernel uses.
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__device__ __forceinline__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void sum(float *out, const float *in, size_t n)
{
    __shared__ float warps[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_sum(threadIdx.x < BLOCK_SIZE / 32 ? warps[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
            atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    if (n) {
        size_t blocks = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
        sum<<<(unsigned)(blocks < 1056 ? blocks : 1056), BLOCK_SIZE>>>(d_out, d_in, n);
    }
    cudaMemset(d_out, 0, sizeof(float));
}
