// expect: build-error __device_builtin_variable_warpSize
// without-nvcc: builds
// warpSize in host code, as the block's width: it is a device built-in, so
// nvcc compiles the file but the link finds no host definition of it
// ("undefined reference to `__device_builtin_variable_warpSize'").
// The kit's GPU build (make GPU=cuda emu-corpus, nvcc 13) refuses it so (student17, session 17).
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(warpSize, 8);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
