// expect: fail the grid is not what falls short
// expect-not: (cols + TILE_DIM - 1) / TILE_DIM
// The row bound is one short in both loops (rows - 1), the launch right:
// in's last row never reaches out. The hint names the row bound, not the
// grid and not cols/TILE_DIM, as it did in a student's trial.
#include "lab.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (r + j < rows - 1 && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE_DIM + threadIdx.x, r = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (r + j < cols && c < rows - 1)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    unrolled<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(out, in, rows, cols);
}
