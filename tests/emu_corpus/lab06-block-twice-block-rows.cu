// expect: pass
// expect-not: a race on shared memory
// The kernel steps by BLOCK_ROWS = 8, but the launch gives 32 x 16
// threads: threads with threadIdx.y >= 8 repeat the rows of those 8 above
// them, storing the same value into the same shared slot and the same
// element of out, with no barrier between. Wasted work, same result: an
// H200 passes it (2026-11-28), and two stores of the same bytes are no
// race on the emulator either. Each thread still moves 4 elements of a
// tile of 32 x 32 over 512 threads: 2 elements a tile's thread.
#include "lab.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + (threadIdx.y % BLOCK_ROWS);
    int ty = threadIdx.y % BLOCK_ROWS;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows)
            tile[ty + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + ty;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][ty + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    unrolled<<<dim3((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM), dim3(TILE_DIM, 16)>>>(out, in, rows, cols);
}
