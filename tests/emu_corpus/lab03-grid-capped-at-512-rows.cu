// expect: fail
// The grid's height capped at 512 blocks of 8 rows, to stay "well inside
// the limits": right up to 4096 rows, and rows past 4096 are never
// written. The GPU's large shapes cross 4096 rows and the emulator's large
// ones do not: its thin shapes (8192 x 3) do.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    int down = (rows + 7) / 8;
    dim3 grid((cols + 31) / 32, down < 512 ? down : 512);
    naive<<<grid, dim3(32, 8)>>>(out, in, rows, cols);
}
