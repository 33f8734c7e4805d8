// expect: pass
// A grid-stride sum in registers, shuffles within each warp, the warps' sums
// through shared memory, one atomicAdd a block; between the shared store and
// the barrier an empty asm statement with a "memory" clobber, which a student
// put there to keep the compiler from moving the store (2026-11-28). It is
// no instruction: nvcc builds it and an H100 sums right. The emulator took it
// for inline PTX it cannot run and refused to build the file.
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#define WARPS (BLOCK_SIZE / 32)

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float sums[WARPS];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        sums[threadIdx.x / 32] = v;
    asm volatile("" ::: "memory");
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_sum(threadIdx.x < WARPS ? sums[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
            atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemsetAsync(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    /* Eight elements a thread at least, at most two blocks an SM of the H100's 132. */
    size_t blocks = n / (8 * BLOCK_SIZE);
    blocks = blocks < 1 ? 1 : blocks > 264 ? 264 : blocks;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
