// expect: pass
// Streaming cache hints (__ldcs, __stcs), cudaFuncSetCacheConfig, a launch
// written over several lines: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM * TILE_DIM];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const size_t c0 = (size_t)blockIdx.x * TILE_DIM, r0 = (size_t)blockIdx.y * TILE_DIM;

    if (r0 + ty < (size_t)rows && c0 + tx < (size_t)cols)
        tile[ty * TILE_DIM + tx] = __ldcs(in + (r0 + ty) * cols + c0 + tx);
    __syncthreads();
    // out row c0 + ty, out column r0 + tx
    if (c0 + ty < (size_t)cols && r0 + tx < (size_t)rows)
        __stcs(out + (c0 + ty) * rows + r0 + tx, tile[tx * TILE_DIM + ty]);
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    cudaFuncSetCacheConfig(transpose_coalesced, cudaFuncCachePreferShared);
    const dim3 threads(TILE_DIM, TILE_DIM);
    const dim3 blocks(CEIL_DIV(cols, TILE_DIM), CEIL_DIV(rows, TILE_DIM));
    transpose_coalesced<<<blocks,
                          threads>>>(d_out, d_in,
                                     rows, cols);
}
