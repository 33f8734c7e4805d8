// expect: fail
// emulator-says: the whole tiles hold none, so the barrier
// expect-not: Put __syncthreads() between loading both tiles
// A square grid of pairs whose mirror tile (C, R) is loaded and stored
// under the bounds test of tile (R, C): right wherever both tiles are
// whole, wrong where the edge cuts a pair, since tile (R, C) whole does
// not make (C, R) whole. The barrier is there: where shared memory nobody
// wrote comes out, it is only in the tiles the edge cuts.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void pairs(float *mat, int n)
{
    __shared__ float a[TILE][TILE + 1], b[TILE][TILE + 1];
    if (blockIdx.x < blockIdx.y)
        return;
    int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE, x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int inside = r0 + y + j < n && c0 + x < n; /* tile (R, C)'s test, used for both */
        if (inside)
            a[y + j][x] = mat[(size_t)(r0 + y + j) * n + c0 + x];
        if (inside)
            b[y + j][x] = mat[(size_t)(c0 + y + j) * n + r0 + x];
    }
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS) {
        int inside = r0 + y + j < n && c0 + x < n;
        if (inside)
            mat[(size_t)(r0 + y + j) * n + c0 + x] = b[x][y + j];
        if (inside)
            mat[(size_t)(c0 + y + j) * n + r0 + x] = a[x][y + j];
    }
}

void transpose_inplace(float *d_mat, int n)
{
    dim3 block(TILE, ROWS), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    pairs<<<grid, block>>>(d_mat, n);
}
