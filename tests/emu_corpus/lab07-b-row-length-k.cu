// expect: fail past the end of A or B
// emulator-says: an index with the wrong row length runs past the end
// B's tile loaded from b[(p0 + ty) * k + col]: bounds right, B's row length wrong.
// At 1 x 1 x 7 it reads past B with every bound right (stud8, bug 10).
#include "lab.h"
#include <stddef.h>

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = sum;
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tb[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE_WIDTH) {
        ta[ty][tx] = (row < m && p0 + tx < k) ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = (p0 + ty < k && col < n) ? b[(size_t)(p0 + ty) * k + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; p++)
            sum += ta[ty][p] * tb[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}

