// expect: pass
// A block for each element of C: its 64 threads sum strided terms of the
// dot product in double and add them into one __shared__ double with
// atomicAdd (double atomics, compute capability 6.0 and up), between two
// barriers.
#include "lab.h"

#define TILE 16

__global__ void block_per_element(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ double sum;
    int row = blockIdx.y, col = blockIdx.x;
    if (threadIdx.x == 0)
        sum = 0.0;
    __syncthreads();
    double part = 0.0;
    for (int p = threadIdx.x; p < k; p += blockDim.x)
        part += (double)a[(size_t)row * k + p] * b[(size_t)p * n + col];
    atomicAdd(&sum, part);
    __syncthreads();
    if (threadIdx.x == 0)
        c[(size_t)row * n + col] = (float)sum;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    block_per_element<<<dim3(n, m), 64>>>(c, a, b, m, n, k);
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
