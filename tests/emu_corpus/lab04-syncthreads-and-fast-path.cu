// expect: pass
// Correct: __syncthreads_and(in bounds) is the barrier between load and
// store and also tells the block whether its whole tile is inside: a full
// tile stores without tests, an edge tile tests each element.
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int inside = x < cols && y < rows;
    if (inside)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    int ox = blockIdx.y * TILE_DIM + threadIdx.x;
    int oy = blockIdx.x * TILE_DIM + threadIdx.y;
    int out_inside = ox < rows && oy < cols;
    if (__syncthreads_and(inside && out_inside)) {
        out[(size_t)oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
    } else if (out_inside) {
        out[(size_t)oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
