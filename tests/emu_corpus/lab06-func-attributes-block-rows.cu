// expect: pass
// Correct: the unrolled transpose, whose host code asks cudaFuncGetAttributes
// for the kernel's maxThreadsPerBlock and numRegs and halves the block's rows
// while a block would exceed it (it never does here: 32 x 8 = 256).
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += blockDim.y)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += blockDim.y)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    cudaFuncAttributes attr;
    int block_rows = BLOCK_ROWS;
    if (cudaFuncGetAttributes(&attr, transpose_unrolled) == cudaSuccess && attr.numRegs > 0)
        while (TILE_DIM * block_rows > attr.maxThreadsPerBlock && block_rows > 1)
            block_rows /= 2;
    dim3 block(TILE_DIM, block_rows);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
}
