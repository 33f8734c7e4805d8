/* Honest control (tests/hostile_test.sh): a correct transpose by a 1-D
 * grid-stride loop, a fixed grid of 64 blocks of 256 threads, each thread
 * several elements: lab 6's idea handed in for lab 3, whose technique check
 * asks for a 2-D launch, one thread an element. */
#include "lab.h"

__global__ void strided(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        size_t r = i / cols, c = i % cols;
        out[c * rows + r] = in[i];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    strided<<<64, 256>>>(out, in, rows, cols);
}
