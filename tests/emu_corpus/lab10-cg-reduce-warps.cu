// expect: pass
// Correct: a grid-stride loop of 8 elements a thread or more over a grid
// of ceil(n / (8 * BLOCK_SIZE)) blocks capped at what the GPU holds at
// once; cooperative groups' cg::reduce over each warp (tiled_partition<32>),
// the warps' sums in shared memory, the first warp's cg::reduce of those,
// one atomicAdd a block.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "lab.h"

namespace cg = cooperative_groups;

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void sum_cg(float *out, const float *in, size_t n)
{
    __shared__ float warp_sums[BLOCK_SIZE / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < BLOCK_SIZE / 32 ? warp_sums[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0)
            atomicAdd(out, v);
    }
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    static int most;
    if (!most) {
        int sms = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        most = (sms > 0 ? sms : 1) * (2048 / BLOCK_SIZE);
    }
    cudaMemset(d_out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + 8 * BLOCK_SIZE - 1) / (8 * BLOCK_SIZE);
    sum_cg<<<(unsigned)(blocks < (size_t)most ? blocks : (size_t)most), BLOCK_SIZE>>>(d_out, d_in, n);
}
