// expect: pass
// Tries blocks of 64 x 32 threads first; a GPU refuses 2048 threads a
// block, cudaGetLastError() reports it (and clears it), and the function
// falls back to 64 x 16. Only the second launch runs, and the error is
// gone by the time the function returns.
#include <cstdio>

#include "lab.h"

#define TILE 64

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
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    unrolled<<<grid, dim3(TILE, 32)>>>(out, in, rows, cols);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "64 x 32 refused (%s): falling back to 64 x 16\n", cudaGetErrorName(err));
        unrolled<<<grid, dim3(TILE, 16)>>>(out, in, rows, cols);
    }
}
