// expect: fail
// expect-not: this matrix is not square
// A thread outside in returns before the barrier: in the tiles on the
// matrix's edge, the thread that would store an element of out is not the
// one that loaded it, and threads that left store nothing. Code right for
// squares only has nothing to do with it.
#include "lab.h"

#define TILE_DIM 32

__global__ void transpose_tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();

    int out_c = blockIdx.y * TILE_DIM + threadIdx.x;
    int out_r = blockIdx.x * TILE_DIM + threadIdx.y;
    if (out_r < cols && out_c < rows)
        out[(size_t)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_tiled<<<grid, block>>>(out, in, rows, cols);
}
