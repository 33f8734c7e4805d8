/*
 * Lab 8, step 0 (README.md): lab 7's tiled kernel (16 x 16 tiles, one
 * element of C per thread) under lab 8's name. Kept to measure the steps
 * against it; it fails lab 8's technique test on purpose.
 */
#include "lab.h"

#include <stddef.h>

#define TILE_WIDTH 16

__global__ void sgemm_kernel(float *c, const float *a, const float *b, int m, int n, int k)
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

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    sgemm_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
