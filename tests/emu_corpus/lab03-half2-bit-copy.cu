// expect: pass
// Half-precision types (cuda_fp16.h): each float's bits move as a __half2,
// so the copy is exact. A GPU runs it, and so does the emulator, which has
// its own cuda_fp16.h (the same with a CUDA toolkit installed as without).
#include <cuda_fp16.h>

#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        __half2 bits = *(const __half2 *)&in[(size_t)r * cols + c];
        *(__half2 *)&out[(size_t)c * rows + r] = bits;
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
