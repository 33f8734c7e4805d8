// expect: fail never used
// expect-not: pad each row by one float
// gpu-expect: pass
// The tile is declared with its padding, 32 x 33 floats, as one flat array,
// but indexed with the unpadded row length: y * TILE_DIM + x. A column's
// words lie 32 apart, all in one bank, as without padding. The message must
// not tell the student to pad (the padding is there) but that the index
// does not use it. From a new student's trial (issue 37).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM * (TILE_DIM + 1)];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y * TILE_DIM + threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x, y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x * TILE_DIM + threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM), grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    bank_free<<<grid, block>>>(out, in, rows, cols);
}
