// expect: fail __launch_bounds__
// __launch_bounds__(128) on the kernel, then a launch of 32 x 8 = 256
// threads: nvcc compiled it for at most 128 threads a block, so a GPU
// refuses the launch (cudaErrorInvalidValue), though 256 is far below
// 1024: what the kit says must name __launch_bounds__.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void __launch_bounds__(128) unrolled(float *out, const float *in, int rows, int cols)
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
