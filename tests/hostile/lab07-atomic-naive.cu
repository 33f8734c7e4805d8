/*
 * Hostile hand-in (tests/hostile_test.sh), lab 7: traffic through atomics:
 * the naive product behind matmul_tiled, its loads of A and B made through
 * atomicOr(p, 0), which returns the bits unchanged, and its sum passed through
 * a __shared__ tile.
 * The emulator counted atomics apart from loads and stores, so the checks and
 * the cost saw none of it: 10 of 10 on the emulator where the honest kernel
 * scored 5 (found by a tester, 2026-11-27). On a GPU each such atomic is a
 * read and a write in L2 (or 32 passes of a bank): as slow as the naive kernel, or slower.
 * control: naive-matmul.cu
 */
#include "lab.h"
#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif
__device__ __forceinline__ float ld(const float *p)
{
    return __int_as_float(atomicOr((int *)p, 0));
}
__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y, col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    if (row >= m || col >= n) return;
    float s = 0.0f;
    for (int p = 0; p < k; ++p) s += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = s;
}
__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float token[TILE_WIDTH][TILE_WIDTH];
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y, col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    float s = 0.0f;
    if (row < m && col < n)
        for (int p = 0; p < k; ++p) s += ld(&a[(size_t)row * k + p]) * ld(&b[(size_t)p * n + col]);
    token[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    s = token[threadIdx.y][threadIdx.x];
    if (row < m && col < n) c[(size_t)row * n + col] = s;
}
void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
