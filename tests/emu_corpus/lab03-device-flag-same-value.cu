// expect: pass
// Every block writes the same value to one __device__ flag, without an
// atomic: a race in CUDA's words, but whichever block writes last, the flag
// holds 1, so a GPU gives one answer and the emulator must not fail it.
// Its twin, lab05-device-scratch-tile, writes values that differ.
#include "lab.h"

__device__ int ran;

__global__ void copy_transposed(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    ran = 1;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8);
    copy_transposed<<<dim3((cols + 31) / 32, (rows + 7) / 8), block>>>(out, in, rows, cols);
}
