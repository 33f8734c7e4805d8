/*
 * Lab 7 candidate (issue 15): lab 7's two kernels, one output per thread,
 * each with one change. Not the reference: it is timed beside it
 * (solutions/candidates/README.md) at each TILE_WIDTH, and replaces it only if the
 * H100 says so.
 *
 * - Tiled: the next tiles' loads are in flight while this step's
 *   multiply-adds run. Each thread loads its element of the next tile of A
 *   and of B into registers at the top of a step and stores them into a
 *   second copy of the tiles at the bottom; one barrier per step instead
 *   of two, and no step waits for global memory with all its warps idle.
 *   The idea, the tiles and the one output per thread stay lab 7's.
 * - Naive: the same TILE_WIDTH x TILE_WIDTH threads per block, laid out 32
 *   wide (32 x 8 at 16), so a warp reads one row of A (a broadcast) and 32
 *   neighbouring floats of B (4 whole sectors), as a 32 x 32 block does.
 *   It tells whether the reference's naive kernel, 16 x 16 (a warp: two
 *   half-rows), is slow because of that shape.
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

/* The naive kernel's block: TILE_WIDTH^2 threads, up to 32 of them along a row of C. */
#define NAIVE_X (TILE_WIDTH * TILE_WIDTH < 32 ? TILE_WIDTH * TILE_WIDTH : 32)
#define NAIVE_Y (TILE_WIDTH * TILE_WIDTH / NAIVE_X)

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
    __shared__ float tile_a[2][TILE_WIDTH][TILE_WIDTH];
    __shared__ float tile_b[2][TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;

    /* Threads outside C still load: their block's other threads need the tiles. */
    tile_a[0][ty][tx] = row < m && tx < k ? a[(size_t)row * k + tx] : 0.0f;
    tile_b[0][ty][tx] = ty < k && col < n ? b[(size_t)ty * n + col] : 0.0f;
    __syncthreads();

    int buf = 0;
    for (int p0 = 0; p0 < k; p0 += TILE_WIDTH) {
        int q = p0 + TILE_WIDTH; /* where the next tiles start along k */
        float next_a = 0.0f, next_b = 0.0f;
        if (q < k) {
            next_a = row < m && q + tx < k ? a[(size_t)row * k + q + tx] : 0.0f;
            next_b = q + ty < k && col < n ? b[(size_t)(q + ty) * n + col] : 0.0f;
        }
        for (int p = 0; p < TILE_WIDTH; p++)
            sum += tile_a[buf][ty][p] * tile_b[buf][p][tx];
        /* The other copy was last read before the previous barrier: free to overwrite. */
        if (q < k) {
            tile_a[buf ^ 1][ty][tx] = next_a;
            tile_b[buf ^ 1][ty][tx] = next_b;
        }
        __syncthreads();
        buf ^= 1;
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

static dim3 grid_for(int m, int n, dim3 block)
{
    return dim3((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(NAIVE_X, NAIVE_Y);
    matmul_naive_kernel<<<grid_for(m, n, block), block>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    matmul_tiled_kernel<<<grid_for(m, n, block), block>>>(d_c, d_a, d_b, m, n, k);
}
