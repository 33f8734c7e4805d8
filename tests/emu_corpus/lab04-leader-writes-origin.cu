// expect: fail
// gpu-tool: racecheck
// emulator-says: race
// Thread 0 works out the tile's origin into shared memory and the others
// read it with no barrier between: a read-after-write race on those two
// ints (the barrier after the tile load comes too late), which racecheck
// reports, whatever order the threads happen to run in.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    __shared__ int origin_r, origin_c;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        origin_r = blockIdx.y * TILE;
        origin_c = blockIdx.x * TILE;
    }
    int c = origin_c + threadIdx.x, r = origin_r + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = origin_r + threadIdx.x, r = origin_c + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
