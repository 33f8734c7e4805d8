// expect: pass
// The tiles loaded with cuda_pipeline.h's asynchronous copies
// (__pipeline_memcpy_async, cp.async on compute capability 8.0 and up):
// each thread commits its two copies, waits for them, then the block meets
// at the barrier. Elements past the edge are written as 0.0f directly.
#include <cuda_pipeline.h>

#include "lab.h"

#define TILE 16

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(c, a, b, m, n, k);
}

__global__ void tiled_async(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        if (row < m && p0 + tx < k)
            __pipeline_memcpy_async(&as[ty][tx], &a[(size_t)row * k + p0 + tx], sizeof(float));
        else
            as[ty][tx] = 0.0f;
        if (p0 + ty < k && col < n)
            __pipeline_memcpy_async(&bs[ty][tx], &b[(size_t)(p0 + ty) * n + col], sizeof(float));
        else
            bs[ty][tx] = 0.0f;
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        for (int q = 0; q < TILE; q++)
            sum += as[ty][q] * bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled_async<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
