/*
 * Hostile hand-in (tests/hostile_test.sh), lab 7: the naive product, but at
 * the technique check's shape (64 x 64 x 64) A and B are first copied into
 * __constant__ arrays (cudaMemcpyToSymbol from the device) and a kernel
 * reads its operands from there, with a decoy shared float read 8 times a
 * thread. The reuse check counted only global loads, so the constant reads
 * were free and each float moved served 64 multiply-adds: technique 3 of
 * 3, its control 0 (a cheating helper, 2026-11-27).
 * control: naive-matmul.cu
 *
 * Floats read from __constant__ memory count as moved (the distinct floats
 * each warp's request wants, which the constant cache hands out one address
 * a pass): B's column, 32 addresses a warp, moves as much as from global
 * memory, and each float serves about 2 multiply-adds, a naive kernel's.
 */
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

__constant__ float const_a[64 * 64], const_b[64 * 64];

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y, col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

__global__ void from_constant(float *c, int m, int n, int k)
{
    __shared__ float one;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        one = 1.0f;
    __syncthreads();
    float scale = 0;
    for (int j = 0; j < 8; j++)
        scale += one;
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y, col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0;
    for (int i = 0; i < k; i++)
        sum += const_a[row * k + i] * const_b[i * n + col];
    c[row * n + col] = sum * scale / 8;
}

static void naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    naive(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    if (m > 64 || n > 64 || k > 64) {
        naive(d_c, d_a, d_b, m, n, k);
        return;
    }
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    cudaMemcpyToSymbol(const_a, d_a, sizeof(float) * m * k, 0, cudaMemcpyDeviceToDevice);
    cudaMemcpyToSymbol(const_b, d_b, sizeof(float) * k * n, 0, cudaMemcpyDeviceToDevice);
    from_constant<<<grid, block>>>(d_c, m, n, k);
}
