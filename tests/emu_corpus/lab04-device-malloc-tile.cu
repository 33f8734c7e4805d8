// expect: fail shared
// gpu-expect: pass
// emulator-says: room for
// expect-not: floats in shared memory and read
// Thread 0 of each block mallocs its tile from the device heap (8 MB by
// default: one 4 KB tile a resident block fits) and hands the pointer out
// through a __shared__ variable; the block fills it, waits, reads it
// transposed and frees it. Correct on a GPU (an H200 passes it,
// 2026-11-28). It is no shared-memory tile, so the technique check (which
// reads the emulator's counts) fails it; its message counted the pointer's
// stores as "2048 floats" stored in shared memory.
#include "lab.h"

#define TILE 32

__global__ void heap_tile(float *out, const float *in, int rows, int cols)
{
    __shared__ float *tile;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        tile = (float *)malloc(TILE * TILE * sizeof(float));
    __syncthreads();
    if (tile == NULL)
        return; /* the whole block: tile is the same for all */
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y * TILE + threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x;
    r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x * TILE + threadIdx.y];
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0)
        free(tile);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    heap_tile<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
