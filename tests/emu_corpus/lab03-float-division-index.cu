// expect: fail Lab 3 asks for a 2-D launch
// A flat 1-D kernel that splits its index into row and column with float
// division: exact below 2^24 elements, wrong past it. A GPU's full suite
// fails its values at 8192 x 8192; the emulator's largest shape (2048 x
// 2048, 2^22 elements) never crosses 2^24 (a shape that did would cost a
// suite several seconds more), so here, as in the corpus on the H100
// (2026-11-27), what fails it is lab 3's launch check: a 1-D launch.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * cols) {
        int r = (int)floorf((float)idx / (float)cols);
        int c = idx - r * cols;
        out[(size_t)c * rows + r] = in[idx];
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    int n = rows * cols;
    int threads = TILE_DIM * BLOCK_ROWS;
    transpose_naive<<<(n + threads - 1) / threads, threads>>>(d_out, d_in, rows, cols);
}
