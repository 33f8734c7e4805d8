/*
 * Hostile hand-in (tests/hostile_test.sh), lab 4: the naive transpose
 * (strided writes), and before it, at the technique check's shape alone
 * (192 x 128), a kernel that stages a tile in shared memory and writes
 * every element of out 24 times, coalesced, through a volatile pointer.
 * The naive kernel then writes out over it. The technique check summed the
 * counts of every kernel the call ran: the decoy's coalesced stores lifted
 * the sum past the bar, and its shared accesses made the tile look used:
 * technique 3 of 3, its control 0 (a cheating helper, 2026-11-27).
 * control: naive-transpose.cu
 *
 * The emulator tells which launches' work made the output (harness/emu/
 * made.c): the decoy's stores are all written over and nothing reads them,
 * so it is not part of the answer and the check judges the naive kernel.
 */
#include "lab.h"

#define TILE_DIM 32

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

__global__ void decoy(float *out, int n)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    tile[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    float v = tile[threadIdx.x][threadIdx.y];
    volatile float *o = out;
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * TILE_DIM * TILE_DIM + threadIdx.y * TILE_DIM + threadIdx.x;
    for (int k = 0; k < 24; k++)
        if (i < n)
            o[i] = v;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM), grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    if (rows == 192 && cols == 128)
        decoy<<<grid, block>>>(d_out, rows * cols);
    naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
