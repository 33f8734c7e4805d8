// expect: pass
// Launched through cudaLaunchKernel with an argument array, min() on the
// host, __syncthreads_count to let blocks wholly outside leave: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cstdint>
#include <climits>
#include <stdio.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    const std::uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    const std::uint32_t r = blockIdx.y * blockDim.y + threadIdx.y;
    const bool inside = r < (std::uint32_t)rows && c < (std::uint32_t)cols;
    // every thread takes part: a block entirely outside the matrix does nothing
    if (__syncthreads_count(inside) == 0) return;
    if (inside)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    const unsigned max_y = (unsigned)min((int)USHRT_MAX, 65535);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    if (grid.y > max_y)
        printf("transpose: %u blocks in y are more than %u\n", grid.y, max_y);
    void *args[] = {&d_out, (void *)&d_in, &rows, &cols};
    cudaError_t err = cudaLaunchKernel((const void *)transpose_naive, grid, block, args, 0, 0);
    if (err != cudaSuccess)
        printf("transpose: cudaLaunchKernel: %s\n", cudaGetErrorString(err));
}
