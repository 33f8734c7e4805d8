// expect: pass
// expect-not: did not clear the error
// Tries blocks of 32 x 64 threads and, when CUDA refuses them (2048
// threads, twice a block's limit), falls back to 32 x 8: a program that
// checks cudaGetLastError() after a launch sees the refusal at once, as
// CUDA promises, and its fallback runs. The kit records a GPU lab's
// launches in a process of their own (plan.h); the recording refuses
// what CUDA refuses, where the lab's code can see it.
#include "lab.h"

#include <stdio.h>

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static void launch(dim3 block, float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    naive<<<grid, block>>>(out, in, rows, cols);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    launch(dim3(32, 64), out, in, rows, cols);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        return;
    if (cudaPeekAtLastError() != cudaSuccess)
        printf("cudaGetLastError() did not clear the error\n");
    launch(dim3(32, 8), out, in, rows, cols);
}
