// expect: pass
// The tile's rows copied into shared memory with cooperative groups'
// memcpy_async, the whole block taking part in each copy, and cg::wait
// before any thread reads the tile. A tile on the right edge copies only
// the columns the matrix has.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include "lab.h"

namespace cg = cooperative_groups;

#define TILE 32
#define ROWS 8

__global__ void coalesced_async(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    cg::thread_block block = cg::this_thread_block();
    int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;
    int width = min(TILE, cols - c0), height = min(TILE, rows - r0);
    for (int i = 0; i < height; i++)
        cg::memcpy_async(block, &tile[i][0], &in[(size_t)(r0 + i) * cols + c0], sizeof(float) * width);
    cg::wait(block);
    for (int j = threadIdx.y; j < width; j += ROWS)
        if ((int)threadIdx.x < height)
            out[(size_t)(c0 + j) * rows + r0 + threadIdx.x] = tile[threadIdx.x][j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced_async<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
