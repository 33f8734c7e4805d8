// expect: pass
// Each warp, a cg::tiled_partition<32>, walks rows of a padded tile, the
// tile's origin broadcast from lane 0 by a shuffle: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    // lane 0 computes the tile origin, the warp shares it
    int base[2] = {0, 0};
    if (warp.thread_rank() == 0) {
        base[0] = blockIdx.y * TILE_DIM;
        base[1] = blockIdx.x * TILE_DIM;
    }
    const int r0 = warp.shfl(base[0], 0);
    const int c0 = warp.shfl(base[1], 0);

    const int lane = warp.thread_rank();
    const int nwarps = block.size() / 32;
    const int wid = block.thread_rank() / 32;

    for (int i = wid; i < TILE_DIM; i += nwarps) {
        for (int j = lane; j < TILE_DIM; j += 32) {
            int r = r0 + i, c = c0 + j;
            if (r < rows && c < cols)
                tile[i][j] = in[(size_t)r * cols + c];
        }
    }
    block.sync();
    for (int i = wid; i < TILE_DIM; i += nwarps) {
        for (int j = lane; j < TILE_DIM; j += 32) {
            int orow = c0 + i, ocol = r0 + j;   // out is cols x rows
            if (orow < cols && ocol < rows)
                out[(size_t)orow * rows + ocol] = tile[j][i];
        }
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
