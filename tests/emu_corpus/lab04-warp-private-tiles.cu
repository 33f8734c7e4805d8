// expect: pass
// Each warp transposes a 32 x 32 tile of its own: blocks of 32 x 4 threads,
// warp threadIdx.y owning tile[threadIdx.y]. No other warp reads what a warp
// wrote, so __syncwarp() is the only barrier the tile needs.
#include "lab.h"

#define TILE 32
#define WARPS 4

__global__ void warp_tiles(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[WARPS][TILE][TILE + 1];
    int lane = threadIdx.x, w = threadIdx.y;
    int r0 = blockIdx.y * TILE, c0 = (blockIdx.x * WARPS + w) * TILE;
    for (int i = 0; i < TILE; i++)
        if (r0 + i < rows && c0 + lane < cols)
            tile[w][i][lane] = in[(size_t)(r0 + i) * cols + c0 + lane];
    __syncwarp();
    for (int i = 0; i < TILE; i++)
        if (c0 + i < cols && r0 + lane < rows)
            out[(size_t)(c0 + i) * rows + r0 + lane] = tile[w][lane][i];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE * WARPS - 1) / (TILE * WARPS), (rows + TILE - 1) / TILE);
    warp_tiles<<<grid, dim3(TILE, WARPS)>>>(out, in, rows, cols);
}
