// expect: pass
// Cooperative groups throughout: matmul_naive splits each block of 256
// threads into warps with tiled_partition<32>, one element of C a warp,
// folded with the tile's shfl_down; matmul_tiled waits with block.sync().
#include <cooperative_groups.h>

#include "lab.h"

namespace cg = cooperative_groups;

#define TILE 16

__global__ void warp_per_element(float *c, const float *a, const float *b, int m, int n, int k)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    long e = (long)blockIdx.x * (block.size() / warp.size()) + warp.meta_group_rank();
    bool inside = e < (long)m * n;
    int row = inside ? (int)(e / n) : 0, col = inside ? (int)(e % n) : 0;
    float sum = 0.0f;
    for (int p = warp.thread_rank(); inside && p < k; p += warp.size())
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    for (int offset = warp.size() / 2; offset > 0; offset /= 2)
        sum += warp.shfl_down(sum, offset);
    if (inside && warp.thread_rank() == 0)
        c[(size_t)row * n + col] = sum;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    long elements = (long)m * n;
    warp_per_element<<<(unsigned)((elements + 7) / 8), 256>>>(c, a, b, m, n, k);
}

/* matmul_tiled: two shared tiles, the block's barrier block.sync(). */
__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    cg::thread_block block = cg::this_thread_block();
    int tx = block.thread_index().x, ty = block.thread_index().y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        block.sync();
        for (int q = 0; q < TILE; q++)
            sum += as[ty][q] * bs[q][tx];
        block.sync();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
