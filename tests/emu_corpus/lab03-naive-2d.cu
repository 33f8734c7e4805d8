// expect: pass
// The textbook naive transpose: a 2-D grid, one thread per element.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[c * rows + r] = in[r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(16, 16);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    naive<<<grid, block>>>(out, in, rows, cols);
}
