/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: the tile padded in the wrong
 * dimension (issue 36): tile[TILE + 1][TILE] declares the padded tile's
 * bytes, and a column of it still lies in one bank: 32 passes an access.
 * control: unpadded-tile.cu
 *
 * Technique comes from the passes the emulator counted: none earned, as for
 * the unpadded tile.
 */
#include "lab.h"

#define TILE 32

__global__ void tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE + 1][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tiled<<<grid, block>>>(out, in, rows, cols);
}
