// expect: fail
// gpu-tool: racecheck
// emulator-says: race
// __syncwarp() where the tile needs __syncthreads(): each thread reads back
// a column of the tile that threads of other warps wrote, and __syncwarp()
// waits only for the lanes of its own warp. A race between warps, which
// racecheck reports.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncwarp();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
