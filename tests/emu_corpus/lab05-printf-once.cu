// expect: pass
// A debugging printf left in the kernel, printed by one thread of one
// block: what it prints goes to the output and changes no result.
#include <cstdio>

#include "lab.h"

#define TILE 32

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)
        printf("bank_free: %d x %d, grid %u x %u\n", rows, cols, gridDim.x, gridDim.y);
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    bank_free<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
