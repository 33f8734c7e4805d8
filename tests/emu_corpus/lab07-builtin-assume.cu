// expect: pass
// A tiled product that tells nvcc what it may assume of the block
// (__builtin_assume, one of CUDA's optimization hints), with
// __builtin_assume_aligned on the tiles. The emulator once failed to build
// it: '__builtin_assume' was not declared in this scope (g++ has no such
// builtin).
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float s = 0.0f;
        for (int p = 0; p < k; p++)
            s += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = s;
    }
}

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __builtin_assume(blockDim.x == TILE_WIDTH && blockDim.y == TILE_WIDTH);
    __shared__ __align__(16) float ta[TILE_WIDTH][TILE_WIDTH];
    __shared__ __align__(16) float tb[TILE_WIDTH][TILE_WIDTH];
    float(*sa)[TILE_WIDTH] = static_cast<float(*)[TILE_WIDTH]>(__builtin_assume_aligned(ta, 16));
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float s = 0.0f;
    for (int t = 0; t < (k + TILE_WIDTH - 1) / TILE_WIDTH; t++) {
        int ka = t * TILE_WIDTH + tx, kb = t * TILE_WIDTH + ty;
        sa[ty][tx] = row < m && ka < k ? a[(size_t)row * k + ka] : 0.0f;
        tb[ty][tx] = kb < k && col < n ? b[(size_t)kb * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; p++)
            s += sa[ty][p] * tb[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = s;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    naive<<<grid, block>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    tiled<<<grid, block>>>(c, a, b, m, n, k);
}
