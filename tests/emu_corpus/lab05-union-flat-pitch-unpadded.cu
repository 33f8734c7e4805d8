// expect: fail first mismatch
// The padded tile in a __shared__ union beside a flat view of it, but the
// load writes the flat view at a pitch of TILE_DIM, not TILE_DIM + 1: rows
// land shifted one float per row, and the store reads the 2-D view.
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

union tile_views {
    float grid[TILE_DIM][TILE_DIM + 1];
    float flat[TILE_DIM * (TILE_DIM + 1)];
};

__global__ void transpose_padded(float *out, const float *in, int rows, int cols)
{
    __shared__ union tile_views t;
    static_assert(sizeof(t) == TILE_DIM * (TILE_DIM + 1) * sizeof(float), "padded tile");
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        t.flat[threadIdx.y * TILE_DIM + threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = t.grid[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_padded<<<grid, block>>>(d_out, d_in, rows, cols);
}
