// expect: fail Lab 3 asks for a 2-D launch
// min of two size_t: CUDA has min(unsigned long, unsigned long). Right,
// but lab 3 asks for a 2-D launch that covers the matrix.
#include "lab.h"

__global__ void chunks(float *out, const float *in, size_t rows, size_t cols, size_t per_thread)
{
    size_t n = rows * cols;
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * per_thread;
    size_t last = min(first + per_thread, n);
    for (size_t i = first; i < last; i++)
        out[(i % cols) * rows + i / cols] = in[i];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)rows * cols, per = 4, threads = 128;
    size_t blocks = (n + per * threads - 1) / (per * threads);
    chunks<<<(unsigned)blocks, (unsigned)threads>>>(out, in, rows, cols, per);
}
