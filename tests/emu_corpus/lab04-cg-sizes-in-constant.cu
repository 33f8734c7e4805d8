// expect: pass
// Cooperative groups (this_thread_block, sync, thread_index) with the
// matrix's sizes in __constant__ memory: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__constant__ int c_shape[2];   // rows, cols

__global__ void transpose_coalesced(float *out, const float *in)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    cg::thread_block block = cg::this_thread_block();
    const dim3 t = block.thread_index();
    const dim3 b = block.group_index();
    const int rows = c_shape[0], cols = c_shape[1];

    unsigned x = b.x * TILE_DIM + t.x;
    unsigned y = b.y * TILE_DIM + t.y;
    if (x < (unsigned)cols && y < (unsigned)rows)
        tile[t.y][t.x] = in[(size_t)y * cols + x];

    block.sync();

    x = b.y * TILE_DIM + t.x;
    y = b.x * TILE_DIM + t.y;
    if (x < (unsigned)rows && y < (unsigned)cols)
        out[(size_t)y * rows + x] = tile[t.x][t.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    const int shape[2] = {rows, cols};
    cudaMemcpyToSymbol(c_shape, shape, sizeof shape);
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in);
}
