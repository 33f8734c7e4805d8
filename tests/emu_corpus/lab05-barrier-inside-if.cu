// expect: fail
// emulator-says: ended without passing the __syncthreads()
// expect-not: a missing __syncthreads()?
// The __syncthreads() is there, inside the load's bounds test: the threads
// of an edge block that fall outside the matrix skip it and read the tile
// before the others have filled it. A barrier is present, so the message
// must not call it missing; the emulator finds the race on the tile and
// says that the reading thread ended without passing the barrier the
// others wait at. On a GPU what the skipping threads read is undefined
// (synccheck reports the barrier, racecheck the race).
#include "lab.h"

#define TILE 32

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols) {
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
        __syncthreads();
    }
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    bank_free<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
