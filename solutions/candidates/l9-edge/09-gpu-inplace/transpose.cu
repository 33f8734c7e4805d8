/*
 * Lab 9 candidate l9-edge (issue 40): l9-w64 (pairs of 64 x 64 tiles,
 * 64 x 16 threads, whole pairs loaded without bounds tests, the triangle
 * folded into a grid) with the edge pairs' loads issued like the whole
 * pairs': every load unconditional, its row and column clamped into the
 * matrix, and only the shared store that keeps it tested.
 *
 * The one idea: at 4097 x 4097 the pairs on the last column of tiles take
 * the tested path, where each load sits behind its own bounds test and
 * ptxas need not issue them together. A clamped load reads a float of the
 * matrix whatever the thread, so nothing holds it back: the edge pair has
 * its 8 loads in flight before its barrier, as an interior pair does. At
 * sizes that are multiples of 64 no pair takes this path, so only 4097
 * (and other odd sizes) can show a difference from l9-w64.
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 16
#endif

typedef float tile_t[TILE_DIM][TILE_DIM + 1];

/* Tile (r0, c0) of mat into t, row by row. WHOLE: the tile lies inside the
 * matrix, so no access is tested and nothing holds the loads back. */
template <bool WHOLE>
__device__ static void load_tile(tile_t t, const float *mat, int n, int r0, int c0)
{
    int r = r0 + threadIdx.y, c = c0 + threadIdx.x;
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (WHOLE)
            t[threadIdx.y + j][threadIdx.x] = mat[(r + j) * n + c];
        else {
            float v = mat[(size_t)min(r + j, n - 1) * n + min(c, n - 1)];
            if (r + j < n && c < n)
                t[threadIdx.y + j][threadIdx.x] = v;
        }
    }
}

/* The transpose of t over tile (r0, c0), row by row (t read down its columns). */
template <bool WHOLE>
__device__ static void store_tile(float *mat, int n, int r0, int c0, const tile_t t)
{
    int r = r0 + threadIdx.y, c = c0 + threadIdx.x;
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (WHOLE)
            mat[(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
        else if (r + j < n && c < n)
            mat[(size_t)(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
    }
}

/* Pair (r0, c0), (c0, r0): both loaded, then each written over the other;
 * a diagonal tile is its own mirror. */
template <bool WHOLE>
__device__ static void swap_pair(float *mat, int n, int r0, int c0, tile_t a, tile_t b)
{
    if (r0 == c0) {
        load_tile<WHOLE>(a, mat, n, r0, r0);
        __syncthreads();
        store_tile<WHOLE>(mat, n, r0, r0, a);
        return;
    }
    load_tile<WHOLE>(a, mat, n, r0, c0);
    load_tile<WHOLE>(b, mat, n, c0, r0);
    __syncthreads();
    store_tile<WHOLE>(mat, n, r0, c0, b);
    store_tile<WHOLE>(mat, n, c0, r0, a);
}

/* Two blocks an SM on sm_80 and sm_90 (32 registers, as l9-w64 takes by
 * itself): the clamped loads' indices take ptxas to 40, one block an SM.
 * As many as the SM's threads allow: 1536 on sm_86 and sm_89, 1024 on
 * sm_75 (the CUDA programming guide's way of setting it by __CUDA_ARCH__). */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890)
#define SM_THREADS 1536
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define SM_THREADS 1024
#else
#define SM_THREADS 2048
#endif

__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS, SM_THREADS / (TILE_DIM * BLOCK_ROWS))
transpose_tile_pairs(float *mat, int n)
{
    __shared__ tile_t a; /* tile (R, C) */
    __shared__ tile_t b; /* its mirror (C, R) */

    /* Row y of the grid: row y of the triangle of T tiles a side (pairs
     * (y, y..T-1)), then its row T-1-y (pairs (T-1-y, T-1-y..T-1)). */
    int tiles = (n + TILE_DIM - 1) / TILE_DIM, x = blockIdx.x, y = blockIdx.y;
    int R = y, C = y + x;
    if (x >= tiles - y) {
        R = tiles - 1 - y, C = x - 1;
        if (R == y) /* odd T: the middle row of the triangle, done by the first half */
            return;
    }
    int r0 = R * TILE_DIM, c0 = C * TILE_DIM;

    /* r0 <= c0: the tile furthest out, (c0, r0) or (r0, c0), decides. */
    if (c0 + TILE_DIM <= n)
        swap_pair<true>(mat, n, r0, c0, a, b);
    else
        swap_pair<false>(mat, n, r0, c0, a, b);
}

void transpose_inplace(float *d_mat, int n)
{
    int tiles = (n + TILE_DIM - 1) / TILE_DIM;
    dim3 grid(tiles + 1, (tiles + 1) / 2), block(TILE_DIM, BLOCK_ROWS);
    transpose_tile_pairs<<<grid, block>>>(d_mat, n);
}
