// expect: build-error
// A kernel that reuses threadIdx.x as its loop counter: the built-in
// variables are read-only (nvcc: "expression must be a modifiable lvalue"),
// and the emulator's, constant names as nvcc's are, refuse it too, with or
// without nvcc.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    for (threadIdx.x = 0; threadIdx.x < 32; threadIdx.x++) {
        int c = blockIdx.x * 32 + threadIdx.x;
        if (r < rows && c < cols)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(1, 8)>>>(out, in, rows, cols);
}
