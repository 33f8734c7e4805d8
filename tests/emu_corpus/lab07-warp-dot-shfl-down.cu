// expect: pass
// A warp for each element of C in matmul_naive: lane i takes the terms
// p = i, i + 32, ... of the dot product, and __shfl_down_sync folds the 32
// partial sums into lane 0, which stores. Every lane of every warp reaches
// each shuffle (no early return), as the full mask promises.
#include "lab.h"

#define TILE 16
#define FULL_MASK 0xffffffffu
#define WARPS_PER_BLOCK 8

__global__ void warp_per_element(float *c, const float *a, const float *b, int m, int n, int k)
{
    int lane = threadIdx.x % 32;
    long e = (long)blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
    bool inside = e < (long)m * n;
    int row = inside ? (int)(e / n) : 0, col = inside ? (int)(e % n) : 0;
    float sum = 0.0f;
    if (inside)
        for (int p = lane; p < k; p += 32)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (inside && lane == 0)
        c[(size_t)row * n + col] = sum;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    long elements = (long)m * n;
    warp_per_element<<<(unsigned)((elements + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK), 32 * WARPS_PER_BLOCK>>>(c, a, b, m, n, k);
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
