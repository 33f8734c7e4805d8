// expect: fail
// emulator-says: a race between blocks
// The tile is a __device__ array, one for the whole GPU, where it should be
// __shared__ (one per block): every block fills it, waits at its barrier and
// reads it back transposed. The emulator, which runs one block after
// another, would give the right answer; on a GPU the blocks run at once and
// overwrite each other's tiles between the write and the read.
// From a new student's trial (issue 37).
#include "lab.h"

#define TILE 32

__device__ float scratch[TILE][TILE + 1];

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        scratch[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = scratch[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    bank_free<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
