// expect: pass
// emulator: build-error libcu++'s headers outside cuda/std/
// Correct: libcu++'s cuda::atomic_ref<float, cuda::thread_scope_device> on
// *out (fetch_add), one a block, after a grid-stride loop of 8 elements a
// thread or more and a shuffle finish.
// The emulator refuses <cuda/atomic> (libcu++ outside cuda/std/), its limit,
// saying a GPU runs it; cg::reduce_update_async onto a cuda::atomic_ref is
// refused the same way (student17, session 17: it passes on a lent H200).
#include <cuda/atomic>
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_ref(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        v += in[i];
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < BLOCK_SIZE / 32 ? warp_sums[lane] : 0.0f;
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, off);
        if (lane == 0) {
            cuda::atomic_ref<float, cuda::thread_scope_device> total(*out);
            total.fetch_add(v, cuda::std::memory_order_relaxed);
        }
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0) return;
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned int blocks = want > 1024 ? 1024 : (unsigned int)want;
    sum_ref<<<blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
