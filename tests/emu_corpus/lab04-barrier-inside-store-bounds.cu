// expect: pass
// emulator-says: which had returned before reaching it
// The barrier between the tile's stores and loads stands inside the store's
// bounds test: the threads of an edge block that fall outside the matrix
// return without reaching it. GPUs from Volta on no longer count a thread
// that has exited, and every thread that reads the tile waits there, so a
// GPU gives the right answer and so does the emulator; CUDA's guide allows
// the barrier in conditional code only where the condition is the same for
// the whole block, and the emulator says so, without failing the test.
// From a new student's trial (issue 37).
#include "lab.h"

#define TILE 32

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows) {
        __syncthreads();
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
