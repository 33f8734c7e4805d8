// expect: fail elements each: a thread that adds only a few
// gpu-expect: pass
// Shuffles of width 8 (four segments a warp, offsets 4, 2, 1), a slot a
// segment in shared memory, then warp 0 adds the slots and folds them with a
// butterfly of __shfl_xor_sync: right for every BLOCK_SIZE from 64 to 1024.
// Its grid gives a thread about four elements, 3.94 at the technique's n:
// the technique check fails on the emulator, and a GPU skips it.
// A tester's student file (2026-11-29).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float seg[BLOCK_SIZE / 8];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        v += in[i];
#pragma unroll
    for (int off = 4; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off, 8);
    if (threadIdx.x % 8 == 0)
        seg[threadIdx.x / 8] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        float s = 0.0f;
        for (int w = threadIdx.x; w < BLOCK_SIZE / 8; w += 32)
            s += seg[w];
        s += __shfl_xor_sync(0xffffffff, s, 16);
        s += __shfl_xor_sync(0xffffffff, s, 8);
        s += __shfl_xor_sync(0xffffffff, s, 4);
        s += __shfl_xor_sync(0xffffffff, s, 2);
        s += __shfl_xor_sync(0xffffffff, s, 1);
        if (threadIdx.x == 0)
            atomicAdd(out, s);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 4 * BLOCK_SIZE - 1) / (4 * BLOCK_SIZE);
    if (blocks > 512)
        blocks = 512;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
