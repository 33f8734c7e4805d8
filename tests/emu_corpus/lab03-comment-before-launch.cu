// expect: fail
// emulator-says: lab03-comment-before-launch.cu:31
// A comment between a kernel's name and its <<<, over lines of its own:
// nvcc builds it (the emulator once said 'a <<< that the emulator cannot
// read'), and the kernel, defined below the launch, is named by its own
// lines: its bound lets a row past the matrix through (r <= rows).
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols);

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 8) / 8);
    naive /* the first version:
             one thread an element */
        <<<grid, block>>>(out, in, rows, cols);
}

/*
 *
 *
 *
 */
__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r <= rows && c < cols) {
        float v = in[(size_t)r * cols + c];

        out[(size_t)c * rows + r] = v;
    }
}
