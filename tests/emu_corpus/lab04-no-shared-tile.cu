// expect: fail made no shared-memory access at all
// gpu-expect: pass
// Correct, but the naive kernel of lab 3: lab 4's technique check fails it.
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
    naive<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(out, in, rows, cols);
}
