// expect: pass
// emulator-says: past the 4096 bytes of margin the kit keeps after it too
// The load's bounds test compares the thread's coordinates inside the tile
// (threadIdx) with the matrix's sides, not its coordinates in the matrix.
// In a tile at the right edge the threads past the last column load the
// next row's elements, and in the bottom tiles the threads past the last
// row load from past the end of in (up to 31 rows: past the NaN margin).
// Every such slot is one the store never reads (its out element is past
// the matrix), so out is right: the stray reads hit mapped memory next to
// the allocation (cudaMalloc hands out 2 MiB pages), and an H200 passes it
// (2026-11-28). The emulator runs on as a GPU does, and tells on the lab
// process's standard error which thread read past in's end, and where.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if ((int)threadIdx.x < cols && (int)threadIdx.y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
