// expect: pass
// The block's shape in a __constant__ table with an initializer, read by
// every thread (a broadcast from the constant cache); the host launches
// with the same numbers.
#include "lab.h"

#define BLOCK_X 32
#define BLOCK_Y 8

__constant__ int block_shape[2] = {BLOCK_X, BLOCK_Y};

__global__ void naive_constant(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * block_shape[0] + threadIdx.x;
    int r = blockIdx.y * block_shape[1] + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + BLOCK_X - 1) / BLOCK_X, (rows + BLOCK_Y - 1) / BLOCK_Y);
    naive_constant<<<grid, dim3(BLOCK_X, BLOCK_Y)>>>(out, in, rows, cols);
}
