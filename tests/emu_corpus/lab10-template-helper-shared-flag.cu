// expect: pass
/*
 * The last-block reduction with its bookkeeping in a template __device__
 * helper, as libraries write a block-wide step: the helper declares its own
 * __shared__ flag and __shared__ warp sums. g++ keeps a template's statics
 * out of the emulator's section for __shared__ variables, and its
 * instrumentation registered this bool as a variable of its own; the
 * emulator took every block's write of it for a race between blocks on a
 * __device__ variable ("block (1, 0, 0) wrote 1 byte(s) ... of the
 * __device__ variable is_last"), where each block has its own copy on a GPU.
 * The same mistake stopped lab 8's reference when its split product summed
 * its partial tiles so (session 13).
 */
#include "lab.h"

#include <stdint.h>

#define BLOCK_SIZE 256
#define MOST_BLOCKS 1024

__device__ static float partials[MOST_BLOCKS];
__device__ static unsigned int finished;

__device__ static float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* The block's sum, to every thread of it. */
template <int THREADS>
__device__ static float block_sum(float v)
{
    __shared__ float warp_sums[THREADS / 32];
    __shared__ float total;
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_sum(threadIdx.x < THREADS / 32 ? warp_sums[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
            total = v;
    }
    __syncthreads();
    return total;
}

/* Whether this block is the launch's last to store its partial sum. */
template <int THREADS>
__device__ static bool arrived_last(float sum)
{
    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();
        is_last = atomicInc(&finished, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    return is_last;
}

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    float sum = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        sum += in[i];
    sum = block_sum<BLOCK_SIZE>(sum);
    if (!arrived_last<BLOCK_SIZE>(sum))
        return;
    float v = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK_SIZE)
        v += partials[b];
    v = block_sum<BLOCK_SIZE>(v);
    if (threadIdx.x == 0)
        *out = v;
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    size_t blocks = n / (8 * BLOCK_SIZE); /* 8 elements a thread */
    if (blocks > 264)
        blocks = 264;
    if (blocks == 0)
        blocks = 1;
    reduce_kernel<<<(unsigned)blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
