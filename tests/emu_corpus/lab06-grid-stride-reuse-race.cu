// expect: fail
// gpu-tool: racecheck
// emulator-says: race
// The grid-stride loop of lab06-grid-stride-tiles.cu without its second
// __syncthreads(): a thread that is done with this tile loads its part of
// the next one while others still read this one (a write-after-read race
// on the reused tile, which racecheck reports). Matrices of one tile per
// block or fewer never reuse it.
#include "lab.h"

#define TILE 32
#define ROWS 8
#define BLOCKS 8

__global__ void strided_tiles(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tiles_x = (cols + TILE - 1) / TILE, tiles = tiles_x * ((rows + TILE - 1) / TILE);
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        int bx = t % tiles_x, by = t / tiles_x;
        int c = bx * TILE + threadIdx.x, r = by * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += ROWS)
            if (r + j < rows && c < cols)
                tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
        __syncthreads();
        c = by * TILE + threadIdx.x, r = bx * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += ROWS)
            if (r + j < cols && c < rows)
                out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    strided_tiles<<<BLOCKS, dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
