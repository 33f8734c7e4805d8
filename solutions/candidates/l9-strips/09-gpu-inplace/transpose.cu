/*
 * Lab 9 candidate l9-strips (issue 40, round 3): l9-w64 (pairs of 64 x 64
 * tiles, 64 x 16 threads, whole pairs loaded untested) with its blocks
 * launched in another order, so that the blocks running at one time cover
 * a patch of the matrix that is wide in both directions.
 *
 * The one idea: DRAM reads and writes a page at a time, and the copy
 * streams whole rows. l9-w64's fold walks the triangle row by row: the
 * ~264 pairs an H100 holds at once (2 an SM) are about one row of pairs at
 * 16384^2 (257 slots), two at 8192^2, four at 4096^2. Their tiles (R, C)
 * then lie side by side along rows (long runs of each matrix row, good),
 * but their mirrors (C, R) are one column of tiles: of each matrix row
 * they touch, one 256-byte piece (one to four at 4096^2), the next piece
 * of that row coming a whole pass of the triangle later. Lab 6's
 * reference, at 96-97 % of the copy, reads two columns of tiles at a time
 * and writes whole rows.
 *
 * Here the fold's grid rows go in strips of STRIP rows, and a strip is
 * walked column by column: launch slot s is fold slot (x, y) with
 * y = STRIP * (s / (STRIP * W)) + s % rows, x = (s % (STRIP * W)) / rows
 * (W = T + 1 slots a row; rows = STRIP, fewer in the last strip). The
 * pairs in flight are then STRIP rows of tiles by ~264 / STRIP columns:
 * tiles (R, C) cover STRIP bands of rows, 33 tiles (8 KB) of each row, and
 * their mirrors (C, R) 33 bands of rows, STRIP tiles (2 KB) of each row,
 * at every size. The slot -> pair map (the fold) is l9-w64's; nothing else
 * changes. The same order also keeps a tile's neighbours along its rows
 * in flight with it: at 4097 x 4097 they share the 32-byte sectors at
 * their edges (rows that do not start on a sector).
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 16
#endif
/* Grid rows of the fold a strip: the pairs in flight, ~264 on an H100, as STRIP x 33. */
#define STRIP 8

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

/* Launch slot s as slot (x, y) of the fold's grid of W x H: strips of STRIP
 * grid rows, one after another, each walked down its columns. */
__device__ static void strip_slot(int s, int W, int H, int *x, int *y)
{
    int per = STRIP * W, strip = s / per, in = s - strip * per, rows = min(STRIP, H - strip * STRIP);
    *x = in / rows;
    *y = strip * STRIP + in % rows;
}

__global__ void transpose_tile_pairs(float *mat, int n)
{
    __shared__ tile_t a; /* tile (R, C) */
    __shared__ tile_t b; /* its mirror (C, R) */

    /* Slot (x, y) of the fold: row y of the triangle of T tiles a side
     * (pairs (y, y..T-1)), then its row T-1-y (pairs (T-1-y, T-1-y..T-1)). */
    int tiles = (n + TILE_DIM - 1) / TILE_DIM, x, y;
    strip_slot(blockIdx.x, tiles + 1, (tiles + 1) / 2, &x, &y);
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
    transpose_tile_pairs<<<(tiles + 1) * ((tiles + 1) / 2), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
