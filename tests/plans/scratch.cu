// A transpose through a scratch buffer of its own: the plan refuses cudaMalloc.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    float *tmp;
    cudaMalloc((void **)&tmp, (size_t)rows * cols * sizeof(float));
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(tmp, in, rows, cols);
    cudaMemcpy(out, tmp, (size_t)rows * cols * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(tmp);
}
