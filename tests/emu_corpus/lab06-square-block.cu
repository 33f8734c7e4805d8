// expect: fail several
// gpu-expect: pass
// A padded tile with one element per thread: right, but lab 6 asks each
// thread to move several.
#include "lab.h"

#define T 32

__global__ void one_each(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[T][T + 1];
    int c = blockIdx.x * T + threadIdx.x, r = blockIdx.y * T + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * T + threadIdx.x, r = blockIdx.x * T + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    one_each<<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, T)>>>(out, in, rows, cols);
}
