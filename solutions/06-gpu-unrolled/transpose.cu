/*
 * Lab 6 reference: TILE_DIM x BLOCK_ROWS threads per TILE_DIM x TILE_DIM
 * tile, each moving TILE_DIM / BLOCK_ROWS elements, through a padded
 * (bank-conflict-free) shared tile.
 *
 * Tiles that lie wholly inside the matrix, nearly all of them, take a path
 * without bounds tests: the compiler then issues all of a thread's loads
 * before the first one returns, which is what keeps enough bytes in flight
 * to match a memory copy. Only the partial tiles at the right and bottom
 * edges test every element.
 */
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

    int tile_r = blockIdx.y * TILE_DIM, tile_c = blockIdx.x * TILE_DIM;
    int x = threadIdx.x, y = threadIdx.y;
    int whole = tile_r + TILE_DIM <= rows && tile_c + TILE_DIM <= cols;

    if (whole) {
#pragma unroll
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            tile[y + j][x] = in[(size_t)(tile_r + y + j) * cols + tile_c + x];
    } else {
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            if (tile_r + y + j < rows && tile_c + x < cols)
                tile[y + j][x] = in[(size_t)(tile_r + y + j) * cols + tile_c + x];
    }

    __syncthreads();

    /* Row tile_c + y + j of out holds column tile_c + y + j of in. */
    if (whole) {
#pragma unroll
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            out[(size_t)(tile_c + y + j) * rows + tile_r + x] = tile[x][y + j];
    } else {
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            if (tile_c + y + j < cols && tile_r + x < rows)
                out[(size_t)(tile_c + y + j) * rows + tile_r + x] = tile[x][y + j];
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
}
