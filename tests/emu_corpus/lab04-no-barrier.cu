// expect: fail
// emulator-says: a race on shared memory
// gpu-tool: racecheck
// documented-in: labs/04-gpu-coalesced/README.md labs/05-gpu-bank-free/README.md labs/06-gpu-unrolled/README.md slides/lab04.md
// Lab 4's tile with no __syncthreads() between filling it and reading it
// back across (a new student's first try): a thread reads tile[tx][ty]
// before the warp that loads that row has stored it. The emulator names the
// race as racecheck does; on a GPU the values come out wrong. The handouts
// of labs 4 to 6 say what the emulator says here (documented-in: checked
// by tests/docs_test.sh); they once said "shared memory nobody wrote".
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    int orow = blockIdx.x * TILE_DIM + threadIdx.y;
    int ocol = blockIdx.y * TILE_DIM + threadIdx.x;
    if (orow < cols && ocol < rows)
        out[(size_t)orow * rows + ocol] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
