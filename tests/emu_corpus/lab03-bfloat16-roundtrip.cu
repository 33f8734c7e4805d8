// expect: fail first mismatch
// Each element passes through __nv_bfloat16 (8 bits of mantissa) on its way:
// most floats come back rounded, so out is not in's transpose bit for bit.
// Its verdict on a lent H200, as above (student17, session 17).
#include <cuda_bf16.h>
#include "lab.h"

__global__ void naive_bf16(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        __nv_bfloat16 h = __float2bfloat16(in[(size_t)r * cols + c]);
        out[(size_t)c * rows + r] = __bfloat162float(h);
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    naive_bf16<<<grid, block>>>(d_out, d_in, rows, cols);
}
