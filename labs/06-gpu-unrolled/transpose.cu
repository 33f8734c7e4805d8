/*
 * Lab 6: the unrolled GPU transpose, at the speed of a memory copy.
 *
 *   void transpose(float *d_out, const float *d_in, int rows, int cols);
 *
 * Same contract as labs 3-5: d_in is rows x cols, d_out is cols x rows,
 * both row-major on the GPU; out[(size_t)c * rows + r] = in[(size_t)r * cols + c].
 *
 * Start from your lab 5 kernel (padded TILE_DIM x (TILE_DIM + 1) tile).
 * Launch blocks of TILE_DIM x BLOCK_ROWS threads instead of TILE_DIM x
 * TILE_DIM, still one block per tile: each thread now moves
 * TILE_DIM / BLOCK_ROWS elements, in a loop
 *     for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
 * on the way in and on the way out. Fewer threads per tile, more
 * independent loads per thread in flight, less index arithmetic per element.
 *
 * Sizes: any rows, cols >= 1 up to 524280, as in lab 3; BLOCK_ROWS divides
 *        TILE_DIM.
 * Rules: as lab 3. TILE_DIM and BLOCK_ROWS may change (make lab6 sweep
 *        tries many pairs); BLOCK_ROWS must stay below TILE_DIM.
 * Graded by: make lab6 test (correctness; a padded shared tile; blocks of
 *        fewer than TILE_DIM rows) and make lab6 bench (the reference
 *        reaches 93-102 % of the device-to-device copy on an H100: README.md).
 * Read README.md in this folder first.
 */
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_unrolled(float *out, const float *in,
                                   int rows, int cols)
{
    /* TODO: the lab 5 kernel, with a loop over
     * j = 0, BLOCK_ROWS, 2 * BLOCK_ROWS, ... */
    (void)out;
    (void)in;
    (void)rows;
    (void)cols;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    TODO("write transpose_unrolled (your lab 5 kernel, each thread moving TILE_DIM / BLOCK_ROWS "
         "elements) and launch it with dim3 block(TILE_DIM, BLOCK_ROWS), one block per tile "
         "(README.md, step 2)");
    (void)d_out;
    (void)d_in;
    (void)rows;
    (void)cols;
}
