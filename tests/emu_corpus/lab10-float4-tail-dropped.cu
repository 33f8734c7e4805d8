// expect: fail lacks exactly the last
// expect-not: atomicAdd
// float4 loads over the first n / 4 * 4 elements, grid-stride, shuffles
// and one atomic a block: right where n is a multiple of 4, and for other n
// the last n % 4 elements are never added. The checker names the lost tail
// (on an H200 it said "not as a tail" and listed missing barriers,
// *d_out += sum and shuffle widths, 2026-11-28: a tail ending at no block's
// end was no tail to it).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum4(float *out, const float *in, size_t n)
{
    __shared__ float warps[BLOCK_SIZE / 32];
    const float4 *in4 = reinterpret_cast<const float4 *>(in);
    size_t n4 = n / 4;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n4; i += (size_t)gridDim.x * BLOCK_SIZE) {
        float4 q = __ldg(&in4[i]);
        v += (q.x + q.y) + (q.z + q.w);
    }
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK_SIZE / 32 ? warps[threadIdx.x] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, off);
        if (threadIdx.x == 0)
            atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n / 4 + 4 * BLOCK_SIZE - 1) / (4 * BLOCK_SIZE);
    sum4<<<(unsigned)(blocks == 0 ? 1 : blocks < 528 ? blocks : 528), BLOCK_SIZE>>>(d_out, d_in, n);
}
