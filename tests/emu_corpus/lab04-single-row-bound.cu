// expect: fail This matrix has a single row
// expect-not: Is transpose implemented
// Both bounds tests stop one row of in short (rows - 1): a matrix of one
// row comes out empty. The kernel is there and ran; the single_row test
// must say why nothing was written, not ask whether transpose is written.
#include "lab.h"

#define TILE 32

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows - 1 && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows - 1)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
