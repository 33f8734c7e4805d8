// expect: pass
// Cooperative groups for the block: its barrier is block.sync(), and the
// indices come from group_index() and thread_index(), the group's names for
// blockIdx and threadIdx.
#include <cooperative_groups.h>

#include "lab.h"

namespace cg = cooperative_groups;

#define TILE 32
#define ROWS 8

__global__ void coalesced_cg(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    cg::thread_block block = cg::this_thread_block();
    const dim3 b = block.group_index(), t = block.thread_index();
    int c = b.x * TILE + t.x, r = b.y * TILE + t.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[t.y + j][t.x] = in[(size_t)(r + j) * cols + c];
    block.sync();
    c = b.y * TILE + t.x, r = b.x * TILE + t.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[t.x][t.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced_cg<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
