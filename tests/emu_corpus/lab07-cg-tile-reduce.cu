// expect: pass
// Cooperative groups as llm.c and the CUDA samples write them: a warp's
// tile (tiled_partition<32>) reduces one element's products with
// cg::reduce; the tiled product syncs its block with
// this_thread_block().sync().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "lab.h"

namespace cg = cooperative_groups;

#define TW 16

__global__ void naive_by_tiles(float *c, const float *a, const float *b, int m, int n, int k)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    long element = (long)blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (element >= (long)m * n)
        return;
    int row = (int)(element / n), col = (int)(element % n);
    float part = 0.0f;
    for (int p = (int)warp.thread_rank(); p < k; p += (int)warp.size())
        part += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    float sum = cg::reduce(warp, part, cg::plus<float>());
    if (warp.thread_rank() == 0)
        c[(size_t)row * n + col] = sum;
}

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float ta[TW][TW], tb[TW][TW];
    cg::thread_block block = cg::this_thread_block();
    int ty = block.thread_index().y, tx = block.thread_index().x;
    int row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TW) {
        ta[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tb[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        block.sync();
        for (int q = 0; q < TW; q++)
            acc += ta[ty][q] * tb[q][tx];
        block.sync();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive_by_tiles<<<(unsigned)(((long)m * n + 3) / 4), 128>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}
