// expect: pass
// The naive product with a warp per element of C, summed by
// __shfl_down_sync, the lane read from %laneid; the tiled one with one
// extern __shared__ buffer split in two: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

#define WARPS_PER_BLOCK 8

__device__ __forceinline__ unsigned lane_id()
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    const unsigned lane = lane_id();
    const long long e = (long long)blockIdx.x * WARPS_PER_BLOCK + threadIdx.y;   // element of C
    if (e >= (long long)m * n) return;                       // the whole warp leaves together
    const int i = (int)(e / n), j = (int)(e % n);
    float s = 0.0f;
    for (int p = lane; p < k; p += 32)
        s += a[(size_t)i * k + p] * b[(size_t)p * n + j];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0)
        c[(size_t)i * n + j] = s;
}

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    extern __shared__ float smem[];
    float *As = smem;                          // TILE_WIDTH * TILE_WIDTH
    float *Bs = smem + TILE_WIDTH * TILE_WIDTH;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float s = 0.0f;
    for (int t0 = 0; t0 < k; t0 += TILE_WIDTH) {
        As[ty * TILE_WIDTH + tx] = (row < m && t0 + tx < k) ? a[(size_t)row * k + t0 + tx] : 0.0f;
        Bs[ty * TILE_WIDTH + tx] = (t0 + ty < k && col < n) ? b[(size_t)(t0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; ++p)
            s += As[ty * TILE_WIDTH + p] * Bs[p * TILE_WIDTH + tx];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = s;
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    const long long elems = (long long)m * n;
    const unsigned blocks = (unsigned)((elems + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    matmul_naive_kernel<<<blocks, dim3(32, WARPS_PER_BLOCK)>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    size_t bytes = 2 * TILE_WIDTH * TILE_WIDTH * sizeof(float);
    matmul_tiled_kernel<<<grid, block, bytes>>>(d_c, d_a, d_b, m, n, k);
}
