// expect: pass
// A template kernel with its tile side as a parameter, and min() on the
// loop bound with mixed int and unsigned operands.
#include "lab.h"

#define TW 16

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int p = 0; p < k; p++)
        acc = fmaf(a[(size_t)row * k + p], b[(size_t)p * n + col], acc);
    c[(size_t)row * n + col] = acc;
}

template <int W>
__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[W][W], tb[W][W];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * W + ty, col = blockIdx.x * W + tx;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += W) {
        ta[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < (int)min(W, k - p0 + 0u); q++)
            acc = fmaf(ta[ty][q], tb[q][tx], acc);
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<TW><<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}
