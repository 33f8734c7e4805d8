// expect: pass
// Tiles of 16 threads (cg::tiled_partition<16>), one element of C each: a
// tile wholly past the end of C leaves at once (tile.any), the others sum
// their terms with the tile's shfl_xor, which never crosses into the other
// half of the warp.
#include <cooperative_groups.h>

#include "lab.h"

namespace cg = cooperative_groups;

#define TILE 16

__global__ void tile16_per_element(float *c, const float *a, const float *b, int m, int n, int k)
{
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
    long e = (long)blockIdx.x * (blockDim.x / 16) + t16.meta_group_rank();
    bool inside = e < (long)m * n;
    if (!t16.any(inside))
        return;
    int row = (int)(e / n), col = (int)(e % n);
    float sum = 0.0f;
    for (int p = t16.thread_rank(); p < k; p += t16.size())
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    for (int mask = 8; mask > 0; mask >>= 1)
        sum += t16.shfl_xor(sum, mask);
    if (t16.thread_rank() == 0)
        c[(size_t)row * n + col] = sum;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    long elements = (long)m * n;
    tile16_per_element<<<(unsigned)((elements + 7) / 8), 128>>>(c, a, b, m, n, k);
}

/* matmul_tiled: the usual pair of TILE x TILE shared tiles. */
__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TILE; q++)
            sum += as[ty][q] * bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
