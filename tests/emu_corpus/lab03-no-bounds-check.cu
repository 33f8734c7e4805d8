// expect: fail
// emulator-says: where in has
// expect-not: belongs in __shared__ memory
// expect-not: before any kernel of it ran
// expect-not: copying the matrices to the GPU
// No bounds test: the threads past the matrix's edge write past the end of out, and those
// past its last row write over other threads' elements of out, which the emulator told as
// blocks sharing a scratch array (a __shared__ one and atomics its fixes), and the technique
// check, whose later calls found the context lost, as a call that failed before any kernel
// ran, copying the matrices (an instructor's trial, 2026-11-28).
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
