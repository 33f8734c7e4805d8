// expect: fail the kernel's tile is 32 a side
// expect-not: the bounds test stops them
// expect-not: store's indices send
// expect-not: go through global memory as lab 3's do
// A student's: the kernel's tile is TILE_DIM = 32, the launch's blocks T = 16 a side. Each
// block moves the first 16 rows and columns of its tile; the rest of out is never written,
// through the tile or any other way.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#define T 16

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE_DIM + tx;
    int r = blockIdx.y * TILE_DIM + ty;
    if (r < rows && c < cols)
        tile[ty][tx] = in[(size_t)r * cols + c];
    __syncthreads();
    int oc = blockIdx.y * TILE_DIM + tx;
    int orow = blockIdx.x * TILE_DIM + ty;
    if (orow < cols && oc < rows)
        out[(size_t)orow * rows + oc] = tile[tx][ty];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(T, T);
    dim3 grid((cols + T - 1) / T, (rows + T - 1) / T);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
