/*
 * Lab 9, an extension: the GPU transpose in place.
 *
 *   void transpose_inplace(float *d_mat, int n);
 *
 * d_mat is a square n x n matrix, row-major on the GPU. Replace it by its
 * transpose in its own memory: afterwards mat[(size_t)c * n + r] holds what
 * mat[(size_t)r * n + c] held before. There is no second matrix to write to:
 * every element you write must have been read first, by you or by the
 * thread that owns its partner.
 *
 * Step 1 (README.md): a naive kernel, one thread per element, where only
 *        the threads on one side of the diagonal swap their element with
 *        its mirror. Run the tests: the correctness tests pass, and the
 *        technique test fails (8 of 9 pass): it asks for the shared tiles of
 *        step 2.
 * Step 2: the tiled kernel. One block per PAIR of tiles, (R, C) and its
 *        mirror (C, R): load both into two shared tiles, __syncthreads(),
 *        write each, transposed, into the other's place. A tile on the
 *        diagonal is its own mirror. The first thing to find in README.md
 *        is the bug of a tiled kernel that forgets the pairs.
 *
 * Sizes: any n >= 1 up to 46340 (n * n elements fit an int); tiles at the
 *        edge are partial. BLOCK_ROWS divides TILE_DIM.
 * Rules: launch on the default stream and return without synchronising;
 *        no cudaMalloc: the point is to need no second matrix. TILE_DIM
 *        and BLOCK_ROWS may change (make lab9 bench TILE_DIM=16 BLOCK_ROWS=16).
 * Graded by: make lab9 test (correctness; two shared tiles) and make lab9
 *        bench (against the reference, the out-of-place lab 6 reference
 *        and the device-to-device copy).
 * Read README.md in this folder first.
 */
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_tile_pairs(float *mat, int n)
{
    /* TODO: this block's pair of tiles: load both, wait,
     * write each transposed in the other's place (step 2). */
    (void)mat;
    (void)n;
}

void transpose_inplace(float *d_mat, int n)
{
    TODO("write a kernel that swaps each element below the diagonal with its mirror (README.md, "
         "step 1), then transpose_tile_pairs: one block per pair of mirror tiles (step 2)");
    (void)d_mat;
    (void)n;
}
