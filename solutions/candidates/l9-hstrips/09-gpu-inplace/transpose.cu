/*
 * Lab 9 candidate l9-hstrips (issue 40, round 3): l9-halves (each pair of
 * 64 x 64 tiles worked by two blocks of lab 6's shape, 64 x 8 threads,
 * 8 floats a thread, four blocks an SM) launched in l9-strips' order.
 *
 * The two ideas together, each measured alone as l9-halves and l9-strips:
 * - blocks of 512 threads moving 16 KB each, four an SM, so that a block
 *   at its barrier holds a quarter of the SM's loads back, not half;
 * - the fold's grid rows walked in strips of STRIP rows, column by column,
 *   so that the ~264 pairs in flight on an H100 are a patch of STRIP x 33
 *   pairs: the tiles (R, C) cover 33 tiles (8 KB) of each of their rows
 *   and their mirrors (C, R) STRIP tiles (2 KB) of theirs, where the
 *   fold's row-by-row order gives the mirrors one 256-byte piece of each
 *   row at a time (l9-strips' header says why that matters).
 * Launch slot 2s + h is half h of fold slot s; slot s is fold slot (x, y)
 * of the strip order. Everything else is l9-halves'.
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
#define HALF (TILE_DIM / 2)
/* Grid rows of the fold a strip: the pairs in flight, ~264 on an H100, as STRIP x 33. */
#define STRIP 8

static_assert(TILE_DIM % 2 == 0 && HALF % BLOCK_ROWS == 0,
              "l9-hstrips: BLOCK_ROWS must divide TILE_DIM / 2 (a half tile is TILE_DIM / 2 rows)");

typedef float half_a_t[HALF][TILE_DIM + 1]; /* HALF rows of TILE_DIM: part of tile (R, C) */
typedef float half_b_t[TILE_DIM][HALF + 1]; /* TILE_DIM rows of HALF: its mirror in (C, R) */

/* mat[r][c]: untested with int indices on whole pairs (r * n + c < n * n
 * fits an int for the contract's n), tested and size_t at the edges. */
template <bool WHOLE>
__device__ static void load(float *to, const float *mat, int n, int r, int c)
{
    if (WHOLE)
        *to = mat[r * n + c];
    else if (r < n && c < n)
        *to = mat[(size_t)r * n + c];
}

template <bool WHOLE>
__device__ static void store(float *mat, int n, int r, int c, const float *from)
{
    if (WHOLE)
        mat[r * n + c] = *from;
    else if (r < n && c < n)
        mat[(size_t)r * n + c] = *from;
}

/* Rows r0.. r0 + HALF, columns c0.. c0 + TILE_DIM (in a) and their mirror,
 * rows c0.., columns r0.. (in b), swapped. For b the block's threads are
 * laid out HALF wide, 2 BLOCK_ROWS tall, so a warp still moves one row. */
template <bool WHOLE>
__device__ static void swap_halves(float *mat, int n, int r0, int c0, half_a_t a, half_b_t b)
{
    int x = threadIdx.x, y = threadIdx.y, t = y * TILE_DIM + x, bx = t % HALF, by = t / HALF;
#pragma unroll
    for (int j = 0; j < HALF; j += BLOCK_ROWS)
        load<WHOLE>(&a[y + j][x], mat, n, r0 + y + j, c0 + x);
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += 2 * BLOCK_ROWS)
        load<WHOLE>(&b[by + j][bx], mat, n, c0 + by + j, r0 + bx);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < HALF; j += BLOCK_ROWS)
        store<WHOLE>(mat, n, r0 + y + j, c0 + x, &b[x][y + j]);
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += 2 * BLOCK_ROWS)
        store<WHOLE>(mat, n, c0 + by + j, r0 + bx, &a[bx][by + j]);
}

/* Tile (R, R) transposed where it is: its rows 0..HALF into a, its rows
 * HALF..TILE_DIM into b transposed (b[k][i] is row HALF + i, column k), so
 * that column k of the tile is a[0..HALF][k] then b[k][0..HALF]. */
template <bool WHOLE>
__device__ static void transpose_diagonal(float *mat, int n, int r0, half_a_t a, half_b_t b)
{
    int x = threadIdx.x, y = threadIdx.y;
#pragma unroll
    for (int j = 0; j < HALF; j += BLOCK_ROWS) {
        load<WHOLE>(&a[y + j][x], mat, n, r0 + y + j, r0 + x);
        load<WHOLE>(&b[x][y + j], mat, n, r0 + HALF + y + j, r0 + x);
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        store<WHOLE>(mat, n, r0 + y + j, r0 + x, x < HALF ? &a[x][y + j] : &b[y + j][x - HALF]);
}

/* Launch slot s as slot (x, y) of the fold's grid of W x H: strips of STRIP
 * grid rows, one after another, each walked down its columns. */
__device__ static void strip_slot(int s, int W, int H, int *x, int *y)
{
    int per = STRIP * W, strip = s / per, in = s - strip * per, rows = min(STRIP, H - strip * STRIP);
    *x = in / rows;
    *y = strip * STRIP + in % rows;
}

__global__ void transpose_half_pairs(float *mat, int n)
{
    __shared__ half_a_t a;
    __shared__ half_b_t b;

    /* Slot (x, y) of the fold: row y of the triangle of T tiles a side
     * (pairs (y, y..T-1)), then its row T-1-y (pairs (T-1-y, T-1-y..T-1)). */
    int tiles = (n + TILE_DIM - 1) / TILE_DIM, h = blockIdx.x & 1, x, y;
    strip_slot(blockIdx.x >> 1, tiles + 1, (tiles + 1) / 2, &x, &y);
    int R = y, C = y + x;
    if (x >= tiles - y) {
        R = tiles - 1 - y, C = x - 1;
        if (R == y) /* odd T: the middle row of the triangle, done by the first half */
            return;
    }
    int r0 = R * TILE_DIM, c0 = C * TILE_DIM, whole = c0 + TILE_DIM <= n; /* R <= C: (C, R) decides */
    if (R == C) {
        if (h) /* the diagonal tile has no halves: block 0 moves it whole */
            return;
        if (whole)
            transpose_diagonal<true>(mat, n, r0, a, b);
        else
            transpose_diagonal<false>(mat, n, r0, a, b);
        return;
    }
    if (whole)
        swap_halves<true>(mat, n, r0 + h * HALF, c0, a, b);
    else
        swap_halves<false>(mat, n, r0 + h * HALF, c0, a, b);
}

void transpose_inplace(float *d_mat, int n)
{
    int tiles = (n + TILE_DIM - 1) / TILE_DIM;
    transpose_half_pairs<<<2 * (tiles + 1) * ((tiles + 1) / 2), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
