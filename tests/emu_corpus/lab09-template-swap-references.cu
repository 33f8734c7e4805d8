// expect: pass
// A tile and its mirror, loaded into a and b; each thread swaps its own
// elements of the two through references (a __device__ template swap),
// so a holds the mirror tile, and after the barrier both go back
// transposed. A diagonal block loads one tile twice and writes the same
// values twice.
#include "lab.h"

#define TILE 32
#define ROWS 8

template <typename T> __device__ __forceinline__ void swap_values(T &x, T &y)
{
    T t = x;
    x = y;
    y = t;
}

__global__ void pairs_swapped(float *mat, int n)
{
    __shared__ float a[TILE][TILE + 1], b[TILE][TILE + 1];
    if (blockIdx.x < blockIdx.y)
        return; /* the tile below the diagonal is the mirror of one above */
    const int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE, x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        if (r0 + y + j < n && c0 + x < n)
            a[y + j][x] = mat[(size_t)(r0 + y + j) * n + c0 + x];
        if (c0 + y + j < n && r0 + x < n)
            b[y + j][x] = mat[(size_t)(c0 + y + j) * n + r0 + x];
    }
    for (int j = 0; j < TILE; j += ROWS)
        swap_values(a[y + j][x], b[y + j][x]);
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS) {
        if (r0 + y + j < n && c0 + x < n)
            mat[(size_t)(r0 + y + j) * n + c0 + x] = a[x][y + j];
        if (c0 + y + j < n && r0 + x < n)
            mat[(size_t)(c0 + y + j) * n + r0 + x] = b[x][y + j];
    }
}

void transpose_inplace(float *d_mat, int n)
{
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    pairs_swapped<<<grid, dim3(TILE, ROWS)>>>(d_mat, n);
}
