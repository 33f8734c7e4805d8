// expect: fail
// emulator-says: a race on shared memory
// expect-not: of a template kernel
// expect-not: or, as they are lanes of one warp, a __syncwarp()
// expect-not: unspecified launch failure
// A template tiled kernel without the second __syncthreads(): warps that
// run ahead overwrite the tiles while others still multiply. A race
// between warps, which only a __syncthreads() fixes.
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
