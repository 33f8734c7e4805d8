// expect: pass
// A warp's dot product and its largest term reduced together in one call:
// cg::reduce with an operation of the file's own, a __forceinline__
// function on a struct passed by name (as llm.c's online softmax reduces
// its running sum and maximum). nvcc takes __forceinline__ as a hint, so
// the function may be called through the reference cg::reduce is given.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "lab.h"

namespace cg = cooperative_groups;

#define TILE 16

struct sum_max {
    float sum, max;
};

__device__ __forceinline__ sum_max add_and_max(sum_max a, sum_max b)
{
    return {a.sum + b.sum, fmaxf(a.max, b.max)};
}

__global__ void warp_per_element(float *c, const float *a, const float *b, int m, int n, int k)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    long e = (long)blockIdx.x * (blockDim.x / 32) + warp.meta_group_rank();
    bool inside = e < (long)m * n;
    int row = inside ? (int)(e / n) : 0, col = inside ? (int)(e % n) : 0;
    sum_max part = {0.0f, -INFINITY};
    for (int p = warp.thread_rank(); inside && p < k; p += 32) {
        float term = a[(size_t)row * k + p] * b[(size_t)p * n + col];
        part = add_and_max(part, {term, term});
    }
    sum_max all = cg::reduce(warp, part, add_and_max);
    /* The maximum is looked at (a NaN would be carried) so that the reduction keeps both. */
    if (inside && warp.thread_rank() == 0)
        c[(size_t)row * n + col] = all.max <= INFINITY ? all.sum : NAN;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    long elements = (long)m * n;
    warp_per_element<<<(unsigned)((elements + 3) / 4), 128>>>(c, a, b, m, n, k);
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
