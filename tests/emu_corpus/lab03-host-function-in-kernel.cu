// expect: build-error calling a __host__ function
// A helper without __device__, called from the kernel.
#include "lab.h"

size_t index_of(int r, int c, int width)
{
    return (size_t)r * width + c;
}

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[index_of(c, r, rows)] = in[index_of(r, c, cols)];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
