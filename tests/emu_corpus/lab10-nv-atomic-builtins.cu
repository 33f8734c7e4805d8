// expect: pass
// CUDA 12.8's built-in atomics, with a memory order and a scope: each warp's
// shuffled sum added to the block's __shared__ sum by __nv_atomic_add at
// block scope, read back by __nv_atomic_load (the generic form: a float),
// and added to the output by __nv_atomic_fetch_add at device scope, one a
// block. The emulator lacked them: g++'s "was not declared" (session 16).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_nv_atomic(float *out, const float *in, size_t n)
{
    __shared__ float block_sum;
    if (threadIdx.x == 0)
        block_sum = 0.0f;
    __syncthreads();
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        __nv_atomic_add(&block_sum, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    __syncthreads();
    if (threadIdx.x == 0) {
        float s;
        __nv_atomic_load(&block_sum, &s, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
        __nv_atomic_fetch_add(out, s, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    if (blocks > 1056)
        blocks = 1056;
    sum_nv_atomic<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
