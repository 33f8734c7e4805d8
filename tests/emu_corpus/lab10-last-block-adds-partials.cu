// expect: pass
/*
 * The last-block reduction (CUDA's threadFenceReduction sample): each block
 * stores its sum in its own slot of a __device__ array of partials and counts
 * itself done with an atomicInc that wraps to 0 for the next call; the last
 * block adds the slots in a fixed order and stores *d_out, with no cudaMemset
 * before the launch. One plain store and one atomic a block, and the final
 * store: "one atomic or partial a block" passes it (it once failed it, 17
 * stores from 8 blocks). Timed on the H100 as candidate l10-last (session 9),
 * where its suite passed 8 of 8 (plots/data/session9-h100-2026-11-28).
 */
#include "lab.h"

#include <stdint.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256 /* threads a block: a multiple of 32, at most 1024 */
#endif
#define WARPS (BLOCK_SIZE / 32)
#define UNROLL 4       /* float4 loads a thread has in flight in a round */

__device__ static float warp_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

#define MOST_BLOCKS 4096 /* partial sums kept: the grid never has more blocks */

__device__ static float partials[MOST_BLOCKS];
__device__ static unsigned int finished; /* blocks done in this launch, back to 0 by the last */

__global__ __launch_bounds__(BLOCK_SIZE) void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[WARPS];
    __shared__ int last;
    /* The aligned body: quads float4s from in + head. */
    size_t head = (16 - ((uintptr_t)in & 15)) % 16 / sizeof(float);
    head = head < n ? head : n;
    const float4 *body = (const float4 *)(in + head);
    size_t quads = (n - head) / 4;
    size_t thread = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    size_t stride = (size_t)gridDim.x * BLOCK_SIZE;
    float sum = 0.0f;
    size_t q = thread;
    for (; q + (UNROLL - 1) * stride < quads; q += UNROLL * stride) {
        float4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            v[u] = body[q + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (; q < quads; q += stride) {
        float4 v = body[q];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    /* At most three elements before the body and three after it: one a thread. */
    size_t tail = head + quads * 4;
    if (thread < head)
        sum += in[thread];
    if (thread < n - tail)
        sum += in[tail + thread];

    sum = warp_sum(sum);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_sum(lane < WARPS ? warp_sums[lane] : 0.0f);
        if (lane == 0) {
            partials[blockIdx.x] = sum;
            __threadfence(); /* the slot is seen before the count is */
            last = atomicInc(&finished, gridDim.x - 1) == gridDim.x - 1;
        }
    }
    __syncthreads();
    if (!last)
        return;
    /* The last block: every other block's slot is written and seen. */
    __threadfence();
    sum = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK_SIZE)
        sum += ((volatile float *)partials)[b];
    sum = warp_sum(sum);
    __syncthreads(); /* warp_sums is read above by warp 0 */
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_sum(lane < WARPS ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            *out = sum;
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    /* The blocks that fit on the GPU at once: more only wait for a free SM. */
    static int sms;
    if (!sms) {
        int device = 0;
        cudaGetDevice(&device);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1)
            sms = 1;
    }
    size_t per_block = (size_t)BLOCK_SIZE * UNROLL * 4;
    size_t blocks = (n + per_block - 1) / per_block, most = (size_t)sms * (2048 / BLOCK_SIZE);
    most = most < MOST_BLOCKS ? most : MOST_BLOCKS;
    if (n == 0) {
        cudaMemset(d_out, 0, sizeof(float));
        return;
    }
    reduce_kernel<<<(unsigned)(blocks < most ? blocks : most), BLOCK_SIZE>>>(d_out, d_in, n);
}
