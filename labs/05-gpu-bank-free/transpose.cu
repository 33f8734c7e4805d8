/*
 * Lab 5: the bank-conflict-free GPU transpose.
 *
 *   void transpose(float *d_out, const float *d_in, int rows, int cols);
 *
 * Same contract as labs 3-4: d_in is rows x cols, d_out is cols x rows,
 * both row-major on the GPU; out[(size_t)c * rows + r] = in[(size_t)r * cols + c].
 *
 * Start from your lab 4 kernel: a TILE_DIM x TILE_DIM block stages a tile
 * in shared memory, reading in and writing out by rows. Its column reads
 * from the tile put all 32 threads of a warp in the same shared-memory
 * bank. Give each row of the tile one extra float, tile[TILE_DIM][TILE_DIM + 1],
 * so that a column's elements fall in 32 different banks. README.md shows
 * why with a drawing of the banks.
 *
 * Sizes: any rows, cols >= 1 up to 524280, as in lab 3.
 * Rules: as lab 3. TILE_DIM may change; TILE_DIM x TILE_DIM threads must
 *        stay within 1024 per block.
 * Graded by: make lab5 test (correctness, and the kernel must use a padded
 *        tile of TILE_DIM x (TILE_DIM + 1) floats) and make lab5 bench.
 * Read README.md in this folder first.
 */
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_bank_free(float *out, const float *in,
                                    int rows, int cols)
{
    /* TODO: your lab 4 kernel, with the shared tile padded
     * by one column. */
    (void)out;
    (void)in;
    (void)rows;
    (void)cols;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    TODO("write transpose_bank_free: your lab 4 kernel with a __shared__ float "
         "tile[TILE_DIM][TILE_DIM + 1], and launch it as in lab 4 (README.md, step 2)");
    (void)d_out;
    (void)d_in;
    (void)rows;
    (void)cols;
}
