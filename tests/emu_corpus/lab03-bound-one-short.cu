// expect: fail the grid is not what falls short
// expect-not: round the number of blocks up
// The grid covers the matrix, but the bounds test stops one row short
// (r < rows - 1), so in's last row never reaches out. The launch is right:
// the hint names the bounds test, and must not ask to round the grid up, as
// it did in a student's trial.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows - 1 && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
