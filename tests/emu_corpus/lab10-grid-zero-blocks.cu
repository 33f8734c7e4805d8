// expect: fail to 0 when n is smaller than a block
// expect-not: the matrix
// The grid rounded down, n / 256 blocks (a new student's first try): for
// n < 256 a grid of 0 blocks, which the launch refuses. The message speaks
// of n, the reduction's size; it said "when the matrix is smaller than a
// block", lab 3's words.
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float s[BLOCK_SIZE];
    size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    reduce_kernel<<<n / BLOCK_SIZE, BLOCK_SIZE>>>(d_out, d_in, n);
}
