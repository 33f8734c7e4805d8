// expect: pass
// Correct: the naive transpose launched on cudaStreamPerThread, the
// per-thread default stream of CUDA's samples. It passes on a lent H200
// (student17, session 17).
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block, 0, cudaStreamPerThread>>>(d_out, d_in, rows, cols);
}
