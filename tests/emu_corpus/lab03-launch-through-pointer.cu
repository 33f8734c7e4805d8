// expect: pass
// The kernel is picked at run time and launched through a pointer to it:
// nvcc launches a pointer to a __global__ function as it launches the
// function (the emulator once failed to build it: 'kern' is not captured).
#include "lab.h"

__global__ void by_rows(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

__global__ void by_rows_ldg(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = __ldg(in + (size_t)r * cols + c);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    void (*kern)(float *, const float *, int, int) = rows > 64 ? by_rows_ldg : by_rows;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    kern<<<grid, block>>>(out, in, rows, cols);
}
