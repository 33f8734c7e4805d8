// A __device__ array passed to kernels by its address (cudaGetSymbolAddress), as a
// reduction's partials are: the lab's code is given the array's stand-in (plan.h), kept
// in a static from the first call, used at an offset by a launch and by a memset. Each
// call's plan names the array (an ADDRESS step), the first call's and the next's alike.
#include "lab.h"

__device__ float spare[4];
__device__ float partials[1024];

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    static float *part;
    if (!part && cudaGetSymbolAddress((void **)&part, partials) != cudaSuccess)
        return;
    size_t size = 0;
    cudaGetSymbolSize(&size, partials);
    cudaMemset(part, 0, size);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(part + 16, in, rows, cols);
    naive<<<grid, block>>>(out, in, rows, cols);
}
