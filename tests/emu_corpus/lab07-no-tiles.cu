// expect: fail as when every thread reads its own row of A and column of B
// gpu-expect: pass
// matmul_tiled that is the naive kernel again: right, but no shared tiles.
#include "lab.h"

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int p = 0; p < k; p++)
            acc += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = acc;
    }
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    matmul_naive(c, a, b, m, n, k);
}
