// expect: fail a test made once, before the loop over a tile's rows
// expect-not: a bound off by one
// gpu-expect: fail
// Lab 6's loop over BLOCK_ROWS with one bounds test per thread, made before
// the loop, where each element needs its own (a new student's first try):
// the tiles on the matrix's edge store rows of out past its end. At 97 x 89
// they fill out's rows 89..95, as a test of the wrong dimension (c < rows)
// would: the hint names both (it named only the second once). On a GPU
// the larger shapes' stores land far past out, where they may fault and
// end the suite's context before 97 x 89 runs: there only the verdict.
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
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    int orow = blockIdx.x * TILE_DIM + threadIdx.y;
    int ocol = blockIdx.y * TILE_DIM + threadIdx.x;
    if (orow < cols && ocol < rows)
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            out[(size_t)(orow + j) * rows + ocol] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
}
