// expect: fail allocates none
// An "in-place" transpose through a second matrix of its own: a copy into a
// cudaMalloc'd buffer, then an out-of-place transpose back. Right, but lab 9
// is the transpose without a second matrix, and a lab's function allocates
// nothing (lab.h): refused on a GPU by its launch plan, and by the emulator alike.
#include "lab.h"

#include <stddef.h>

__global__ void transpose_from(float *m, const float *copy, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n)
        m[(size_t)c * n + r] = copy[(size_t)r * n + c];
}

void transpose_inplace(float *d_m, int n)
{
    float *copy;
    size_t bytes = (size_t)n * n * sizeof(float);
    cudaMalloc(&copy, bytes);
    cudaMemcpy(copy, d_m, bytes, cudaMemcpyDeviceToDevice);
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    transpose_from<<<grid, block>>>(d_m, copy, n);
    cudaDeviceSynchronize();
    cudaFree(copy);
}
