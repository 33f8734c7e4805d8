// expect: pass
// Indices built with the 24-bit multiply intrinsics, an old performance
// tip that still circulates: exact while both factors fit in 24 bits, as
// block and grid indices here do.
#include "lab.h"

__global__ void naive24(float *out, const float *in, int rows, int cols)
{
    int c = (int)(__umul24(blockIdx.x, blockDim.x) + threadIdx.x);
    int r = __mul24((int)blockIdx.y, (int)blockDim.y) + (int)threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive24<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
