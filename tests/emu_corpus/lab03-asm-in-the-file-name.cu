// expect: pass
// A naive transpose, right, whose file name holds the word asm. The
// emulator's check for inline assembly read the file's preprocessed lines
// with their string literals, and a launch's and a barrier's __FILE__ name
// the file (and its folders: a kit unpacked under ~/asm/ had the same): it
// refused the file, naming the launch's line as inline assembly. A GPU
// builds and runs it (2026-11-28).
#include "lab.h"

__global__ void transpose_kernel(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    transpose_kernel<<<grid, block>>>(d_out, d_in, rows, cols);
}
