// expect: fail partial sums of blocks 0 to 255
// Step 7's grid of one wave (README.md: the SM count times 2048 / BLOCK_SIZE
// blocks at most), each block's sum into a __device__ array, then a second
// pass of one block of BLOCK_SIZE threads, one partial a thread. Right while
// the grid has at most 256 blocks: on an H100's 132 SMs, 1056 at n = 1000003.
// The emulator once had one SM, a grid of 8 blocks, and passed it.
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__device__ float partials[65536];

__device__ float block_tree(float v)
{
    __shared__ float s[BLOCK_SIZE];
    s[threadIdx.x] = v;
    __syncthreads();
    for (unsigned k = BLOCK_SIZE / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    return s[0];
}

__global__ void first_pass(const float *in, size_t n)
{
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    v = block_tree(v);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = v;
}

__global__ void second_pass(float *out, unsigned blocks)
{
    float v = threadIdx.x < blocks ? partials[threadIdx.x] : 0.0f;
    v = block_tree(v);
    if (threadIdx.x == 0)
        *out = v;
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    if (n == 0) {
        cudaMemset(d_out, 0, sizeof(float));
        return;
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    size_t blocks = (n + 4 * BLOCK_SIZE - 1) / (4 * BLOCK_SIZE);
    size_t wave = (size_t)sms * (2048 / BLOCK_SIZE);
    if (blocks > wave)
        blocks = wave;
    first_pass<<<(unsigned)blocks, BLOCK_SIZE>>>(d_in, n);
    second_pass<<<1, BLOCK_SIZE>>>(d_out, (unsigned)blocks);
}
