// expect: fail Lab 3 asks for a 2-D launch
// A grid-stride loop: right, but lab 3 asks for a launch that covers the matrix.
#include "lab.h"

__global__ void strided(float *__restrict__ out, const float *__restrict__ in, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t r = i / cols, c = i - r * cols;
        out[c * rows + r] = in[i];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    strided<<<64, 128>>>(out, in, rows, cols);
}
