// expect: pass
// Cache-hinted loads and stores (the Programming Guide's __ldcs, __stcs,
// __ldcg, __stwt): a transpose streams through its data once, so it asks
// for evict-first; a single row goes through L2 only.
#include "lab.h"

__global__ void naive_hinted(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    if (rows == 1)
        __stwt(&out[c], __ldcg(&in[c]));
    else
        __stcs(&out[(size_t)c * rows + r], __ldcs(&in[(size_t)r * cols + c]));
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive_hinted<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
