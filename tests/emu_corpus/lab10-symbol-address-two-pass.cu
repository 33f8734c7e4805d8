// expect: pass
// Correct: two passes through a __device__ array of partial sums whose
// address the host takes with cudaGetSymbolAddress: the first kernel's
// blocks (at most 1024) each store their sum there, the second, one block,
// adds the partials and stores *out; no atomics, no memset.
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#define MAX_BLOCKS 1024

__device__ float partials[MAX_BLOCKS];

template <unsigned Threads>
__device__ float block_sum(float v)
{
    __shared__ float warp_sums[Threads / 32];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < Threads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__global__ void first_pass(float *part, const float *in, size_t n)
{
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    v = block_sum<BLOCK_SIZE>(v);
    if (threadIdx.x == 0) part[blockIdx.x] = v;
}

__global__ void second_pass(float *out, const float *part, unsigned count)
{
    float v = 0.0f;
    for (unsigned i = threadIdx.x; i < count; i += 1024)
        v += part[i];
    v = block_sum<1024>(v);
    if (threadIdx.x == 0) *out = v;
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    float *d_part = nullptr;
    cudaGetSymbolAddress(reinterpret_cast<void **>(&d_part), partials);
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned blocks = want > MAX_BLOCKS ? MAX_BLOCKS : (unsigned)want;
    if (blocks == 0) blocks = 1;   /* n == 0: one block stores a 0 */
    first_pass<<<blocks, BLOCK_SIZE>>>(d_part, d_in, n);
    second_pass<<<1, 1024>>>(d_out, d_part, blocks);
}
