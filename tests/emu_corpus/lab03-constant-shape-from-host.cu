// expect: pass
// The matrix's shape copied from the host into __constant__ memory with
// cudaMemcpyToSymbol before the launch, as a textbook puts a filter's
// weights there: every thread reads it (a broadcast from the constant
// cache). On a GPU the kit runs the lab's launches from a plan in a process
// of its own (plan.h), which keeps the copy, by the variable's name.
#include "lab.h"

__constant__ int shape[2]; /* rows, cols */

__global__ void naive(float *out, const float *in)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < shape[0] && c < shape[1])
        out[(size_t)c * shape[0] + r] = in[(size_t)r * shape[1] + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    const int host[2] = {rows, cols};
    cudaMemcpyToSymbol(shape, host, sizeof host);
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in);
}
