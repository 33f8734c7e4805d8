/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: the transpose made by host
 * code in __device__ arrays, as lab05-host-transposes-device-array.cu makes
 * it, each element moved by the C library's wmemcpy, which the emulator's
 * instrumentation does not see: a kernel copies in into one array,
 * coalesced and through a padded tile; host code, between the launches,
 * transposes it into a second, through cudaGetSymbolAddress's pointers; a
 * kernel copies the second out. Once the emulator refused host code's
 * instrumented accesses to a kernel's variables, this path still scored
 * 8.00 of 10 (technique 3 of 3), its control 5.00 (a cheating helper,
 * 2026-11-28).
 * control: naive-transpose.cu
 */
#include "lab.h"

#include <wchar.h>

#define MOST 256
#define TILE 32

__device__ float staged_in[MOST * MOST];
__device__ float staged_out[MOST * MOST];

/* A coalesced copy, each element through a padded tile at its own place. */
__global__ void copy(float *dst, const float *src, size_t n)
{
    __shared__ float tile[8][TILE + 1];
    size_t i = (size_t)blockIdx.x * 256 + threadIdx.y * TILE + threadIdx.x;
    if (i < n)
        tile[threadIdx.y][threadIdx.x] = src[i];
    __syncthreads();
    if (i < n)
        dst[i] = tile[threadIdx.y][threadIdx.x];
}

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    if (n > (size_t)MOST * MOST) {
        dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
        naive<<<grid, block>>>(out, in, rows, cols);
        return;
    }
    float *a, *b;
    cudaGetSymbolAddress((void **)&a, staged_in);
    cudaGetSymbolAddress((void **)&b, staged_out);
    dim3 block(TILE, 8);
    copy<<<(unsigned)((n + 255) / 256), block>>>(a, in, n);
    cudaDeviceSynchronize();
    /* host code, between the launches: the transpose itself */
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            wmemcpy((wchar_t *)&b[(size_t)c * rows + r], (const wchar_t *)&a[(size_t)r * cols + c], 1);
    copy<<<(unsigned)((n + 255) / 256), block>>>(out, b, n);
}
