/*
 * Lab 9 candidate l9-halves (issue 40, round 3): l9-w64's pairs of 64 x 64
 * tiles in l9-w64's order, each worked by two blocks of lab 6's shape
 * instead of one block of 1024 threads.
 *
 * The one idea: lab 6's reference (96-97 % of the copy at 4096^2 and up)
 * moves 16 KB a block with 64 x 8 threads, 8 floats a thread, four blocks
 * an SM; l9-w64 (94 %) moves 32 KB a block with 64 x 16 threads, two blocks
 * an SM. Same bytes in flight an SM, but while one of l9-w64's blocks waits
 * at its barrier for its slowest load, or writes, or is replaced, half the
 * SM's loads are missing; with four blocks, a quarter. Both kernels issue a
 * thread's 8 loads back to back (whole pairs, untested, int indices).
 *
 * A pair of tiles (R, C), (C, R), R < C, splits into two halves that are
 * pairs themselves: the top half of tile (R, C) (32 rows of 64) with the
 * left half of tile (C, R) (64 rows of 32), its mirror, and the bottom half
 * with the right half. Block 2x + h of grid row y works half h of the pair
 * l9-w64 gives slot (x, y) (the triangle folded: no square root), so the
 * two halves of a pair are neighbours in launch order and run together:
 * the memory sees whole 64 x 64 tiles as with l9-w64. A tile on the
 * diagonal is its own mirror and has no such halves: block h = 0 moves it
 * whole (64 x 64, 8 floats a thread again) and block h = 1 returns at once.
 *
 * Shared memory: a, the half of (R, C), 32 x (64 + 1); b, the half of
 * (C, R), 64 x (32 + 1): 16.8 KB, as lab 6's 64 x 65 tile. A warp reads a
 * column of either at a stride of 65 or 33 floats: one pass. The diagonal
 * tile puts its top 32 rows in a and its bottom 32 rows in b, transposed.
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

static_assert(TILE_DIM % 2 == 0 && HALF % BLOCK_ROWS == 0,
              "l9-halves: BLOCK_ROWS must divide TILE_DIM / 2 (a half tile is TILE_DIM / 2 rows)");

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

__global__ void transpose_half_pairs(float *mat, int n)
{
    __shared__ half_a_t a;
    __shared__ half_b_t b;

    /* Slot (x, y) of the fold: row y of the triangle of T tiles a side
     * (pairs (y, y..T-1)), then its row T-1-y (pairs (T-1-y, T-1-y..T-1)). */
    int tiles = (n + TILE_DIM - 1) / TILE_DIM, x = blockIdx.x >> 1, h = blockIdx.x & 1, y = blockIdx.y;
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
    dim3 grid(2 * (tiles + 1), (tiles + 1) / 2), block(TILE_DIM, BLOCK_ROWS);
    transpose_half_pairs<<<grid, block>>>(d_mat, n);
}
