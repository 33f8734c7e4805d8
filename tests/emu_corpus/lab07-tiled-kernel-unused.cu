// expect: fail as when every thread reads its own row of A and column of B
// gpu-expect: pass
// A tiled kernel in the file, but matmul_tiled launches the naive one: the
// technique check counts what ran, not what the file declares.
#include "lab.h"

#define TILE 16

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

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int ty = threadIdx.y, tx = threadIdx.x, row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
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

static dim3 grid_for(int m, int n)
{
    return dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    naive<<<grid_for(m, n), dim3(TILE, TILE)>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    naive<<<grid_for(m, n), dim3(TILE, TILE)>>>(d_c, d_a, d_b, m, n, k);
}
