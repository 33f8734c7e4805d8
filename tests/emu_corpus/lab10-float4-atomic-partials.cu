// expect: pass
// Four running sums a thread (elements 4q to 4q+3 of each quad it visits,
// loaded one by one: no alignment needed), added across the warp by shuffles
// and across the block through shared memory, and thread 0 adds the block's
// four sums to one float4 in global memory with the float4 atomicAdd of
// compute capability 9.x; a second launch of one thread adds its four floats
// into *d_out. A student's use of a vector
// atomic (2026-11-28): the emulator had no atomicAdd on float4 and refused
// to build it, where nvcc for sm_90 builds it and an H100 runs it.
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#define WARPS (BLOCK_SIZE / 32)

__device__ float4 partial;

__device__ float4 warp_sum(float4 v)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        v.x += __shfl_down_sync(0xffffffffu, v.x, offset);
        v.y += __shfl_down_sync(0xffffffffu, v.y, offset);
        v.z += __shfl_down_sync(0xffffffffu, v.z, offset);
        v.w += __shfl_down_sync(0xffffffffu, v.w, offset);
    }
    return v;
}

__global__ void quads_kernel(const float *in, size_t n)
{
    __shared__ float4 warp_sums[WARPS];
    float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    size_t quads = (n + 3) / 4;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < quads;
         q += (size_t)gridDim.x * blockDim.x) {
        size_t i = 4 * q;
        s.x += in[i];
        if (i + 1 < n) s.y += in[i + 1];
        if (i + 2 < n) s.z += in[i + 2];
        if (i + 3 < n) s.w += in[i + 3];
    }
    s = warp_sum(s);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = lane < WARPS ? warp_sums[lane] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        s = warp_sum(s);
        if (lane == 0)
            atomicAdd(&partial, s);
    }
}

__global__ void finish_kernel(float *out)
{
    *out = (partial.x + partial.y) + (partial.z + partial.w);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    if (n == 0) {
        cudaMemsetAsync(d_out, 0, sizeof(float));
        return;
    }
    void *p;
    cudaGetSymbolAddress(&p, partial);
    cudaMemsetAsync(p, 0, sizeof(float4));
    /* Two quads a thread at least, and at most two blocks an SM of the H100's 132. */
    size_t blocks = (n + 3) / 4 / (2 * BLOCK_SIZE);
    blocks = blocks < 1 ? 1 : blocks > 264 ? 264 : blocks;
    quads_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_in, n);
    finish_kernel<<<1, 1>>>(d_out);
}
