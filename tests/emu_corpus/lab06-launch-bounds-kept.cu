// expect: pass
// __launch_bounds__ that the launch keeps: declared for TILE x ROWS = 256
// threads a block, launched with exactly that.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void __launch_bounds__(TILE * ROWS) unrolled(float *out, const float *in, int rows, int cols)
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
    unrolled<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
