// expect: pass
// The tile in dynamic shared memory (extern __shared__, its size the
// launch's third argument): the technique check counts the launch's bytes
// beside the kernel's static arrays, so the tile is seen.
#include "lab.h"

#define TILE 16

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    extern __shared__ float tile[]; /* TILE x TILE, row after row */
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y * TILE + threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x * TILE + threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    coalesced<<<grid, block, TILE * TILE * sizeof(float)>>>(d_out, d_in, rows, cols);
}
