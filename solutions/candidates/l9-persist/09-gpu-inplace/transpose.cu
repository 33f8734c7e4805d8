/*
 * Lab 9 candidate l9-persist (issue 40): l9-fold's pairs (whole pairs
 * loaded without bounds tests, the triangle folded), worked by a
 * persistent grid whose blocks load their next pair while they write the
 * current one.
 *
 * In l9-fold a block loads its pair, waits at the barrier, writes it and
 * exits: while it writes, and while the block that takes its place finds
 * its pair, those warps have no load in flight, and the SM's bytes in
 * flight are only those of its blocks still loading. Here the grid is as
 * many blocks as the GPU holds at once (blocks an SM, from the occupancy
 * API, times the SMs: one wave, as lab 6's reference computes it), and
 * block b works pairs b, b + G, b + 2G, ... of the folded triangle. A
 * thread's share of a pair goes first into registers (staged, 8 floats);
 * after the barrier that makes the current pair visible in shared memory,
 * the thread issues the next pair's loads into those registers and only
 * then reads the shared tiles and writes the current pair out: its loads
 * of pair p + G are in flight while its stores of pair p go. Pairs are
 * disjoint, so no block's loads race another's stores, and within a
 * thread the loads come first in program order. A second barrier per pair
 * keeps a warp from staging pair p + G into the tiles while another still
 * reads pair p from them.
 *
 * Pair p of the fold is slot p of a row-major grid T + 1 slots wide: grid
 * row y = p / (T + 1) holds triangle rows y and T - 1 - y (l9-fold). The
 * T (T + 1) / 2 pairs are exactly the first T (T + 1) / 2 slots: for an
 * odd T the middle triangle row's repeat is the end of the last grid row.
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
/* Rows of each tile a thread moves. */
#define ROWS (TILE_DIM / BLOCK_ROWS)

/* Threads an SM holds at once: 2048 on the A100 and the H100, at least
 * 1024 on any GPU the kit builds for (lab 7's reference says the same).
 * Left alone ptxas gives the kernel 40 registers (sm_90), 6 blocks of 256
 * threads an SM and 6 x 8 KB staged; held to 32 it fits 8, still with a
 * thread's 8 loads back to back and no spills. A block of fewer than 64
 * threads (TILE_DIM=4) asks for 16 blocks, the most a Turing SM holds. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 800 && __CUDA_ARCH__ != 900
#define SM_THREADS 1024
#else
#define SM_THREADS 2048
#endif
#define THREADS (TILE_DIM * BLOCK_ROWS)
#define MIN_BLOCKS (SM_THREADS / THREADS < 16 ? SM_THREADS / THREADS : 16)

typedef float tile_t[TILE_DIM][TILE_DIM + 1];

/* A thread's part of a pair between global and shared memory: row
 * threadIdx.y + j * BLOCK_ROWS, column threadIdx.x, of tile (r0, c0) in a,
 * of its mirror (c0, r0) in b. */
typedef struct {
    float a[ROWS], b[ROWS];
} staged;

/* Pair p of the folded triangle of T tiles a side, as its two tiles' corners (r0 <= c0). */
__device__ static void pair_of(int p, int tiles, int *r0, int *c0)
{
    int y = p / (tiles + 1), x = p % (tiles + 1), R = y, C = y + x;
    if (x >= tiles - y)
        R = tiles - 1 - y, C = x - 1;
    *r0 = R * TILE_DIM, *c0 = C * TILE_DIM;
}

/* The pair's elements into registers. A whole pair (its tile furthest out
 * inside the matrix) loads untested, with int indices (below n * n, which
 * the contract's n keeps in an int): ptxas issues the loads back to back.
 * Elsewhere each load is tested, and what lies outside reads as 0. */
__device__ static void load_pair(staged *s, const float *mat, int n, int r0, int c0)
{
    int y = threadIdx.y, x = threadIdx.x, diagonal = r0 == c0;
    if (c0 + TILE_DIM <= n) {
#pragma unroll
        for (int j = 0; j < ROWS; j++) {
            s->a[j] = mat[(r0 + y + j * BLOCK_ROWS) * n + c0 + x];
            s->b[j] = diagonal ? 0.0f : mat[(c0 + y + j * BLOCK_ROWS) * n + r0 + x];
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < ROWS; j++) {
        int ra = r0 + y + j * BLOCK_ROWS, rb = c0 + y + j * BLOCK_ROWS;
        s->a[j] = ra < n && c0 + x < n ? mat[(size_t)ra * n + c0 + x] : 0.0f;
        s->b[j] = !diagonal && rb < n && r0 + x < n ? mat[(size_t)rb * n + r0 + x] : 0.0f;
    }
}

__device__ static void stage(const staged *s, tile_t a, tile_t b)
{
#pragma unroll
    for (int j = 0; j < ROWS; j++) {
        a[threadIdx.y + j * BLOCK_ROWS][threadIdx.x] = s->a[j];
        b[threadIdx.y + j * BLOCK_ROWS][threadIdx.x] = s->b[j];
    }
}

/* The transpose of t over tile (r0, c0), row by row, each store tested
 * unless the tile is whole. */
__device__ static void store_tile(float *mat, int n, int r0, int c0, const tile_t t)
{
    int r = r0 + threadIdx.y, c = c0 + threadIdx.x, whole = r0 + TILE_DIM <= n && c0 + TILE_DIM <= n;
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (whole)
            mat[(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
        else if (r + j < n && c < n)
            mat[(size_t)(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
    }
}

__global__ __launch_bounds__(THREADS, MIN_BLOCKS) void transpose_pairs_persistent(float *mat, int n, int pairs)
{
    __shared__ tile_t a; /* tile (R, C) */
    __shared__ tile_t b; /* its mirror (C, R) */

    int tiles = (n + TILE_DIM - 1) / TILE_DIM, p = blockIdx.x, r0, c0;
    if (p >= pairs)
        return;
    staged s;
    pair_of(p, tiles, &r0, &c0);
    load_pair(&s, mat, n, r0, c0);
    for (;;) {
        stage(&s, a, b);
        __syncthreads();
        /* The next pair's loads first: in flight while this pair is written. */
        int next = p + gridDim.x, nr0 = 0, nc0 = 0;
        if (next < pairs) {
            pair_of(next, tiles, &nr0, &nc0);
            load_pair(&s, mat, n, nr0, nc0);
        }
        if (r0 == c0) {
            store_tile(mat, n, r0, r0, a);
        } else {
            store_tile(mat, n, r0, c0, b);
            store_tile(mat, n, c0, r0, a);
        }
        if (next >= pairs)
            return;
        __syncthreads(); /* every warp is done reading a and b before they are staged again */
        p = next, r0 = nr0, c0 = nc0;
    }
}

/* Blocks the GPU holds at once: its SMs times the blocks of the kernel an SM holds. */
static int resident_blocks(void)
{
    int device, sms, per_sm;
    if (cudaGetDevice(&device) != cudaSuccess
        || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess
        || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_pairs_persistent,
                                                         TILE_DIM * BLOCK_ROWS, 0) != cudaSuccess
        || per_sm < 1)
        return 1;
    return sms * per_sm;
}

void transpose_inplace(float *d_mat, int n)
{
    int tiles = (n + TILE_DIM - 1) / TILE_DIM, pairs = tiles * (tiles + 1) / 2;
    int blocks = resident_blocks();
    dim3 block(TILE_DIM, BLOCK_ROWS);
    transpose_pairs_persistent<<<blocks < pairs ? blocks : pairs, block>>>(d_mat, n, pairs);
}
