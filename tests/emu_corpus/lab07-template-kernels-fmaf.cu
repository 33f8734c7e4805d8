// expect: pass
// Both kernels templates on the tile width, fmaf, #pragma unroll,
// __restrict__, edge tiles zero-filled: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

template <int TW>
__global__ void matmul_naive_kernel(float *__restrict__ c, const float *__restrict__ a,
                                    const float *__restrict__ b, int m, int n, int k)
{
    const int row = blockIdx.y * TW + threadIdx.y;
    const int col = blockIdx.x * TW + threadIdx.x;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int p = 0; p < k; ++p)
        acc = fmaf(a[(size_t)row * k + p], b[(size_t)p * n + col], acc);
    c[(size_t)row * n + col] = acc;
}

template <int TW>
__global__ void matmul_tiled_kernel(float *__restrict__ c, const float *__restrict__ a,
                                    const float *__restrict__ b, int m, int n, int k)
{
    __shared__ float As[TW][TW];
    __shared__ float Bs[TW][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TW + ty;
    const int col = blockIdx.x * TW + tx;
    float acc = 0.0f;

    for (int t = 0; t < (k + TW - 1) / TW; ++t) {
        const int pa = t * TW + tx, pb = t * TW + ty;
        As[ty][tx] = (row < m && pa < k) ? a[(size_t)row * k + pa] : 0.0f;
        Bs[ty][tx] = (pb < k && col < n) ? b[(size_t)pb * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < TW; ++p)
            acc = fmaf(As[ty][p], Bs[p][tx], acc);
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

static dim3 grid_for(int m, int n)
{
    return dim3((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    matmul_naive_kernel<TILE_WIDTH><<<grid_for(m, n), dim3(TILE_WIDTH, TILE_WIDTH)>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    matmul_tiled_kernel<TILE_WIDTH><<<grid_for(m, n), dim3(TILE_WIDTH, TILE_WIDTH)>>>(d_c, d_a, d_b, m, n, k);
}
