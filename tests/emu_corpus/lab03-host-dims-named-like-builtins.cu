// expect: pass
// The launch configuration in host variables named gridDim and blockDim,
// as siboehm's SGEMM runner and llm.c name theirs: in host code these are
// ordinary names, and nvcc compiles them.
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
    dim3 blockDim(32, 8);
    dim3 gridDim((cols + blockDim.x - 1) / blockDim.x, (rows + blockDim.y - 1) / blockDim.y);
    naive<<<gridDim, blockDim>>>(out, in, rows, cols);
}
