// expect: pass
#include "lab.h"

#include <stdint.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 512 /* threads a block: a multiple of 32, at most 1024 */
#endif
#define WARPS (BLOCK_SIZE / 32)
#define UNROLL 8       /* float4 loads a thread has in flight in a round */

__device__ static float warp_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ __launch_bounds__(BLOCK_SIZE) void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[WARPS];
    /* The aligned body: quads float4s from in + head, loaded through the
     * read-only data path (__ldg): nothing writes them while the kernel runs. */
    size_t head = (16 - ((uintptr_t)in & 15)) % 16 / sizeof(float);
    head = head < n ? head : n;
    const float4 *__restrict__ body = (const float4 *)(in + head);
    size_t quads = (n - head) / 4;
    /* The block's share: rows [first, last) of BLOCK_SIZE float4s. Shares in
     * rows, not in rounds of UNROLL rows, differ by one row at most: the
     * blocks end together. */
    size_t rows = quads / BLOCK_SIZE, per = rows / gridDim.x, extra = rows % gridDim.x;
    size_t first = (blockIdx.x * per + (blockIdx.x < extra ? blockIdx.x : extra)) * BLOCK_SIZE;
    size_t last = first + (per + (blockIdx.x < extra)) * BLOCK_SIZE;
    float sum = 0.0f;
    size_t q = first + threadIdx.x;
    for (; q + (UNROLL - 1) * BLOCK_SIZE < last; q += UNROLL * BLOCK_SIZE) {
        float4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            v[u] = __ldg(&body[q + u * BLOCK_SIZE]);
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (; q < last; q += BLOCK_SIZE) {
        float4 v = __ldg(&body[q]);
        sum += (v.x + v.y) + (v.z + v.w);
    }
    /* The float4s past the last whole row, grid-stride; then at most three
     * elements before the body and three after it, one a thread. */
    size_t thread = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    size_t stride = (size_t)gridDim.x * BLOCK_SIZE;
    for (q = rows * BLOCK_SIZE + thread; q < quads; q += stride) {
        float4 v = __ldg(&body[q]);
        sum += (v.x + v.y) + (v.z + v.w);
    }
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
        if (lane == 0)
            atomicAdd(out, sum);
    }
}

#include <stdio.h>
static void run(unsigned grid, float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n)
        reduce_kernel<<<grid, BLOCK_SIZE>>>(d_out, d_in, n);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    static int sms;
    static cudaEvent_t e0, e1;
    if (!sms) {
        int device = 0;
        cudaGetDevice(&device);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1)
            sms = 1;
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
    }
    size_t per_block = (size_t)BLOCK_SIZE * UNROLL * 4;
    size_t blocks = (n + per_block - 1) / per_block, most = (size_t)sms * (2048 / BLOCK_SIZE);
    unsigned cand[2] = {(unsigned)(blocks < most ? blocks : most), 1};
    if (!cand[0]) cand[0] = 1;
    unsigned best = cand[0];
    float best_ms = 1e30f;
    for (int i = 0; i < 2; i++) {
        cudaEventRecord(e0);
        run(cand[i], d_out, d_in, n);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (ms < best_ms)
            best_ms = ms, best = cand[i];
        if (n >= 100000)
            fprintf(stderr, "TUNE n=%zu grid %u: %.5f ms\n", n, cand[i], ms);
    }
    if (n >= 100000)
        fprintf(stderr, "TUNE n=%zu chose grid %u\n", n, best);
    run(best, d_out, d_in, n);
}
