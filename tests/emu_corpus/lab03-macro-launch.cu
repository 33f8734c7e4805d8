// expect: pass
// The launch written inside a macro.
#include "lab.h"

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define LAUNCH(kernel, ...) kernel<<<dim3(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8)), dim3(32, 8)>>>(__VA_ARGS__)

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    LAUNCH(naive, out, in, rows, cols);
}
