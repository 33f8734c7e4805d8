// expect: fail padded
// gpu-expect: pass
// Lab 4's tile handed in for lab 5: right, but not padded.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    unsigned c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < (unsigned)rows && c < (unsigned)cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE_DIM + threadIdx.x, r = blockIdx.x * TILE_DIM + threadIdx.y;
    if (r < (unsigned)cols && c < (unsigned)rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    bank_free<<<grid, dim3(TILE_DIM, TILE_DIM)>>>(out, in, rows, cols);
}
