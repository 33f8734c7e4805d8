// expect: fail 16 bank(s), 2 to a bank
// gpu-expect: pass
// expect-not: puts all its words in one bank
// Rows of TILE_DIM + 2 floats: a column's words lie 34 apart, 2 to a bank, 2 passes.
// The message explains this tile, not an unpadded one (stud8, bug 11).
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 2];
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    if (r < rows && c < cols) /* rows padded by 2 floats: "8-byte aligned rows" */
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    int orow = blockIdx.x * TILE_DIM + threadIdx.y;
    int ocol = blockIdx.y * TILE_DIM + threadIdx.x;
    if (orow < cols && ocol < rows)
        out[(size_t)orow * rows + ocol] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
