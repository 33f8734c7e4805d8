// expect: fail
// expect-not: outside in or out
// emulator-says: the __shared__ array tile
// The store reads the tile by the element's place in the matrix instead of
// its place in the tile: from the second block on, far past the tile's end.
// A read past a __shared__ array, which the message must not blame on in
// or out.
#include "lab.h"

#define TILE_DIM 32

__global__ void transpose_tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();

    int out_c = blockIdx.y * TILE_DIM + threadIdx.x;
    int out_r = blockIdx.x * TILE_DIM + threadIdx.y;
    if (out_r < cols && out_c < rows)
        out[(size_t)out_r * rows + out_c] = tile[out_c][out_r];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_tiled<<<grid, block>>>(out, in, rows, cols);
}
