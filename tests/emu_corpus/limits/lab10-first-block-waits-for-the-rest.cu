// expect: pass
// emulator: fail the emulator's limit
// Each block stores its partial sum to a __device__ array and counts itself
// in with an atomic ticket; block 0 spins (volatile reads, __nanosleep)
// until every block has counted in, then adds the partials. The grid is one
// block an SM at most, so every block is resident at once on an H100, and
// the wait ends (not yet run on a GPU: session 16). The emulator runs block
// 0 to its end before block 1 starts, so block 0 waits forever and the
// suite's watch stops the call; it said "An endless loop?" alone, as if the
// student's loop were wrong, and now says the emulator's limit too.
#include "lab.h"

#define BLOCK 256
#define MAX_BLOCKS 132

__device__ float partials[MAX_BLOCKS];
__device__ unsigned int arrived;

__global__ void sum_wait_in_block0(float *out, const float *in, size_t n)
{
    __shared__ float s[BLOCK];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK)
        v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = BLOCK / 2; k > 0; k >>= 1) {
        if ((int)threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s[0];
        __threadfence();
        atomicAdd(&arrived, 1u);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        while (*(volatile unsigned int *)&arrived < gridDim.x)
            __nanosleep(100);
        __threadfence();
        float total = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++)
            total += ((volatile float *)partials)[b];
        *out = total;
        arrived = 0;
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    if (n == 0) {
        cudaMemset(d_out, 0, sizeof(float));
        return;
    }
    size_t blocks = (n + 8 * BLOCK - 1) / (8 * BLOCK);
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    sum_wait_in_block0<<<(unsigned)blocks, BLOCK>>>(d_out, d_in, n);
}
