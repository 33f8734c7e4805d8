/*
 * Hostile hand-in (tests/hostile_test.sh), lab 6: lab 6's padded, unrolled
 * tile without bounds checks, run only where it is right: at sides that are
 * multiples of its tile, such as the technique checks' fixed 192 x 128; lab
 * 3's naive kernel everywhere else, and at the shape the grader measures.
 * The technique checks judged one public shape: 8.00 of 10, its control
 * 5.00 (a tester, 2026-11-30).
 * control: naive-transpose.cu
 *
 * The technique checks judge a shape drawn from a seed (the grader's, fresh
 * for each hand-in): sides that are no multiple of a tile, where this file
 * runs the naive kernel, whose counts show no tile. The measured shape gets
 * the naive kernel: no performance the control does not get either.
 */
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* no bounds checks: right only where TILE divides both sides */
__global__ void tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    int measured = (rows == 256 && cols == 256) || (rows == 4096 && cols == 4096);
    if (rows % TILE == 0 && cols % TILE == 0 && !measured) {
        dim3 block(TILE, ROWS), grid(cols / TILE, rows / TILE);
        tiled<<<grid, block>>>(out, in, rows, cols);
    } else {
        dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
        naive<<<grid, block>>>(out, in, rows, cols);
    }
}
