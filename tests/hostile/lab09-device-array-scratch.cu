/*
 * Hostile hand-in (tests/hostile_test.sh), lab 9: "in place" through a
 * second matrix of its own that is no cudaMalloc: the matrix copied into a
 * __device__ array the size of the largest matrix it expects, then an
 * out-of-place tiled transpose from there back into the matrix, one tile a
 * block. cudaMalloc was refused, static device memory was not, and the
 * "two shared tiles" check passed with one tile: 8.04 of 10, its control
 * 5.00 (a tester, 2026-11-30).
 * control: naive-inplace.cu
 *
 * The lab process refuses an in-place call of a file whose own variables
 * hold more than TL_INPLACE_OWN_BYTES (lab.h), on the emulator and on a GPU:
 * every call fails, nothing is timed.
 */
#include "lab.h"

#define MOST 512 /* the emulator's graded size is 256 x 256; a GPU's 4096 would need 64 MiB */
#define TILE 32

__device__ float scratch[MOST * MOST];

__global__ void naive(float *m, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n && r < c) {
        float t = m[(size_t)r * n + c];
        m[(size_t)r * n + c] = m[(size_t)c * n + r];
        m[(size_t)c * n + r] = t;
    }
}

__global__ void from_scratch(float *m, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        if (r + j < n && c < n)
            tile[threadIdx.y + j][threadIdx.x] = scratch[(size_t)(r + j) * n + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        if (r + j < n && c < n)
            m[(size_t)(r + j) * n + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_inplace(float *m, int n)
{
    if (n > MOST) {
        dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
        naive<<<grid, block>>>(m, n);
        return;
    }
    cudaMemcpyToSymbol(scratch, m, sizeof(float) * n * n, 0, cudaMemcpyDeviceToDevice);
    dim3 block(TILE, 8), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    from_scratch<<<grid, block>>>(m, n);
}
