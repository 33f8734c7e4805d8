/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: warm-up detected
 * (pygpubench#23): honest for its first calls, then it writes only the first
 * rows of out, trusting that nothing checks the timed calls' output.
 * control: naive-transpose.cu
 *
 * Every timed call's output is checked, on inputs of its own: not timed.
 */
#include "lab.h"

__device__ unsigned calls;

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols && (calls < 3 || c < 8))
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

__global__ void count(void) { calls++; }

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
    count<<<1, 1>>>();
}
