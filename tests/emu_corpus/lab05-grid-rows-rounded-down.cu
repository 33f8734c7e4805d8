// expect: fail (rows + TILE_DIM - 1) / TILE_DIM for y
// expect-not: (cols + TILE_DIM - 1) / TILE_DIM
// The grid's y, over the rows, is rounded down; its x, over the columns,
// is right. The hints must name the rows and y, not cols/TILE_DIM, as they
// did in a student's trial.
#include "lab.h"

#define TILE_DIM 32

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE_DIM + threadIdx.x, r = blockIdx.x * TILE_DIM + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, rows / TILE_DIM);
    bank_free<<<grid, dim3(TILE_DIM, TILE_DIM)>>>(out, in, rows, cols);
}
