// expect: fail cudaErrorIllegalAddress
// emulator-says: the __shared__ array tile at byte 1024, past its end
// expect-not: Put a __syncthreads() between the two
// A 16 x 16 tile indexed by 32 x 32 threads: tile[0][16] is tile[1][0], and rows
// 16 on run past the array's end. The emulator names the index past the end, not
// the race it makes first, which no barrier fixes (stud8, bug 2).
/* Student changed the tile to 16 to "try TILE_DIM=16" but only in the array. */
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#define SMEM_TILE 16

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[SMEM_TILE][SMEM_TILE];
    int r = blockIdx.y * TILE_DIM + threadIdx.y;
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
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
