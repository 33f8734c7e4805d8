/*
 * Hostile hand-in (tests/hostile_test.sh), lab 4: traffic through atomics:
 * lab 3's naive transpose, its strided store made through atomicExch and
 * each element passed through a __shared__ tile by its own thread.
 * The emulator counted atomics apart from loads and stores, so the checks and
 * the cost saw none of it: 10 of 10 on the emulator where the honest kernel
 * scored 5 (found by a tester, 2026-11-27). On a GPU each such atomic is a
 * read and a write in L2 (or 32 passes of a bank): as slow as the naive kernel, or slower.
 * control: naive-transpose.cu
 */
#include "lab.h"
#ifndef TILE_DIM
#define TILE_DIM 32
#endif
__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int r = blockIdx.y * TILE_DIM + threadIdx.y, c = blockIdx.x * TILE_DIM + threadIdx.x;
    if (r < rows && c < cols) {
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    if (r < rows && c < cols) {
        atomicExch(&out[(size_t)c * rows + r], tile[threadIdx.y][threadIdx.x]);
    }
}
void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
