// expect: fail second launch has 256 threads
// Two passes through a __device__ array of partials; the second pass is one
// block of 256 threads, one partial each, and there are more partials.
#include "lab.h"

__device__ float partials[1 << 16];

__global__ void sum_blocks(float *part, const float *in, size_t n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        part[blockIdx.x] = s[0];
}

__global__ void sum_partials(float *out, unsigned blocks)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = t < blocks ? partials[t] : 0.0f;
    __syncthreads();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        *out = s[0];
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    unsigned blocks = (unsigned)((n + 255) / 256);
    float *part;
    cudaGetSymbolAddress((void **)&part, partials);
    if (n)
        sum_blocks<<<blocks, 256>>>(part, d_in, n);
    sum_partials<<<1, 256>>>(d_out, blocks);
}
