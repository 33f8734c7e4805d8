// expect: pass
// A kernel in a namespace, launched by its qualified name.
#include "lab.h"

namespace kernels {
__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
} // namespace kernels

void transpose(float *out, const float *in, int rows, int cols)
{
    kernels::naive<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(out, in, rows, cols);
}
