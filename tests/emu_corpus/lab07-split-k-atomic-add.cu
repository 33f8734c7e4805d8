// expect: pass
// Split-k in matmul_naive: the grid's z cuts k into slices of 64, each
// block adds its slice's partial sums into C with atomicAdd, and C is set
// to 0 first (cudaMemset, which lab.h allows). The order of the additions
// varies from run to run; the sum stays within the tolerance.
#include "lab.h"

#define TILE 16
#define KSPLIT 64

/* One slice of KSPLIT terms of the dot product a block (blockIdx.z: which slice). */
__global__ void split_k(float *c, const float *a, const float *b, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    int p0 = blockIdx.z * KSPLIT, p1 = min(p0 + KSPLIT, k);
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = p0; p < p1; p++)
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    atomicAdd(&c[(size_t)row * n + col], sum);
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    cudaMemset(c, 0, (size_t)m * n * sizeof(float));
    dim3 grid((n + 15) / 16, (m + 15) / 16, (k + KSPLIT - 1) / KSPLIT);
    split_k<<<grid, dim3(16, 16)>>>(c, a, b, m, n, k);
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
