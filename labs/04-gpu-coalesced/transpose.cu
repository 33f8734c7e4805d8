/*
 * Lab 4: the coalesced GPU transpose, through a shared-memory tile.
 *
 *   void transpose(float *d_out, const float *d_in, int rows, int cols);
 *
 * Same contract as lab 3: d_in is rows x cols, d_out is cols x rows, both
 * row-major on the GPU; out[(size_t)c * rows + r] = in[(size_t)r * cols + c].
 *
 * Write a kernel where each block of TILE_DIM x TILE_DIM threads
 *  1. reads one TILE_DIM x TILE_DIM tile of in, row by row (coalesced),
 *     into a __shared__ float tile[TILE_DIM][TILE_DIM];
 *  2. waits for the whole block (__syncthreads());
 *  3. writes the tile's columns as rows of out, again with x running along
 *     a row, so the writes are coalesced too.
 * Then launch it from transpose(): one block per tile, rounding up.
 * Tiles at the right and bottom edges are partial: check the bounds on the
 * way in and on the way out. Keep the tile square and unpadded: lab 5 is
 * about padding.
 *
 * Sizes: any rows, cols >= 1 up to 524280, as in lab 3.
 * Rules: as lab 3. TILE_DIM may change (make lab4 bench TILE_DIM=16), but
 *        TILE_DIM x TILE_DIM threads must stay within 1024 per block.
 * Graded by: make lab4 test (correctness, and the kernel must stage a
 *        TILE_DIM x TILE_DIM tile in shared memory: a naive kernel fails
 *        that test) and make lab4 bench.
 * Read README.md in this folder first.
 */
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_coalesced(float *out, const float *in,
                                    int rows, int cols)
{
    /* TODO: declare the shared tile, load it, __syncthreads(),
     * store it transposed. */
    (void)out;
    (void)in;
    (void)rows;
    (void)cols;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    TODO("write transpose_coalesced (a TILE_DIM x TILE_DIM __shared__ tile, loaded by rows, "
         "stored by columns) and launch it with one TILE_DIM x TILE_DIM block per tile "
         "(README.md, step 2)");
    (void)d_out;
    (void)d_in;
    (void)rows;
    (void)cols;
}
