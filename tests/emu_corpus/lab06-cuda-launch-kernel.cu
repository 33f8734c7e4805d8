// expect: pass
// The launch through the runtime's C function, cudaLaunchKernel, with the
// kernel's arguments as an array of pointers, as code that wraps launches
// (or that was ported from the driver API) writes it.
#include <cstdio>

#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), block(TILE, ROWS);
    void *args[] = {&out, &in, &rows, &cols};
    cudaError_t err = cudaLaunchKernel((const void *)unrolled, grid, block, args, 0, 0);
    if (err != cudaSuccess)
        fprintf(stderr, "cudaLaunchKernel: %s\n", cudaGetErrorString(err));
}
