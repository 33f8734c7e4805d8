// expect: fail no block transposed the tiles on the diagonal
// expect-not: Every pair (r, c), (c, r) was swapped twice, once by
// Blocks leave when R >= C instead of R > C: the tiles on the diagonal are
// never transposed, the others are swapped right.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_tile_pairs(float *mat, int n)
{
    const int R = blockIdx.y, C = blockIdx.x;
    if (R >= C) return;   // only the pairs above the diagonal

    __shared__ float upper[TILE_DIM][TILE_DIM + 1];
    __shared__ float lower[TILE_DIM][TILE_DIM + 1];
    cg::thread_block cta = cg::this_thread_block();
    const int tx = threadIdx.x, ty = threadIdx.y;
    const bool diag = (R == C);

#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        const int y = R * TILE_DIM + ty + j, x = C * TILE_DIM + tx;
        if (y < n && x < n) upper[ty + j][tx] = mat[(size_t)y * n + x];
        const int y2 = C * TILE_DIM + ty + j, x2 = R * TILE_DIM + tx;
        if (!diag && y2 < n && x2 < n) lower[ty + j][tx] = mat[(size_t)y2 * n + x2];
    }
    cta.sync();
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        const int y = C * TILE_DIM + ty + j, x = R * TILE_DIM + tx;
        if (y < n && x < n) mat[(size_t)y * n + x] = upper[tx][ty + j];
        const int y2 = R * TILE_DIM + ty + j, x2 = C * TILE_DIM + tx;
        if (!diag && y2 < n && x2 < n) mat[(size_t)y2 * n + x2] = lower[tx][ty + j];
    }
}

void transpose_inplace(float *d_mat, int n)
{
    const int T = (n + TILE_DIM - 1) / TILE_DIM;
    transpose_tile_pairs<<<dim3(T, T), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
