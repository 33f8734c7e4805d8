// expect: fail never written
// The grid's y capped at 512 blocks of 8 rows, from a half-remembered
// limit: right up to 4096 rows, and rows past the 4096th are never
// written (the large shapes, 8192 rows on a GPU, cross it; the emulator's
// 2048 do not).
#include "lab.h"

#define MAX_GRID_Y 512

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    int grid_y = (rows + 7) / 8;
    if (grid_y > MAX_GRID_Y)
        grid_y = MAX_GRID_Y;
    naive<<<dim3((cols + 31) / 32, grid_y), dim3(32, 8)>>>(out, in, rows, cols);
}
