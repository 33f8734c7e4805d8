/*
 * Hostile hand-in (tests/hostile_test.sh), lab 4: a decoy tile (issue 36): the
 * naive transpose, with a __shared__ tile its threads store to and read
 * back, each its own element, so that the file declares a tile and the run
 * touches it. Scored 8 of 10 on a GPU where the naive kernel scored 5.
 * control: naive-transpose.cu
 *
 * Technique comes from the emulator's counts: the writes stay strided, as
 * the naive kernel's, and earn nothing.
 */
#include "lab.h"

#define TILE 32

__global__ void decoy(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols) {
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
        out[(size_t)c * rows + r] = tile[threadIdx.y][threadIdx.x];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    decoy<<<grid, block>>>(out, in, rows, cols);
}
