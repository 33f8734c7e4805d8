// expect: pass
// Correct and free of bank conflicts without padding: the column a thread
// uses in the tile is swizzled, tile[row][col ^ row]. On the store, a warp
// (fixed threadIdx.y) writes 32 distinct columns of one row; on the read,
// lane x reads row x at column y ^ x: bank (y ^ x), distinct for each lane.
// The technique check asks for no bank conflicts, which a swizzle gives as
// well as TILE_DIM + 1 does.
// expect-not: TILE_DIM + 1
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void swizzled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        int ty = threadIdx.y + j;
        if (x < cols && y + j < rows)
            tile[ty][threadIdx.x ^ ty] = in[(size_t)(y + j) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        int ty = threadIdx.y + j;
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][ty ^ threadIdx.x];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    swizzled<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
