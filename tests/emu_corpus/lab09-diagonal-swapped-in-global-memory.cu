// expect: fail
// Tiles swapped in pairs through two shared tiles (padded by 2), a square
// grid whose blocks below the diagonal return, and a diagonal tile swapped in
// place in global memory by every thread: thread (x, y) reads mat[x][y] and
// writes mat[y][x]. Lanes of one warp at rows r and r + 8 of the tile (one
// thread's loop over j) store before they load: from n = 9 on, pairs lose a
// side on a GPU as on the emulator. A tester's student file (2026-11-29).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

template <int TD, int BR>
__global__ void pairs(float *mat, int n)
{
    __shared__ float a[TD][TD + 2];
    __shared__ float b[TD][TD + 2];
    const int R = blockIdx.y, C = blockIdx.x;
    if (R > C)
        return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    if (R == C) {
        /* a diagonal tile is its own mirror: swap in place, no shared memory needed */
#pragma unroll
        for (int j = 0; j < TD; j += BR) {
            int r = R * TD + ty + j, c = C * TD + tx;
            if (r < n && c < n) {
                float v = mat[(size_t)c * n + r];
                mat[(size_t)r * n + c] = v;
            }
        }
        return;
    }
    const int x0 = C * TD + tx, y0 = R * TD;   /* tile (R, C): rows y0.., column x0 */
    const int x1 = R * TD + tx, y1 = C * TD;   /* tile (C, R) */
#pragma unroll
    for (int j = 0; j < TD; j += BR) {
        if (y0 + ty + j < n && x0 < n)
            a[ty + j][tx] = mat[(size_t)(y0 + ty + j) * n + x0];
        if (y1 + ty + j < n && x1 < n)
            b[ty + j][tx] = mat[(size_t)(y1 + ty + j) * n + x1];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TD; j += BR) {
        if (y0 + ty + j < n && x0 < n)
            mat[(size_t)(y0 + ty + j) * n + x0] = b[tx][ty + j];
        if (R != C && y1 + ty + j < n && x1 < n)
            mat[(size_t)(y1 + ty + j) * n + x1] = a[tx][ty + j];
    }
}

void transpose_inplace(float *d_mat, int n)
{
    int T = (n + TILE_DIM - 1) / TILE_DIM;
    pairs<TILE_DIM, BLOCK_ROWS><<<dim3(T, T), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
