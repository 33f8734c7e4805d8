// expect: pass
// An array of kernels, one launched by its index.
#include "lab.h"

__global__ void rows_first(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

__global__ void rows_first_sized(float *out, const float *in, int rows, int cols)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t r = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
    if (r < (size_t)rows && c < (size_t)cols)
        out[c * rows + r] = in[r * cols + c];
}

static void (*const variants[])(float *, const float *, int, int) = {rows_first, rows_first_sized};

void transpose(float *out, const float *in, int rows, int cols)
{
    int v = (size_t)rows * cols > (1u << 20);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    variants[v]<<<grid, block>>>(out, in, rows, cols);
}
