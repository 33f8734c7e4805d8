// expect: pass
// A __constant__ table and a __device__ variable, both initialised where
// they are declared: the kernel reads its block shape from constant memory
// and counts its blocks in a __device__ counter.
#include "lab.h"

__constant__ int block_shape[2] = {32, 8};
__device__ unsigned int blocks_run;

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * block_shape[0] + threadIdx.x;
    int r = blockIdx.y * block_shape[1] + threadIdx.y;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        atomicAdd(&blocks_run, 1u);
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
}
