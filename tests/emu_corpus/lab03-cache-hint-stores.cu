// expect: pass
// Correct: the naive transpose with every cache hint of CUDA's: loads by
// __ldlu (last use) on even rows and __ldca on odd ones, stores by __stwt
// (write through) on even columns and __stcg on odd ones.
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

__global__ void naive_hints(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const float *src = in + (size_t)r * cols + c;
    float v = (r & 1) ? __ldca(src) : __ldlu(src);
    float *dst = out + (size_t)c * rows + r;
    if (c & 1)
        __stcg(dst, v);
    else
        __stwt(dst, v);
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    naive_hints<<<grid, block>>>(d_out, d_in, rows, cols);
}
