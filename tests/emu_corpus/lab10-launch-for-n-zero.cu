// expect: fail return before the launch
// expect-not: TILE_DIM
// n = 0 launches (0 + 255) / 256 = 0 blocks, which CUDA refuses.
#include "lab.h"

__global__ void sum_all(float *out, const float *in, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    sum_all<<<(unsigned)((n + 255) / 256), 256>>>(d_out, d_in, n);
}
