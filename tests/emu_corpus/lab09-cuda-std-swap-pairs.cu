// expect: pass
// Correct: tile pairs on a square grid of blocks, the lower blocks leaving
// at once; both tiles of the pair staged in padded shared tiles, each
// thread reads its element of each transposed into registers, swaps the two
// with cuda::std::swap (<cuda/std/utility>) and stores them back.
// Its verdict on a lent H200, as above (student17, session 17).
#include <cuda/std/utility>
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_tile_pairs(float *mat, int n)
{
    __shared__ float a[TILE_DIM][TILE_DIM + 1];
    __shared__ float b[TILE_DIM][TILE_DIM + 1];
    const int R = blockIdx.y, C = blockIdx.x;
    if (C < R) return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        int r = R * TILE_DIM + ty + j, c = C * TILE_DIM + tx;
        if (r < n && c < n) a[ty + j][tx] = mat[(size_t)r * n + c];
        r = C * TILE_DIM + ty + j; c = R * TILE_DIM + tx;
        if (r < n && c < n) b[ty + j][tx] = mat[(size_t)r * n + c];
    }
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        float to_cr = a[tx][ty + j];   /* tile (C, R) takes a transposed */
        float to_rc = b[tx][ty + j];   /* tile (R, C) takes b transposed */
        cuda::std::swap(to_cr, to_rc); /* now to_cr holds (R, C)'s value */
        int r = R * TILE_DIM + ty + j, c = C * TILE_DIM + tx;
        if (r < n && c < n) mat[(size_t)r * n + c] = to_cr;
        r = C * TILE_DIM + ty + j; c = R * TILE_DIM + tx;
        if (r < n && c < n) mat[(size_t)r * n + c] = to_rc;
    }
}

void transpose_inplace(float *d_mat, int n)
{
    int tiles = (n + TILE_DIM - 1) / TILE_DIM;
    transpose_tile_pairs<<<dim3(tiles, tiles), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
