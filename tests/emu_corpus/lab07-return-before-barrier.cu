// expect: fail
// expect-not: Put a __syncthreads() between loading the tiles
// emulator-says: threads that return, or skip their loads, before the barrier
// The naive kernel's early return kept in the tiled one: a thread outside C
// leaves before it loads its part of the tiles, and before the barrier the
// others wait at. The blocks that hang over C's edge read the holes (on the
// emulator, shared memory nobody wrote); the blocks wholly inside C are
// right, so the barrier is not what is missing. tests/cli_test.sh runs it
// through make lab7 test, whose large shapes name the threads outside C.
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
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TW) {
        ta[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
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
