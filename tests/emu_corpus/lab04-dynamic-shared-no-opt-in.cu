// expect: fail cudaErrorInvalidValue
// 64 KiB of dynamic shared memory, more than a block gets without asking,
// and no cudaFuncSetAttribute to opt in: CUDA refuses the launch.
#include "lab.h"

#define TILE 32
#define ROWS 8
#define BYTES (64 << 10)

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    extern __shared__ float tile[]; /* TILE x (TILE + 1) used of BYTES */
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[(threadIdx.y + j) * (TILE + 1) + threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x * (TILE + 1) + threadIdx.y + j];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    coalesced<<<grid, block, BYTES>>>(d_out, d_in, rows, cols);
}
