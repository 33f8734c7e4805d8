// expect: pass
// Inside the bounds test, the lanes still active elect the lowest as their
// leader (__activemask, __ffs); it computes where the row starts and
// __shfl_sync hands that 64-bit offset to the others. The mask passed is the
// one each group of lanes read for itself, so lanes that took the branch
// apart still meet only their own group.
#include "lab.h"

__global__ void naive_leader(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        unsigned active = __activemask();
        int leader = __ffs(active) - 1;
        size_t row_start = 0;
        if ((int)(threadIdx.x % 32) == leader)
            row_start = (size_t)r * cols;
        row_start = __shfl_sync(active, row_start, leader);
        out[(size_t)c * rows + r] = in[row_start + c];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive_leader<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
