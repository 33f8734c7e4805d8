/*
 * Hostile hand-in (tests/hostile_test.sh), lab 7: the naive product, but at
 * the technique check's shape (64 x 64 x 64) A and B are first copied into
 * __constant__ arrays (cudaMemcpyToSymbol from the device) and a kernel
 * reads its operands from there, with a decoy shared float read 8 times a
 * thread. The reuse check counted only global loads, so the constant reads
 * were free and each float moved served 64 multiply-adds: technique 3 of
 * 3, its control 0 (a cheating helper, 2026-11-27).
 * control: naive-matmul.cu
 * Its naive kernel and launch are the control's (16 x 16 blocks), so that
 * only the cheat differs: with 32 x 32 blocks it ran faster than the control
 * on the H100.
 *
 * Floats read from __constant__ memory count as moved (the distinct floats
 * each warp's request wants, which the constant cache hands out one address
 * a pass): B's column, 32 addresses a warp, moves as much as from global
 * memory, and each float serves about 2 multiply-adds, a naive kernel's.
 */
#include "lab.h"

/* the honest control's naive kernel and launch, 16 x 16 blocks: only the cheat differs */
__constant__ float const_a[64 * 64], const_b[64 * 64];

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
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
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0;
    for (int i = 0; i < k; i++)
        sum += const_a[row * k + i] * const_b[i * n + col];
    c[row * n + col] = sum * scale / 8;
}

static void product(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    naive<<<grid, block>>>(c, a, b, m, n, k);
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k) { product(c, a, b, m, n, k); }

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    if (m > 64 || n > 64 || k > 64) {
        product(c, a, b, m, n, k);
        return;
    }
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    cudaMemcpyToSymbol(const_a, a, sizeof(float) * m * k, 0, cudaMemcpyDeviceToDevice);
    cudaMemcpyToSymbol(const_b, b, sizeof(float) * k * n, 0, cudaMemcpyDeviceToDevice);
    from_constant<<<grid, block>>>(c, m, n, k);
}
