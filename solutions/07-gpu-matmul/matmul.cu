/*
 * Lab 7 reference: one thread per element of C, naive and tiled.
 *
 * The naive kernel reads 2k floats from global memory for each of the
 * m n elements. The tiled one stages TILE_WIDTH x TILE_WIDTH tiles of A and
 * B in shared memory, so each float it loads serves TILE_WIDTH threads:
 * global loads fall by a factor of TILE_WIDTH. Tiles that hang over the
 * edge of A or B load zeros, which add nothing to the sums.
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = sum;
}

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float tile_a[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tile_b[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;

    for (int p0 = 0; p0 < k; p0 += TILE_WIDTH) {
        /* Threads outside C still load: their block's other threads need the tiles. */
        tile_a[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tile_b[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; p++)
            sum += tile_a[ty][p] * tile_b[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

static dim3 grid_for(int m, int n)
{
    return dim3((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    matmul_naive_kernel<<<grid_for(m, n), block>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    matmul_tiled_kernel<<<grid_for(m, n), block>>>(d_c, d_a, d_b, m, n, k);
}
