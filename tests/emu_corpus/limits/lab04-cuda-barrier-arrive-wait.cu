// expect: pass
// emulator: build-error libcu++'s headers outside cuda/std/
// Correct: libcu++'s cuda::barrier<cuda::thread_scope_block> in shared
// memory, initialised by thread 0 for the whole block, in place of
// __syncthreads() between the tile's load and its store; the warning that
// a __shared__ object has a constructor is silenced as CUDA's guide does
// (#pragma nv_diag_suppress static_var_with_dynamic_init).
// The emulator refuses <cuda/barrier> (libcu++ outside cuda/std/), its
// limit, saying a GPU runs it (student17, session 17: it passes on a lent H200).
#include <cuda/barrier>
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        init(&bar, blockDim.x * blockDim.y);
    __syncthreads();
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    bar.arrive_and_wait();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
