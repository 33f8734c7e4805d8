// expect: pass
// expect-not: so no GPU
// __launch_bounds__(1024, 2): two blocks of 1024 threads an SM, which an
// H100 (sm_90, 2048 threads an SM) holds and a Turing GPU (sm_75, 1024)
// does not. The emulator's nvcc check builds for the GPU the kit builds
// for, sm_90 unless CUDA_ARCH says otherwise, and lets it through.
#include "lab.h"

__global__ void __launch_bounds__(1024, 2) naive_32x32(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive_32x32<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(out, in, rows, cols);
}
