// expect: fail did not return
// A grid-stride loop whose step is taken only inside the bounds test: a
// thread past the last column never moves on, and its loop never ends. The
// suite names the call and the shape that hung, within seconds, and skips
// the tests after it, which would wait as long.
#include "lab.h"

__global__ void strided(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    while (r < rows) {
        if (c < cols) {
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
            r += gridDim.y * blockDim.y;
        }
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, 16);
    strided<<<grid, block>>>(out, in, rows, cols);
}
