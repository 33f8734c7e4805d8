// expect: pass
// A split-k tiled product: each block's z covers a slice of k, and adds
// its partial tile into C with atomicAdd (C set to zero first, with
// cudaMemset on the device buffer).
#include "lab.h"

#define TW 16
#define SLICE 64

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int p = 0; p < k; p++)
        acc += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = acc;
}

__global__ void tiled_split(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TW][TW], tb[TW][TW];
    int ty = threadIdx.y, tx = threadIdx.x, row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
    int begin = blockIdx.z * SLICE, end = min(begin + SLICE, k);
    float acc = 0.0f;
    for (int p0 = begin; p0 < end; p0 += TW) {
        ta[ty][tx] = row < m && p0 + tx < end ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = p0 + ty < end && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TW; q++)
            acc += ta[ty][q] * tb[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        atomicAdd(&c[(size_t)row * n + col], acc);
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    cudaMemset(c, 0, (size_t)m * n * sizeof(float));
    dim3 grid((n + TW - 1) / TW, (m + TW - 1) / TW, (k + SLICE - 1) / SLICE);
    tiled_split<<<grid, dim3(TW, TW)>>>(c, a, b, m, n, k);
}
