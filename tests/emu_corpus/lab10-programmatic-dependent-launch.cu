// expect: pass
// Two kernels, the second launched with programmatic stream serialization
// (sm_90): it waits in cudaGridDependencySynchronize() for the first's
// partial sums, which trigger it early. The emulator once failed to build it
// ('cudaGridDependencySynchronize' was not declared in this scope).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#define MAX_BLOCKS 1024

__device__ float g_partials[MAX_BLOCKS];

__global__ void partial_sums(const float *in, size_t n)
{
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK_SIZE / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0)
            g_partials[blockIdx.x] = v;
    }
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void final_sum(float *out, unsigned blocks)
{
    cudaGridDependencySynchronize();
    float v = 0.0f;
    for (unsigned b = threadIdx.x; b < blocks; b += 32)
        v += g_partials[b];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0)
        *out = v;
}

void reduce(float *out, const float *in, size_t n)
{
    if (n == 0) {
        cudaMemsetAsync(out, 0, sizeof(float));
        return;
    }
    size_t want = (n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8);
    unsigned blocks = (unsigned)(want < MAX_BLOCKS ? want : MAX_BLOCKS);
    partial_sums<<<blocks, BLOCK_SIZE>>>(in, n);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(1);
    config.blockDim = dim3(32);
    config.attrs = attr;
    config.numAttrs = 1;
    cudaLaunchKernelEx(&config, final_sum, out, blocks);
}
