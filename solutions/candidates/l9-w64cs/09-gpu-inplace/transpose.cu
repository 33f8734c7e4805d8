/*
 * l9-w64 with cache hints: loads cached in L2 only (__ldcg), stores
 * streaming (__stcs, evict first). Otherwise l9-w64 as it is.
 *
 * Lab 9 candidate l9-w64 (issue 40): l9-fold (whole pairs loaded without
 * bounds tests, a thread's 8 loads in flight at once, the triangle folded
 * into a grid) with pairs of 64 x 64 tiles, 64 x 16 threads a pair.
 *
 * Lab 6's reference moves 64 x 64 tiles; the in-place reference 32 x 32.
 * What the wider tile changes, each thread still loading 8 floats (4 of
 * each tile) in 32 registers (nvdisasm, sm_90: 8 LDG.E back to back), so
 * 2048 threads an SM and the same bytes in flight as l9-fold:
 * - a warp reads and writes 256 contiguous bytes of a row, two 128-byte
 *   lines, where a 32-wide tile's warp takes one: for the tile of a pair
 *   that is walked down a column of tiles, twice the bytes of a DRAM page
 *   at a time. Where rows do not start on a 32-byte sector (4097 x 4097)
 *   a row piece of 64 floats spans 9 sectors for 8 sectors' bytes, 12.5 %
 *   more sectors, where 32 floats span 5 for 4, 25 %.
 * - a quarter as many blocks, each with its fixed costs (finding its pair,
 *   the wait at its barrier for its slowest load) once for 32 KB moved
 *   instead of 8 KB.
 * The price: blocks of 1024 threads, 2 an SM (33 KB of shared memory
 * each), so a block's barrier holds half the SM's warps. 64 x 8 threads
 * (BLOCK_ROWS=8, 16 loads a thread) take 64 registers and issue 14 of the
 * 16 loads before the first shared store: the same bytes in flight, from
 * half the threads.
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
            t[threadIdx.y + j][threadIdx.x] = __ldcg(&mat[(r + j) * n + c]);
        else if (r + j < n && c < n)
            t[threadIdx.y + j][threadIdx.x] = __ldcg(&mat[(size_t)(r + j) * n + c]);
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
            __stcs(&mat[(r + j) * n + c], t[threadIdx.x][threadIdx.y + j]);
        else if (r + j < n && c < n)
            __stcs(&mat[(size_t)(r + j) * n + c], t[threadIdx.x][threadIdx.y + j]);
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
