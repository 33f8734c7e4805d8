// expect: pass
// A 1-D grid over the T(T+1)/2 tile pairs, the pair decoded with sqrtf and
// corrected, two padded tiles: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

// pair p of the upper triangle (R <= C), row by row: row R holds T - R pairs
__device__ void pair_of(int p, int T, int *R, int *C)
{
    // count from the end: q-th pair from the last lies in the row where the
    // triangle of the rows below first holds more than q pairs
    const int total = T * (T + 1) / 2;
    const int q = total - 1 - p;
    int s = (int)((sqrtf(8.0f * q + 1.0f) - 1.0f) * 0.5f);   // s(s+1)/2 <= q
    while ((s + 1) * (s + 2) / 2 <= q) ++s;
    while (s * (s + 1) / 2 > q) --s;
    const int r = T - 1 - s;
    const int in_row = q - s * (s + 1) / 2;   // 0..s, counted from the right
    *R = r;
    *C = T - 1 - in_row;
}

__global__ void transpose_tile_pairs(float *mat, int n)
{
    __shared__ float a[TILE_DIM][TILE_DIM + 1];
    __shared__ float b[TILE_DIM][TILE_DIM + 1];
    const int T = (n + TILE_DIM - 1) / TILE_DIM;
    int R, C;
    pair_of(blockIdx.x, T, &R, &C);
    const int tx = threadIdx.x, ty = threadIdx.y;

    // tile (R, C): rows R*TD.., cols C*TD..; tile (C, R) mirrors it
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        int r = R * TILE_DIM + ty + j, c = C * TILE_DIM + tx;
        if (r < n && c < n) a[ty + j][tx] = mat[(size_t)r * n + c];
        if (R != C) {
            r = C * TILE_DIM + ty + j; c = R * TILE_DIM + tx;
            if (r < n && c < n) b[ty + j][tx] = mat[(size_t)r * n + c];
        }
    }
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (R != C) {
            int r = R * TILE_DIM + ty + j, c = C * TILE_DIM + tx;
            if (r < n && c < n) mat[(size_t)r * n + c] = b[tx][ty + j];
        }
        int r = C * TILE_DIM + ty + j, c = R * TILE_DIM + tx;
        if (r < n && c < n) mat[(size_t)r * n + c] = a[tx][ty + j];
    }
}

void transpose_inplace(float *d_mat, int n)
{
    const int T = (n + TILE_DIM - 1) / TILE_DIM;
    const int pairs = T * (T + 1) / 2;
    transpose_tile_pairs<<<pairs, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
