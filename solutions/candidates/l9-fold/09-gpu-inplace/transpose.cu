/*
 * Lab 9 candidate l9-fold (issue 40): l9-batch (whole pairs loaded without
 * bounds tests, a thread's 8 loads in flight at once), with the triangle
 * of pairs folded into a rectangular grid, so that a block finds its pair
 * without a square root.
 *
 * The reference's block k of a 1-D grid finds pair k of the triangle from
 * sqrt(8k + 1) in double precision and two loops that correct it in 64-bit
 * integers: its whole-pair path (l9-batch) runs about 100 instructions
 * before its first load, 14 of them FP64 and conversions (MUFU.RSQ64H,
 * DFMA, F2I.S64: nvdisasm, sm_90), a dependent chain in every block, each
 * of which moves only 8 KB. Here it is about 55, none of them FP64.
 *
 * The grid is T + 1 blocks wide and (T + 1) / 2 high for T tiles a side:
 * grid row y holds the triangle's row y, pairs (y, y .. T - 1), then its
 * row T - 1 - y, pairs (T - 1 - y, T - 1 - y .. T - 1): T - y + y + 1 =
 * T + 1 pairs. For an odd T the middle row is one triangle row, met twice:
 * the second half of its grid row returns at once, before any barrier.
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
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
        else if (r + j < n && c < n)
            t[threadIdx.y + j][threadIdx.x] = mat[(size_t)(r + j) * n + c];
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

__global__ void transpose_tile_pairs(float *mat, int n)
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
