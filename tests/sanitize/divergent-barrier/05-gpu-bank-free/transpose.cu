/*
 * Planted mistake for `make lab5 sanitize`: __syncthreads() inside the
 * bounds test, so in a tile that hangs over the edge some threads of the
 * block never reach the barrier the others wait at. synccheck must report it.
 */
#include "lab.h"

#include <stddef.h>

#define T 32

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    if (x < cols && y < rows) {
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
        __syncthreads();
    }
    int ox = blockIdx.y * T + threadIdx.x, oy = blockIdx.x * T + threadIdx.y;
    if (ox < rows && oy < cols)
        out[(size_t)oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    bank_free<<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, T)>>>(d_out, d_in, rows, cols);
}
