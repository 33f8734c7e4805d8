// expect: fail
// The naive product launched <<<n, m>>>, one thread per row of C: refused
// once m passes 1024 (the thin 1027 x 5 x 3).
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int i = threadIdx.x;     // row of C
    int j = blockIdx.x;      // column of C
    if (i < m && j < n) {
        float s = 0.0f;
        for (int p = 0; p < k; p++)
            s += a[i * k + p] * b[p * n + j];
        c[i * n + j] = s;
    }
}

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float sA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float sB[TILE_WIDTH][TILE_WIDTH];
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    float s = 0.0f;
    for (int t = 0; t < k; t += TILE_WIDTH) {
        sA[threadIdx.y][threadIdx.x] = (row < m && t + threadIdx.x < k) ? a[row * k + t + threadIdx.x] : 0.0f;
        sB[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < k) ? b[(t + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; p++)
            s += sA[threadIdx.y][p] * sB[p][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = s;
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    matmul_naive_kernel<<<n, m>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
