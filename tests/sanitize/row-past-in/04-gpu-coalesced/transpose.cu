/*
 * Planted mistake for `make lab4 sanitize`: the load's bounds test says
 * y <= rows, so the last row of threads reads one row past the end of in
 * (and writes past out). memcheck must report the read.
 */
#include "lab.h"

#include <stddef.h>

#define T 32

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[T][T];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    if (x < cols && y <= rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    int ox = blockIdx.y * T + threadIdx.x, oy = blockIdx.x * T + threadIdx.y;
    if (ox <= rows && oy < cols)
        out[(size_t)oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    coalesced<<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, T)>>>(d_out, d_in, rows, cols);
}
