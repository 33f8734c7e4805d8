// Variables of the device code set and read by the runtime's symbol calls: the shape
// copied from the host into a __constant__ array, in's first element copied into a
// __device__ float and back out into out. The plan keeps each copy, by the variable's
// name; a one-row matrix also asks for a copy out of a variable to the host, refused.
#include "lab.h"

__constant__ int shape[2];
__device__ float first;

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < shape[0] && c < shape[1])
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c] + 0.0f * first;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    int host[2] = {rows, cols};
    cudaMemcpyToSymbol(shape, host, sizeof host);
    cudaMemcpyToSymbolAsync(first, in, sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
    cudaMemcpyFromSymbol(out, first, sizeof(float), 0, cudaMemcpyDeviceToDevice);
    float back;
    if (rows == 1)
        cudaMemcpyFromSymbol(&back, first, sizeof back);
}
