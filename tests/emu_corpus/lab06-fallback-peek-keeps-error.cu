// expect: fail cudaErrorInvalidValue
// Tries blocks of 64 x 32 threads, which a GPU refuses (2048 threads),
// and falls back to 64 x 16; but it reads the refusal with
// cudaPeekAtLastError(), which leaves it set. The second launch computes
// the right result, and the first one's error is still there when the
// harness asks (cudaGetLastError), so the call fails with it.
#include "lab.h"

#define TILE 64

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    unrolled<<<grid, dim3(TILE, 32)>>>(out, in, rows, cols);
    if (cudaPeekAtLastError() != cudaSuccess)
        unrolled<<<grid, dim3(TILE, 16)>>>(out, in, rows, cols);
}
