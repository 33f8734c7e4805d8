// expect: fail with atomics in shared memory
// gpu-expect: pass
// Every thread adds its grid-stride elements in a register, then atomicAdd
// into one __shared__ float (set by thread 0, between two barriers), and
// thread 0 adds that to *d_out: right in any order, the data summing exactly.
// No warp-level last step: the technique check fails on the emulator, and a
// GPU skips it. A tester's student file (2026-11-29).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float block_sum;
    if (threadIdx.x == 0)
        block_sum = 0.0f;
    __syncthreads();
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        v += in[i];
    atomicAdd(&block_sum, v);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(out, block_sum);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    if (blocks > 264)
        blocks = 264;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
