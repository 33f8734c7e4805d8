// expect: fail round the number of blocks up
// The grid is rounded down: the last partial tiles are never transposed.
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
    naive<<<dim3(cols / 32 + (cols < 32), rows / 8 + (rows < 8)), dim3(32, 8)>>>(out, in, rows, cols);
}
