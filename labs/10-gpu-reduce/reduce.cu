/*
 * Lab 10, an extension: a reduction at the speed of a read.
 *
 *   void reduce(float *d_out, const float *d_in, size_t n);
 *
 * d_in holds n floats on the GPU; store their sum in *d_out, one float on
 * the GPU. Nothing else may change: d_in is const, and d_out is one float,
 * not an array of partial sums.
 *
 * Steps 1-7 (README.md) climb NVIDIA's ladder, "Optimizing Parallel
 * Reduction in CUDA": a tree in shared memory (interleaved, then
 * sequential addressing), the first add during load, the last warp
 * unrolled, complete unrolling, several elements a thread. Each block
 * adds its sum to *d_out with one atomicAdd, after *d_out was set to 0.
 * Step 8 goes past the ladder: float4 loads, warp shuffles in place of
 * the tree, a grid that fits the GPU.
 *
 * Sizes: any n >= 0: n = 0 (the sum is 0, and a grid of 0 blocks is
 *        refused), n not a multiple of anything, and n past 2^31 on a
 *        large GPU: index with size_t.
 * Rules: launch on the default stream and return without synchronising;
 *        besides launches you may cudaMemset d_out and keep partial sums
 *        in a __device__ array of your own, but allocate nothing.
 *        BLOCK_SIZE may change (make lab10 bench BLOCK_SIZE=512).
 * Graded by: make lab10 test (correctness; several elements a thread,
 *        a warp-level last step, one atomic or partial a block) and
 *        make lab10 bench (GB/s read, against the reference, a read-only
 *        stream of the same bytes and CUB's DeviceReduce::Sum).
 * Read README.md in this folder first.
 */
#include "lab.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    /* TODO: each thread its element in a __shared__ slot (0.0f past n), a
     * tree over the slots with a barrier between rounds, and thread 0 adds
     * the block's sum: atomicAdd(out, ...) (step 1). */
    (void)out;
    (void)in;
    (void)n;
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    TODO("set *d_out to 0, then launch reduce_kernel over every element: one block of BLOCK_SIZE "
         "threads for each BLOCK_SIZE elements, rounded up (README.md, step 1)");
    (void)d_out;
    (void)d_in;
    (void)n;
}
