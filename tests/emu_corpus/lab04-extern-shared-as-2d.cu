// expect: pass
// Correct: the tile is dynamic shared memory, extern __shared__ float raw[],
// viewed as a 2-D array through a pointer to rows of TILE_DIM floats
// (reinterpret_cast<float (*)[TILE_DIM]>), sized at the launch.
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    extern __shared__ float raw[];
    float (*tile)[TILE_DIM] = reinterpret_cast<float (*)[TILE_DIM]>(raw);
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block, TILE_DIM * TILE_DIM * sizeof(float)>>>(d_out, d_in, rows, cols);
}
