/*
 * Planted mistake for `make lab7 sanitize`: the tiled product without the
 * barrier after the multiply-adds, so a fast warp overwrites a shared tile
 * that a slow warp of its block still reads. racecheck must report it.
 */
#include "lab.h"

#include <stddef.h>

#define W 16

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int i = blockIdx.y * W + threadIdx.y, j = blockIdx.x * W + threadIdx.x;
    if (i < m && j < n) {
        float acc = 0.0f;
        for (int q = 0; q < k; q++)
            acc += a[(size_t)i * k + q] * b[(size_t)q * n + j];
        c[(size_t)i * n + j] = acc;
    }
}

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float sa[W][W], sb[W][W];
    int i = blockIdx.y * W + threadIdx.y, j = blockIdx.x * W + threadIdx.x;
    float acc = 0.0f;
    for (int q0 = 0; q0 < k; q0 += W) {
        int qa = q0 + threadIdx.x, qb = q0 + threadIdx.y;
        sa[threadIdx.y][threadIdx.x] = i < m && qa < k ? a[(size_t)i * k + qa] : 0.0f;
        sb[threadIdx.y][threadIdx.x] = qb < k && j < n ? b[(size_t)qb * n + j] : 0.0f;
        __syncthreads();
        for (int q = 0; q < W; q++)
            acc += sa[threadIdx.y][q] * sb[q][threadIdx.x];
        /* the second __syncthreads() belongs here */
    }
    if (i < m && j < n)
        c[(size_t)i * n + j] = acc;
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    naive<<<dim3((n + W - 1) / W, (m + W - 1) / W), dim3(W, W)>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    tiled<<<dim3((n + W - 1) / W, (m + W - 1) / W), dim3(W, W)>>>(d_c, d_a, d_b, m, n, k);
}
