// expect: fail
// expect-not: Put a __syncthreads() between loading the tiles
// expect-not: a missing __syncthreads()
// emulator-says: not stored past k
// The tiles are loaded only where they lie inside A and B, and left as
// they were past k: the product loop reads all TW of their rows and
// columns, which hold what an earlier tile or block left there (on a GPU)
// or shared memory nobody wrote (on the emulator). The barriers are there;
// the tiles' tails are what no thread stores. (With A's tile zeroed past k
// and B's not, a GPU mostly passes by luck, 0 times a stale value; the
// emulator fails it, and its message is held in harness_test.c.) The shapes
// these tests stop at, 1x1x1, 300x7x40, 1027x5x3, have no block wholly
// inside C: there a missing barrier leaves the same NaN, bit for bit, and
// the hint names both, the barrier among them, never the barrier alone.
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

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TW][TW], tb[TW][TW];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TW) {
        if (row < m && p0 + tx < k)
            ta[ty][tx] = a[(size_t)row * k + p0 + tx];
        if (p0 + ty < k && col < n)
            tb[ty][tx] = b[(size_t)(p0 + ty) * n + col];
        __syncthreads();
        for (int q = 0; q < TW; q++)
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
    tiled<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}
