// expect: build-error Cannot do vector atomic on shared memory
// without-nvcc: builds
// Each warp's lane 0 adds four running sums (a float4) into one __shared__
// float4 with the float4 atomicAdd, which the PTX ISA has for global memory
// only: ptxas sees the address is shared and warns, and the GPU build's
// warnings are errors. Without nvcc the emulator builds it and fails the
// kernel at the add, as an H100 does where ptxas cannot tell (2026-11-28).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float4 block_sums;
    if (threadIdx.x == 0)
        block_sums = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (size_t i = 4 * ((size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x); i < n;
         i += 4 * (size_t)gridDim.x * BLOCK_SIZE) {
        s.x += in[i];
        if (i + 1 < n) s.y += in[i + 1];
        if (i + 2 < n) s.z += in[i + 2];
        if (i + 3 < n) s.w += in[i + 3];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        s.x += __shfl_down_sync(0xffffffffu, s.x, offset);
        s.y += __shfl_down_sync(0xffffffffu, s.y, offset);
        s.z += __shfl_down_sync(0xffffffffu, s.z, offset);
        s.w += __shfl_down_sync(0xffffffffu, s.w, offset);
    }
    if (threadIdx.x % 32 == 0)
        atomicAdd(&block_sums, s);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(out, (block_sums.x + block_sums.y) + (block_sums.z + block_sums.w));
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemsetAsync(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = n / (8 * BLOCK_SIZE);
    blocks = blocks < 1 ? 1 : blocks > 264 ? 264 : blocks;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
