/*
 * Hostile hand-in (tests/hostile_test.sh), lab 4: inputs zeroed so that a
 * reference run after it agrees (KernelBench#82).
 * control: naive-transpose.cu
 *
 * It writes zeros into out and into its input: an evaluator that computes
 * the expected output from the input after the call would find zeros for
 * zeros. The kit computes it from its own copy, made before, and checks
 * that the input comes back unchanged: wrong.
 */
#include "lab.h"

__global__ void zero(float *out, float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        in[(size_t)r * cols + c] = out[(size_t)c * rows + r] = 0.0f;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    zero<<<grid, block>>>(out, (float *)in, rows, cols);
}
