// expect: pass
// Correct: the CUDA samples' reduction idiom: dynamic shared memory reached
// through a SharedMemory<T> struct whose conversion operator declares the
// extern __shared__ array, a kernel templated on the block size, the first
// add during the load with a grid stride, a tree down to 64 and the last
// warp by __shfl_down_sync, one atomicAdd a block (student17, session 17:
// not yet run on a GPU).
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int smem_raw[];
        return (T *)smem_raw;
    }
    __device__ inline operator const T *() const
    {
        extern __shared__ int smem_raw[];
        return (T *)smem_raw;
    }
};

template <unsigned int blockSize>
__global__ void reduce_samples(float *out, const float *in, size_t n)
{
    float *sdata = SharedMemory<float>();
    unsigned int tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockSize * 2 + threadIdx.x;
    size_t gridSize = (size_t)blockSize * 2 * gridDim.x;
    float sum = 0.0f;
    while (i < n) {
        sum += in[i];
        if (i + blockSize < n)
            sum += in[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();
#pragma unroll
    for (unsigned int s = blockSize / 2; s >= 64; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum = sum + sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        if (blockSize >= 64)
            sum += sdata[tid + 32];
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (tid == 0)
            atomicAdd(out, sum);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t want = (n + 16 * BLOCK_SIZE - 1) / (16 * BLOCK_SIZE);
    unsigned int blocks = want > 1024 ? 1024 : (unsigned int)want;
    reduce_samples<BLOCK_SIZE><<<blocks, BLOCK_SIZE, BLOCK_SIZE * sizeof(float)>>>(d_out, d_in, n);
}
