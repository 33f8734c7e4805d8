/*
 * Hostile hand-in (tests/hostile_test.sh), lab 6: a "ghost" branch
 * (KernelBench): the file holds lab 6's kernel, a padded tile and several
 * elements a thread, but it runs only when a condition no call meets holds;
 * every call runs the naive kernel.
 * control: naive-transpose.cu
 *
 * Technique comes from the emulator's counts of what ran, not from what the
 * file holds: the naive kernel's, no technique point.
 */
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    if (rows < 0) { /* never: a side is at least 1 */
        dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
        unrolled<<<grid, block>>>(out, in, rows, cols);
        return;
    }
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
}
