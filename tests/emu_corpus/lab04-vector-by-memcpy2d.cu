// expect: pass
// A matrix of one row or one column is the same floats in the same order
// once transposed: this file copies it with cudaMemcpy2D (one row of all its
// bytes, device to device) instead of launching the tiled kernel. Right on a
// GPU; the kit's GPU path passed the copy on to the runtime in its lab
// process, where the buffers are another process's memory, so nothing was
// copied and single_row failed there, where the emulator passed it (session
// 16). Now a step of the plan, run in order with the launches.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    if (rows == 1 || cols == 1) {
        size_t bytes = (size_t)rows * cols * sizeof(float);
        cudaMemcpy2D(out, bytes, in, bytes, bytes, 1, cudaMemcpyDeviceToDevice);
        return;
    }
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), block(TILE, ROWS);
    coalesced<<<grid, block>>>(out, in, rows, cols);
}
