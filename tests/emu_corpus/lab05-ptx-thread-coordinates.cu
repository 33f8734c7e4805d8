// expect: pass
// threadIdx and blockIdx read with inline PTX (mov.u32 %0, %tid.x;
// %ctaid.y), __launch_bounds__, a padded tile: valid; the emulator runs
// reads of special registers.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

struct Coord { unsigned x, y; };

__device__ __forceinline__ Coord thread_xy()
{
    Coord t;
    asm("mov.u32 %0, %%tid.x;" : "=r"(t.x));
    asm("mov.u32 %0, %%tid.y;" : "=r"(t.y));
    return t;
}

__device__ __forceinline__ Coord block_xy()
{
    Coord b;
    asm("mov.u32 %0, %%ctaid.x;" : "=r"(b.x));
    asm("mov.u32 %0, %%ctaid.y;" : "=r"(b.y));
    return b;
}

__global__ void __launch_bounds__(TILE_DIM * TILE_DIM)
transpose_bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    const Coord t = thread_xy(), b = block_xy();

    unsigned c = b.x * TILE_DIM + t.x, r = b.y * TILE_DIM + t.y;
    if (r < (unsigned)rows && c < (unsigned)cols)
        tile[t.y][t.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = b.y * TILE_DIM + t.x;
    r = b.x * TILE_DIM + t.y;
    if (r < (unsigned)cols && c < (unsigned)rows)
        out[(size_t)r * rows + c] = tile[t.x][t.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
