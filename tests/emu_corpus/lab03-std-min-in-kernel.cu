// expect: build-error from a __global__ function
// emulator-says: it compiled for sm_90
// std::min is a host function: nvcc refuses it in a kernel.
#include <algorithm>

#include "lab.h"

__global__ void chunks(float *out, const float *in, int rows, int cols)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int last = std::min(first + 4, rows * cols);
    for (int i = first; i < last; i++)
        out[(i % cols) * rows + i / cols] = in[i];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    int n = rows * cols;
    chunks<<<(n + 511) / 512, 128>>>(out, in, rows, cols);
}
