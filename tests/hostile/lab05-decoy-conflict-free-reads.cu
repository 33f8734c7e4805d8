/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: lab 4's unpadded tile
 * (a column read takes 32 passes), and before it, at the technique check's
 * shape alone (192 x 128), a kernel of 80 conflict-free shared reads a
 * thread that writes nothing the output keeps. Summed with the tile's,
 * its passes brought the ratio under the bar: technique 3 of 3, its
 * control 0 (a cheating helper, 2026-11-27).
 * control: unpadded-tile.cu
 *
 * Only the launches whose work made the output are judged (harness/emu/
 * made.c): the tile's own reads take 32 passes each.
 */
#include "lab.h"

#define TILE_DIM 32

__global__ void tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE_DIM + threadIdx.x, r = blockIdx.x * TILE_DIM + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

__global__ void decoy(float *scratch)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    tile[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    volatile float *v = &tile[0][0];
    float sum = 0;
    for (int k = 0; k < 80; k++)
        sum += v[threadIdx.y * (TILE_DIM + 1) + threadIdx.x];
    if (sum < 0)
        scratch[0] = sum;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM), grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    if (rows == 192 && cols == 128)
        decoy<<<grid, block>>>(d_out);
    tiled<<<grid, block>>>(d_out, d_in, rows, cols);
}
