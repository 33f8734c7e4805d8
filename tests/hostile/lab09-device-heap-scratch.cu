/*
 * Hostile hand-in (tests/hostile_test.sh), lab 9: "in place" through a second
 * matrix from the device's heap: a one-block kernel mallocs n x n floats in
 * device code (neither cudaMalloc nor a variable of the file) and keeps the
 * address in a __device__ array of four (a sector written whole, so that
 * its store looks coalesced); a kernel copies the matrix there, and an
 * out-of-place tiled transpose (one padded tile) writes it back. The lab
 * process refused cudaMalloc and a file whose variables could hold a
 * matrix, not the heap: 8.00 of 10 on the emulator (technique 3 of 3), its
 * control 5.00 (a cheating helper, 2026-11-29). On a GPU the heap holds 8 MiB
 * unless cudaDeviceSetLimit raises it, which a lab's plan does not carry:
 * at 4096 x 4096 the malloc returns NULL and the kernels fault.
 * control: naive-inplace.cu
 *
 * An in-place call's heap holds what the file's variables leave of
 * TL_INPLACE_OWN_BYTES (lab.h): past it, a kernel's malloc fails the kernel
 * with the reason (harness/emu/emulator.c), and every test fails.
 */
#include "lab.h"

#define TILE 32

__device__ float *heap_copy[4];

__global__ void take(int n)
{
    __shared__ float *p;
    if (threadIdx.x == 0)
        p = (float *)malloc(sizeof(float) * (size_t)n * n);
    __syncthreads();
    if (threadIdx.x < 4)
        heap_copy[threadIdx.x] = p;
}

__global__ void copy_in(const float *m, int n)
{
    float *s = heap_copy[0];
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s && i < (size_t)n * n)
        s[i] = m[i];
}

__global__ void from_copy(float *m, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    const float *s = heap_copy[0];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        if (r + j < n && c < n)
            tile[threadIdx.y + j][threadIdx.x] = s[(size_t)(r + j) * n + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        if (r + j < n && c < n)
            m[(size_t)(r + j) * n + c] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void give_back(void)
{
    free(heap_copy[0]);
}

void transpose_inplace(float *m, int n)
{
    if (n <= 0)
        return;
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 30);
    take<<<1, 32>>>(n);
    size_t all = (size_t)n * n;
    copy_in<<<(unsigned)((all + 255) / 256), 256>>>(m, n);
    dim3 tb(TILE, 8), tg((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    from_copy<<<tg, tb>>>(m, n);
    give_back<<<1, 1>>>();
}
