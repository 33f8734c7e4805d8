// expect: fail cudaMemcpyFromSymbol to the host
// The kernel raises a __device__ flag where it finds a NaN, and the host
// reads it back with cudaMemcpyFromSymbol to say so: a lab's function only
// launches its work and returns, and on a GPU nothing of it has run when
// the function returns (the kit runs the work later, from a plan), so the
// copy to the host is refused there, and by the emulator alike.
#include "lab.h"

#include <stdio.h>

__device__ int saw_nan;

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        float v = in[(size_t)r * cols + c];
        if (v != v)
            saw_nan = 1;
        out[(size_t)c * rows + r] = v;
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
    int nan = 0;
    if (cudaMemcpyFromSymbol(&nan, saw_nan, sizeof nan) == cudaSuccess && nan)
        printf("transpose: the input holds a NaN\n");
}
