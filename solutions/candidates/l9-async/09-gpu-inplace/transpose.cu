/*
 * Lab 9 candidate l9-async (issue 40): l9-w64 (pairs of 64 x 64 tiles, the
 * triangle folded into a grid) with a whole pair's loads copied straight
 * into shared memory (__pipeline_memcpy_async, cp.async on sm_80 and up),
 * 64 x 8 threads a pair, 16 copies a thread.
 *
 * The one idea: more bytes in flight on each SM. A load through registers
 * holds a register until it lands, so l9-w64 keeps 8 loads a thread at 32
 * registers, blocks of 1024 threads, two pairs an SM (64 KB asked for at
 * once). 64 x 8 threads with 16 loads each need 64 registers and again fit
 * two blocks an SM; held to 32 by __launch_bounds__ they spill (sm_90: 40
 * bytes). An asynchronous copy names its shared-memory destination and
 * holds no register, so 16 of them fit in far fewer than 32, and blocks of
 * 512 threads sit four to an SM at 32 registers (__launch_bounds__ below) (4 x 33 KB of shared memory of 228 KB):
 * four pairs, 128 KB asked for at once, and a block at its barrier holds a
 * quarter of the SM's warps. A thread waits for its own copies
 * (__pipeline_wait_prior) before the barrier, which then makes every
 * thread's copies visible to the block. The edge pairs load through
 * registers, tested, as before.
 */
#include "lab.h"

#include <cuda_pipeline.h>

#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

typedef float tile_t[TILE_DIM][TILE_DIM + 1];

/* Rows a thread moves in a tile (nvcc expands no macro in a pragma). */
constexpr int ROUNDS = TILE_DIM / BLOCK_ROWS;

/* Tile (r0, c0) of mat into t, row by row. WHOLE: the tile lies inside the
 * matrix, so no access is tested and nothing holds the loads back. */
template <bool WHOLE>
__device__ static void load_tile(tile_t t, const float *mat, int n, int r0, int c0)
{
    int r = r0 + threadIdx.y, c = c0 + threadIdx.x;
#pragma unroll(WHOLE ? ROUNDS : 1) /* the edge path one row at a time: fewer registers */
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (WHOLE)
            __pipeline_memcpy_async(&t[threadIdx.y + j][threadIdx.x], &mat[(r + j) * n + c],
                                    sizeof(float));
        else if (r + j < n && c < n)
            t[threadIdx.y + j][threadIdx.x] = mat[(size_t)(r + j) * n + c];
    }
}

/* The transpose of t over tile (r0, c0), row by row (t read down its columns). */
template <bool WHOLE>
__device__ static void store_tile(float *mat, int n, int r0, int c0, const tile_t t)
{
    int r = r0 + threadIdx.y, c = c0 + threadIdx.x;
#pragma unroll(WHOLE ? 4 : 1) /* stores wait for nothing: 4 at a time keeps 32 registers */
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (WHOLE)
            mat[(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
        else if (r + j < n && c < n)
            mat[(size_t)(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
    }
}

/* This thread's copies landed; the barrier after it shows everyone's. */
template <bool WHOLE>
__device__ static void wait_copies()
{
    if (WHOLE) {
        __pipeline_commit();
        __pipeline_wait_prior(0);
    }
}

/* Pair (r0, c0), (c0, r0): both loaded, then each written over the other;
 * a diagonal tile is its own mirror. */
template <bool WHOLE>
__device__ static void swap_pair(float *mat, int n, int r0, int c0, tile_t a, tile_t b)
{
    if (r0 == c0) {
        load_tile<WHOLE>(a, mat, n, r0, r0);
        wait_copies<WHOLE>();
        __syncthreads();
        store_tile<WHOLE>(mat, n, r0, r0, a);
        return;
    }
    load_tile<WHOLE>(a, mat, n, r0, c0);
    load_tile<WHOLE>(b, mat, n, c0, r0);
    wait_copies<WHOLE>();
    __syncthreads();
    store_tile<WHOLE>(mat, n, r0, c0, b);
    store_tile<WHOLE>(mat, n, c0, r0, a);
}

/* As many blocks an SM as its threads allow, so 32 registers on sm_80 and
 * sm_90 (four blocks of 512 threads; left to itself ptxas takes 64 for the
 * 16 addresses, and two blocks fit), three blocks on sm_86 and sm_89 (1536
 * threads), two on sm_75 (1024). The CUDA programming guide sets
 * __launch_bounds__ from __CUDA_ARCH__ this way. */
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
