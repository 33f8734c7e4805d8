// expect: pass
// Half a warp for each element of C: blocks of 16 x 16 threads, row
// threadIdx.y of the block one element, its 16 lanes the terms of the dot
// product. __shfl_xor_sync with width 16 exchanges within each half of the
// warp only, so the two elements a warp holds never mix; after the
// butterfly every lane of the half holds the sum.
#include "lab.h"

#define TILE 16
#define FULL_MASK 0xffffffffu

__global__ void half_warp_per_element(float *c, const float *a, const float *b, int m, int n, int k)
{
    int lane = threadIdx.x; /* 0..15, within the half-warp */
    long e = (long)blockIdx.x * blockDim.y + threadIdx.y;
    bool inside = e < (long)m * n;
    int row = inside ? (int)(e / n) : 0, col = inside ? (int)(e % n) : 0;
    float sum = 0.0f;
    for (int p = lane; inside && p < k; p += 16)
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    for (int mask = 8; mask > 0; mask >>= 1)
        sum += __shfl_xor_sync(FULL_MASK, sum, mask, 16);
    if (inside && lane == 15) /* any lane of the half has the whole sum */
        c[(size_t)row * n + col] = sum;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    long elements = (long)m * n;
    half_warp_per_element<<<(unsigned)((elements + 15) / 16), dim3(16, 16)>>>(c, a, b, m, n, k);
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
