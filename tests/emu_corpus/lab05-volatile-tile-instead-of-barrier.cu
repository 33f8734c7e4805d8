// expect: fail
// A race (an H200 fails it, 2026-11-28): on a GPU a 32 x 32 block's warps run apart, and a
// warp reads columns that the 31 other warps store, so some reads come
// before the store they need. volatile makes each access go to shared
// memory but orders nothing between warps: the student's belief is that
// volatile replaces __syncthreads(). Padded tile, one element a thread.
#include "lab.h"

#define TILE 32

__global__ void no_barrier(float *out, const float *in, int rows, int cols)
{
    volatile __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    no_barrier<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
