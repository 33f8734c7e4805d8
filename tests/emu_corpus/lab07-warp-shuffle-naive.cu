// expect: pass
// The naive product by warps: the 32 lanes of a warp split one element's
// k products among them and add their parts with __shfl_down_sync; the
// tiled product is the textbook one.
#include "lab.h"

#define TW 16

__global__ void naive_by_warps(float *c, const float *a, const float *b, int m, int n, int k)
{
    int lane = threadIdx.x % 32;
    long element = (long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (element >= (long)m * n)
        return; /* the whole warp: its lanes share the element */
    int row = (int)(element / n), col = (int)(element % n);
    float part = 0.0f;
    for (int p = lane; p < k; p += 32)
        part += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    for (int offset = 16; offset > 0; offset /= 2)
        part += __shfl_down_sync(0xffffffffu, part, offset);
    if (lane == 0)
        c[(size_t)row * n + col] = part;
}

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TW][TW], tb[TW][TW];
    int ty = threadIdx.y, tx = threadIdx.x, row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
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

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    long elements = (long)m * n;
    naive_by_warps<<<(unsigned)((elements + 7) / 8), 256>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}
