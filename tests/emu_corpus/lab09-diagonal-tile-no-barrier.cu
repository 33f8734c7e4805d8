// expect: fail
// emulator-says: a race on shared memory
// expect-not: or, as they are lanes of one warp, a __syncwarp()
// The diagonal tile read back transposed with no __syncthreads() after its load, which
// 8 warps make: no __syncwarp() can fix it (stud8, bug 7).
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

/* Square grid; blocks below the diagonal return. Diagonal tiles take a
 * branch of their own, where the student forgot the barrier. */
__global__ void transpose_tile_pairs(float *mat, int n)
{
    __shared__ float a[TILE_DIM][TILE_DIM + 1];
    __shared__ float b[TILE_DIM][TILE_DIM + 1];
    const int R = blockIdx.y, C = blockIdx.x;
    if (R > C)
        return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = R * TILE_DIM, c0 = C * TILE_DIM;
    if (R == C) {
        for (int y = ty; y < TILE_DIM; y += BLOCK_ROWS)
            if (r0 + y < n && c0 + tx < n)
                a[y][tx] = mat[(size_t)(r0 + y) * n + c0 + tx];
        /* missing __syncthreads(): "a diagonal tile only swaps with itself" */
        for (int y = ty; y < TILE_DIM; y += BLOCK_ROWS)
            if (r0 + y < n && c0 + tx < n)
                mat[(size_t)(r0 + y) * n + c0 + tx] = a[tx][y];
        return;
    }
    for (int y = ty; y < TILE_DIM; y += BLOCK_ROWS) {
        if (r0 + y < n && c0 + tx < n)
            a[y][tx] = mat[(size_t)(r0 + y) * n + c0 + tx];
        if (c0 + y < n && r0 + tx < n)
            b[y][tx] = mat[(size_t)(c0 + y) * n + r0 + tx];
    }
    __syncthreads();
    for (int y = ty; y < TILE_DIM; y += BLOCK_ROWS) {
        if (r0 + y < n && c0 + tx < n)
            mat[(size_t)(r0 + y) * n + c0 + tx] = b[tx][y];
        if (c0 + y < n && r0 + tx < n)
            mat[(size_t)(c0 + y) * n + r0 + tx] = a[tx][y];
    }
}

void transpose_inplace(float *d_mat, int n)
{
    int T = (n + TILE_DIM - 1) / TILE_DIM;
    transpose_tile_pairs<<<dim3(T, T), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
