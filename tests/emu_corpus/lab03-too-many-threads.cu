// expect: fail a block holds at most 1024 threads
// expect-not: TILE_DIM / BLOCK_ROWS rows
// A 64 x 32 block: 2048 threads, twice what a block may have.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 63) / 64, (rows + 31) / 32), dim3(64, 32)>>>(out, in, rows, cols);
}
