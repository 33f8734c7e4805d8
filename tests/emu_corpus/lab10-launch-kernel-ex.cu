// expect: pass
// The launch written with cudaLaunchKernelEx (CUDA 11.8 and later) and a
// launch attribute that changes only when the kernel may start
// (programmatic stream serialization). The emulator once failed to build
// it: 'cudaLaunchConfig_t' was not declared in this scope.
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void block_sums(float *out, const float *in, size_t n)
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
            atomicAdd(out, v);
    }
}

void reduce(float *out, const float *in, size_t n)
{
    cudaMemsetAsync(out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 0;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)(blocks < 1056 ? blocks : 1056));
    config.blockDim = dim3(BLOCK_SIZE);
    config.dynamicSmemBytes = 0;
    config.stream = 0;
    config.attrs = attr;
    config.numAttrs = 1;
    cudaLaunchKernelEx(&config, block_sums, out, in, n);
}
