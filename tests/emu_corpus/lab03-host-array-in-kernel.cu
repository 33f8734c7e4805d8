// expect: build-error host variable
// without-nvcc: builds
// A host array read inside the kernel: device code cannot see host variables.
#include "lab.h"

static int offsets[2] = {0, 0};

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x + offsets[0];
    int r = blockIdx.y * blockDim.y + threadIdx.y + offsets[1];
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
