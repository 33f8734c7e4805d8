// expect: pass
// Everything inside one extern "C" block, kernel and helper included.
#include "lab.h"

extern "C" {
static __device__ __forceinline__ size_t at(int r, int c, int width)
{
    return (size_t)r * width + c;
}

static __global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[at(c, r, rows)] = in[at(r, c, cols)];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
}
