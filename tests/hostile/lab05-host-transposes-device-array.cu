/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: the transpose made by host
 * code in __device__ arrays: a kernel copies in into one, coalesced and
 * through a padded tile an element at a time; the lab's host code, between
 * the launches, transposes that array into a second; a kernel copies the
 * second out the same way, the arrays reached by host code through the
 * pointers cudaGetSymbolAddress gives (nvcc refuses a host function that
 * names a __device__ variable). The emulator closed its cudaMalloc memory to
 * host code but not the lab's __device__ variables, whose host accesses it
 * neither refused nor counted: 8.00 of 10 (technique 3 of 3), its control
 * 5.00 (a cheating helper, 2026-11-28).
 * control: naive-transpose.cu
 */
#include "lab.h"

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
            b[(size_t)c * rows + r] = a[(size_t)r * cols + c];
    copy<<<(unsigned)((n + 255) / 256), block>>>(out, b, n);
}
