// expect: pass
// The pointers and the shape in one struct, a __grid_constant__ parameter
// (CUDA 11.7): the emulator once failed to build it ('__grid_constant__' does
// not name a type).
#include "lab.h"
struct Shape { const float *in; float *out; int rows, cols; };

__global__ void naive(const __grid_constant__ Shape s)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < s.rows && c < s.cols)
        s.out[(size_t)c * s.rows + r] = s.in[(size_t)r * s.cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    Shape s = {in, out, rows, cols};
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(s);
}
