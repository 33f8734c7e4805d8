// expect: fail first mismatch: out[0][0] should be in[0][0]
// The data moved through __half (cuda_fp16.h) "to halve the traffic":
// values lose bits on the way, the student's own bug; the emulator must
// build it and fail it on the values, as a GPU does.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cuda_fp16.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        __half h = __float2half_rn(in[(size_t)r * cols + c]);
        out[(size_t)c * rows + r] = __half2float(h);
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
