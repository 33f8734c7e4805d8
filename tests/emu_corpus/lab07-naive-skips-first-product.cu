// expect: fail covers 0..k-1 exactly once
// expect-not: every tile
// The naive kernel's loop starts at p = 1 and drops a product; the tiled
// kernel is right. The naive kernel has no tiles: its hint must not speak
// of them, nor of barriers, as it did in a student's trial.
#include "lab.h"

#define TILE 16

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int p = 1; p < k; p++)
            acc += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = acc;
    }
}

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        ta[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++)
            acc += ta[ty][p] * tb[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
