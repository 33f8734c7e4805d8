// expect: fail unspecified launch failure
// emulator-says: a grid-wide barrier is valid only in a cooperative launch
// expect-not: run this on a GPU
// expect-not: return before the launch
// One kernel, two phases: each block stores its sum in a __device__ array,
// cg::this_grid().sync(), then block 0 adds the partials. A grid's sync is
// valid only in a cooperative launch, which a lab may not make; launched
// with <<< >>>, the H200 fails the kernel there, "unspecified launch
// failure", at every n (run on a lent H200, session 17). The emulator
// refused to build it, "not supported by the tilelab CPU emulator: run this
// on a GPU", sending the student to a GPU that fails it too.
#include <cooperative_groups.h>
#include "lab.h"

namespace cg = cooperative_groups;

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__device__ float partials[256];

__global__ void sum_grid(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    cg::grid_group grid = cg::this_grid();
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < BLOCK_SIZE / 32; ++w) s += warp_sums[w];
        partials[blockIdx.x] = s;
    }
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float s = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) s += partials[b];
        *out = s;
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    size_t want = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    unsigned blocks = want > 132 ? 132 : want == 0 ? 1 : (unsigned)want;
    sum_grid<<<blocks, BLOCK_SIZE>>>(d_out, d_in, n);
}
