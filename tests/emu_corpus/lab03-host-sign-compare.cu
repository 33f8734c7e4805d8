// expect: build-error different signedness
// without-nvcc: builds
// The same comparison in host code: there g++ warns, and the GPU build
// makes its warnings errors.
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
    unsigned bx = 32, by = 8;
    if (bx > cols)
        bx = 32;
    naive<<<dim3((cols + bx - 1) / bx, (rows + by - 1) / by), dim3(bx, by)>>>(out, in, rows, cols);
}
