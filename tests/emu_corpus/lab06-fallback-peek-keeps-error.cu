// expect: fail cudaErrorInvalidValue
// The fallback of lab06-fallback-after-refused-launch.cu, but the refusal
// is read with cudaPeekAtLastError(), which leaves it set: the second
// launch computes the right result, and the error of the first is still
// there when the harness asks, so the call fails with it.
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
