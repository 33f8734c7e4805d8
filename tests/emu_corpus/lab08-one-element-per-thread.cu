// expect: fail a tile of c
// gpu-expect: pass
// Lab 7's tiled kernel handed in for lab 8: right, but one element of C per thread.
#include "lab.h"

#define TW 16

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TW][TW], tb[TW][TW];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TW) {
        ta[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TW; q++)
            acc += ta[ty][q] * tb[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}
