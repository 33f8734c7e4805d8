// expect: pass
// emulator: build-error The tilelab CPU emulator runs no inline PTX but an asm statement that only moves one special register
// Inline PTX beyond reading a special register: valid on a GPU, which runs
// it; the emulator, which runs C++ and checks its every access, refuses it
// saying so (harness/emu/README.md, known limits).
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    unsigned int c;
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(c) : "r"(blockIdx.x), "r"(blockDim.x), "r"(threadIdx.x));
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && (int)c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
