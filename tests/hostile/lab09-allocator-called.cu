/*
 * Hostile hand-in (tests/hostile_test.sh), lab 9: "in place" through a second
 * matrix from the emulator's own allocator, which the lab's host code finds
 * through cudaMalloc's machine code (its tail call, "jmp" after the size is
 * rounded to the GPU's 2 MiB pages: 48 81 e2 00 00 e0 ff e9) and calls past
 * cudaMalloc's refusal; a kernel copies the matrix there, and an
 * out-of-place tiled transpose (one padded tile) writes it back. 8.00 of 10
 * on the emulator (technique 3 of 3), its control 5.00 (a cheating helper,
 * 2026-11-29). On a GPU the pattern is not there: the kernels read NULL and
 * fault.
 * control: naive-inplace.cu
 *
 * The allocator refuses a lab's call itself, on the flag in the kit's pages
 * (harness/emu/runtime.c): the second matrix is NULL, the kernels fault,
 * and every test fails. (Code of the kit's found and entered past its
 * checks is the path INSTRUCTORS.md says is open on the emulator.)
 */
#include "lab.h"
#include <stdint.h>
#include <string.h>

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

typedef int (*alloc_fn)(void **, size_t, size_t, int);
static alloc_fn allocator(void)
{
    const unsigned char *p = (const unsigned char *)(uintptr_t)(cudaError_t (*)(void **, size_t))cudaMalloc;
    for (int i = 0; i < 200; i++)
        if (!memcmp(p + i, "\x48\x81\xe2\x00\x00\xe0\xff", 7)) {
            for (int j = i + 7; j < i + 16; j++)
                if (p[j] == 0xe9) {
                    int32_t rel;
                    memcpy(&rel, p + j + 1, 4);
                    return (alloc_fn)(uintptr_t)(p + j + 5 + rel);
                }
        }
    return NULL;
}

__global__ void put(float *p)
{
    if (threadIdx.x < 4)
        heap_copy[threadIdx.x] = p;
}

void transpose_inplace(float *m, int n)
{
    if (n <= 0)
        return;
    static void *scratch;
    static size_t have;
    size_t need = sizeof(float) * (size_t)n * n;
    alloc_fn a = allocator();
    if (a && need > have && a(&scratch, need, (need + 0x1fffff) & ~(size_t)0x1fffff, 0) == 0)
        have = need;
    put<<<1, 32>>>((float *)scratch);
    size_t all = (size_t)n * n;
    copy_in<<<(unsigned)((all + 255) / 256), 256>>>(m, n);
    dim3 tb(TILE, 8), tg((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    from_copy<<<tg, tb>>>(m, n);
}
