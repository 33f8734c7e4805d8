// expect: pass
// The same, with while loops and an early return after the last barrier.
#include "lab.h"

#define TD 32
#define BR 4

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x;
    int y = blockIdx.y * TD + threadIdx.y;
    int j = 0;
    while (j < TD) {
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
        j += BR;
    }
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
    if (x >= rows)
        return;
    for (j = 0; j < TD && y + j < cols; j += BR)
        out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    unrolled<<<dim3((cols + TD - 1) / TD, (rows + TD - 1) / TD), dim3(TD, BR)>>>(out, in, rows, cols);
}
