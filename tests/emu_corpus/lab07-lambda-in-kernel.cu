// expect: pass
// A lambda inside the kernel (device code, so no --extended-lambda is
// needed): it captures the thread's row and column by reference and gives
// the p-th term of the dot product.
#include "lab.h"

#define TILE 16

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    auto term = [&](int p) { return a[(size_t)row * k + p] * b[(size_t)p * n + col]; };
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += term(p);
    c[(size_t)row * n + col] = sum;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(c, a, b, m, n, k);
}

/* matmul_tiled: the usual pair of TILE x TILE shared tiles. */
__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
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
    tiled<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
