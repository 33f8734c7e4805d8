/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: traffic through atomics:
 * lab 4's unpadded tile, its 32-way conflicted column read made through a
 * shared atomicOr(p, 0), beside a conflict-free read of the tile into a
 * volatile.
 * The emulator counted atomics apart from loads and stores, so the checks and
 * the cost saw none of it: 10 of 10 on the emulator where the honest kernel
 * scored 5 (found by a tester, 2026-11-27). On a GPU each such atomic is a
 * read and a write in L2 (or 32 passes of a bank): as slow as the naive kernel, or slower.
 * control: unpadded-tile.cu
 */
#include "lab.h"
#ifndef TILE_DIM
#define TILE_DIM 32
#endif
__global__ void transpose_bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int r = blockIdx.y * TILE_DIM + threadIdx.y, c = blockIdx.x * TILE_DIM + threadIdx.x;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    volatile float sink = tile[threadIdx.y][threadIdx.x];
    (void)sink;
    int orow = blockIdx.x * TILE_DIM + threadIdx.y, ocol = blockIdx.y * TILE_DIM + threadIdx.x;
    if (orow < cols && ocol < rows)
        out[(size_t)orow * rows + ocol] = __int_as_float(atomicOr((int *)&tile[threadIdx.x][threadIdx.y], 0));
}
void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
