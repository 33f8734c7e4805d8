// expect: pass
// A warp splits into the lanes that hold a negative partial sum and those
// that do not (cg::binary_partition), each part adds its own, and one lane of
// each part adds it to the block's slot with a shared atomic
// (cg::invoke_one_broadcast tells the part its total; the emulator once had
// neither).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "lab.h"
namespace cg = cooperative_groups;

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void reduce_kernel(float *out, const float *in, size_t n)
{
    __shared__ float block_sum;
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    if (block.thread_rank() == 0)
        block_sum = 0.0f;
    block.sync();
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * BLOCK_SIZE + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK_SIZE)
        v += in[i];
    cg::coalesced_group part = cg::binary_partition(warp, v < 0.0f);
    float part_sum = cg::reduce(part, v, cg::plus<float>());
    float added = cg::invoke_one_broadcast(part, [&] { atomicAdd(&block_sum, part_sum); return part_sum; });
    if (added != part_sum)
        block_sum = 0.0f / 0.0f;
    block.sync();
    if (block.thread_rank() == 0)
        atomicAdd(out, block_sum);
}

void reduce(float *out, const float *in, size_t n)
{
    cudaMemsetAsync(out, 0, sizeof(float));
    if (n == 0)
        return;
    size_t blocks = (n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8);
    reduce_kernel<<<(unsigned)(blocks < 1056 ? blocks : 1056), BLOCK_SIZE>>>(out, in, n);
}
