// expect: build-error A library's algorithms are not a lab's answer
// cub::BlockReduce over a grid-stride loop's sums, one atomicAdd a block
// (student16, session 16: a sum as CUB's examples write it). The kit's GPU
// build refuses it (CUB's own symbols in the lab's object, H200); the
// emulator has no CUB and said only that, adding "A GPU runs it", which the
// kit's GPU build does not: it now says what a GPU grading says.
#include <cub/block/block_reduce.cuh>
#include "lab.h"

#define BLOCK 256

__global__ void sum_cub(float *out, const float *in, size_t n)
{
    typedef cub::BlockReduce<float, BLOCK> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK)
        v += in[i];
    float total = BlockReduce(temp).Sum(v);
    if (threadIdx.x == 0)
        atomicAdd(out, total);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 8 * BLOCK - 1) / (8 * BLOCK);
    sum_cub<<<(unsigned)(blocks > 528 ? 528 : blocks), BLOCK>>>(d_out, d_in, n);
}
