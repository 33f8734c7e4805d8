// expect: fail
// gpu-tool: racecheck
// A pair of mirror tiles in one block, but no __syncthreads() between
// loading the two tiles and writing them back: a thread writes from shared
// memory another warp has not filled yet. A race, which the emulator makes
// fail every time and racecheck reports.
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
        if (r0 + y + j < n && c0 + x < n)
            a[y + j][x] = mat[(size_t)(r0 + y + j) * n + c0 + x];
        if (c0 + y + j < n && r0 + x < n)
            b[y + j][x] = mat[(size_t)(c0 + y + j) * n + r0 + x];
    }
    for (int j = 0; j < TILE; j += ROWS) {
        if (r0 + y + j < n && c0 + x < n)
            mat[(size_t)(r0 + y + j) * n + c0 + x] = b[x][y + j];
        if (c0 + y + j < n && r0 + x < n)
            mat[(size_t)(c0 + y + j) * n + r0 + x] = a[x][y + j];
    }
}

void transpose_inplace(float *d_mat, int n)
{
    dim3 block(TILE, ROWS), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    pairs<<<grid, block>>>(d_mat, n);
}
