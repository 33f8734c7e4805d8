// expect: fail
// emulator-says: a race on shared memory
// gpu-tool: racecheck
// documented-in: labs/07-gpu-matmul/README.md
// The first __syncthreads() forgotten: a thread multiplies its row of A's
// tile and column of B's before the other warps have stored theirs. The
// emulator names the race as racecheck does (the two threads, the array,
// the two lines) and the barrier to put between them; on a GPU the values
// come out wrong ("values are computed but wrong", or NaN), and racecheck
// (gpu-tool, below) names the race. tests/cli_test.sh runs it through make
// lab7 test.
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
        ta[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
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
