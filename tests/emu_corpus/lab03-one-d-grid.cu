// expect: fail Lab 3 asks for a 2-D launch
// One flat grid over all elements, row and column from / and %: right,
// but lab 3 asks for a 2-D launch that covers the matrix.
#include "lab.h"

__global__ void flat(float *out, const float *in, int rows, int cols)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)rows * cols)
        return;
    size_t r = i / cols, c = i % cols;
    out[c * rows + r] = in[i];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    int threads = 256;
    int blocks = (int)((n + threads - 1) / threads);
    flat<<<blocks, threads>>>(out, in, rows, cols);
}
