// expect: pass
// Cooperative groups of CUDA 12 and later: each warp's sum is added by the
// one thread cg::invoke_one picks (the emulator once had no invoke_one, and
// failed to build what nvcc builds).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "lab.h"
namespace cg = cooperative_groups;

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    float v = 0.0f;
    for (size_t i = cg::this_grid().thread_rank(); i < n; i += cg::this_grid().num_threads())
        v += in[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    cg::invoke_one(warp, [&] { warp_sums[warp.meta_group_rank()] = v; });
    block.sync();
    if (warp.meta_group_rank() == 0) {
        float s = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        s = cg::reduce(warp, s, cg::plus<float>());
        cg::invoke_one(warp, [](float *o, float x) { atomicAdd(o, x); }, out, s);
    }
}

void reduce(float *out, const float *in, size_t n)
{
    cudaMemsetAsync(out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8);
    reduce_kernel<<<(unsigned)(blocks < 1056 ? blocks : 1056), BLOCK_SIZE>>>(out, in, n);
}
