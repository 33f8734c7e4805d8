// expect: pass
// The block size from cudaOccupancyMaxPotentialBlockSize, the device's
// limits queried, one thread printing from the kernel: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <stdio.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define DEBUG_PRINT 1

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
#if DEBUG_PRINT
    if (c == 0 && r == 0 && rows == 33 && cols == 31)
        printf("transpose_naive: grid (%d, %d), block (%d, %d), %d x %d\n",
               gridDim.x, gridDim.y, blockDim.x, blockDim.y, rows, cols);
#endif
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    static int threads = 0, max_grid_y = 0;
    if (threads == 0) {
        int min_grid = 0;
        cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, transpose_naive, 0, 0);
        if (threads > TILE_DIM * BLOCK_ROWS) threads = TILE_DIM * BLOCK_ROWS;
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&max_grid_y, cudaDevAttrMaxGridDimY, dev);
    }
    dim3 block(TILE_DIM, threads / TILE_DIM);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    if ((int)grid.y > max_grid_y)
        fprintf(stderr, "transpose: %d rows need %u blocks in y, more than %d\n", rows, grid.y, max_grid_y);
    transpose_naive<<<grid, block, 0, 0>>>(d_out, d_in, rows, cols);
}
