// expect: fail tile was transposed but left at its own place
// expect-not: copied, not transposed
// Each tile is transposed in shared memory, but the block stores it at its
// own block position (blockIdx.x over out's columns, blockIdx.y over its
// rows) instead of the mirror one: tiles on the diagonal come out right,
// the others land where they started. Not a copy: the message must say
// which tiles went where, not "copied, not transposed", as it did in a
// student's trial.
#include "lab.h"

#define TILE 32

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    bank_free<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
