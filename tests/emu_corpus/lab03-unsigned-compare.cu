// expect: pass
// unsigned indices compared with int sizes, and a parameter the kernel
// never reads: nvcc's device compiler warns about neither, so the GPU
// build (warnings as errors) accepts them.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols, int pitch_unused)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols, cols);
}
