// expect: fail tiles were not swapped with their mirror
// The tiled in-place kernel of the blog lab 9 starts from: each block
// transposes its own tile and writes it back where it was, never swapping
// it with its mirror across the diagonal. Right for a matrix of one tile,
// wrong for every larger one, on a GPU and on the emulator alike.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void tile_in_place(float *mat, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < n && y + j < n)
            tile[threadIdx.y + j][threadIdx.x] = mat[(size_t)(y + j) * n + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        if (x < n && y + j < n)
            mat[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_inplace(float *d_mat, int n)
{
    dim3 block(TILE, ROWS), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    tile_in_place<<<grid, block>>>(d_mat, n);
}
