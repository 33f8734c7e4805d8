// expect: pass
// A template<TILE, ROWS> kernel with __launch_bounds__, #pragma unroll and
// a path without bounds tests for interior tiles: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

template <int TILE, int ROWS>
__global__ void __launch_bounds__(TILE * ROWS)
transpose_unrolled(float *__restrict__ out, const float *__restrict__ in, int rows, int cols)
{
    static_assert(TILE % ROWS == 0, "BLOCK_ROWS must divide TILE_DIM");
    __shared__ float tile[TILE][TILE + 1];

    const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
    const bool full = (bx + TILE <= cols) && (by + TILE <= rows);
    int x = bx + threadIdx.x, y = by + threadIdx.y;

    if (full) {
#pragma unroll
        for (int j = 0; j < TILE; j += ROWS)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    } else {
#pragma unroll
        for (int j = 0; j < TILE; j += ROWS)
            if (x < cols && y + j < rows)
                tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    }
    __syncthreads();

    x = by + threadIdx.x;
    y = bx + threadIdx.y;
    if (full) {
#pragma unroll
        for (int j = 0; j < TILE; j += ROWS)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    } else {
#pragma unroll
        for (int j = 0; j < TILE; j += ROWS)
            if (x < rows && y + j < cols)
                out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<TILE_DIM, BLOCK_ROWS><<<grid, block>>>(d_out, d_in, rows, cols);
}
