// expect: pass
// A template on the tile size, the tile in extern __shared__ sized by the
// launch, __launch_bounds__(1024, 2): valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

template <int TILE>
__global__ void __launch_bounds__(TILE * TILE, 2)
transpose_coalesced(float *__restrict__ out, const float *__restrict__ in, int rows, int cols)
{
    extern __shared__ float tile[];   // TILE * TILE floats, from the launch

    const int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE + tx;
    int r = blockIdx.y * TILE + ty;
    if (r < rows && c < cols)
        tile[ty * TILE + tx] = in[(size_t)r * cols + c];

    __syncthreads();

    c = blockIdx.y * TILE + tx;   // column of out = row of in
    r = blockIdx.x * TILE + ty;   // row of out = column of in
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[tx * TILE + ty];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    constexpr int T = TILE_DIM;
    static_assert(T * T <= 1024, "TILE_DIM x TILE_DIM threads must fit a block");
    const dim3 block(T, T);
    const dim3 grid((cols + T - 1) / T, (rows + T - 1) / T);
    const size_t smem = T * T * sizeof(float);
    transpose_coalesced<T><<<grid, block, smem>>>(d_out, d_in, rows, cols);
}
