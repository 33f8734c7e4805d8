// expect: fail rows and cols swapped in the output index
// expect-not: bounds test does not match
// The store's bounds test is right, its index out[orow * cols + ocol] has in's row
// length: writes past the end and holes, which the index makes, not the bounds test
// (stud8, bug 4: at 2 x 3 the first hint blamed the store's bounds test).
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    int orow = blockIdx.x * TILE_DIM + threadIdx.y;
    int ocol = blockIdx.y * TILE_DIM + threadIdx.x;
    if (orow < cols && ocol < rows)
        out[(size_t)orow * cols + ocol] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
