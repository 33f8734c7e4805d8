/*
 * Lab 10, step 7 alone (README.md): NVIDIA's seventh kernel, several
 * elements a thread. Kept to measure the ladder; the reference
 * (../reduce.cu) goes on from here.
 *
 * Step 6's block, launched as a grid of only as many blocks as the GPU
 * holds at once: each thread walks the array grid-stride, two elements a
 * block apart a round, adding into a register, and the block's tree runs
 * once at the end. The tree's cost, and the launch of a block, are now
 * spread over many elements.
 */
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256 /* threads a block: a power of two, 64 to 1024 */
#endif

__global__ __launch_bounds__(BLOCK_SIZE) void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float sdata[BLOCK_SIZE];
    unsigned tid = threadIdx.x;
    size_t grid_size = (size_t)BLOCK_SIZE * 2 * gridDim.x;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * (BLOCK_SIZE * 2) + tid; i < n; i += grid_size) {
        v += in[i];
        if (i + BLOCK_SIZE < n)
            v += in[i + BLOCK_SIZE];
    }
    sdata[tid] = v;
    __syncthreads();
#pragma unroll
    for (unsigned s = BLOCK_SIZE / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        v = sdata[tid];
#pragma unroll
        for (unsigned s = 32; s > 0; s >>= 1) {
            v += sdata[tid + s];
            __syncwarp();
            sdata[tid] = v;
            __syncwarp();
        }
        if (tid == 0)
            atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    /* The blocks that fit on the GPU at once: more only wait for a free SM. */
    static int sms;
    if (!sms) {
        int device = 0;
        cudaGetDevice(&device);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1)
            sms = 1;
    }
    size_t blocks = (n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE), most = (size_t)sms * (2048 / BLOCK_SIZE);
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    reduce_kernel<<<(unsigned)(blocks < most ? blocks : most), BLOCK_SIZE>>>(d_out, d_in, n);
}
