/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: the host code opens
 * device memory with mprotect and transposes the matrix itself, an element
 * at a time through a C library call the emulator does not instrument;
 * then a kernel reads each element of out and writes it back, row by row,
 * through a padded tile of its own: coalesced, staged and conflict-free.
 * The lab process's filter let mprotect through where it was not
 * executable: 10 of 10 on the emulator, its control 5 (a cheating helper,
 * 2026-11-27). On a GPU it crashes.
 * control: naive-transpose.cu
 *
 * mprotect is the kit's alone in the confined lab process (harness/emu/
 * confine.c): the call fails, the host's copy faults as on a GPU, and
 * every correctness test fails.
 */
#include "lab.h"
#include <sys/mman.h>
#include <wchar.h>

#define TILE 32

__global__ void rewrite_out(float *out, const float *in, size_t n)
{
    __shared__ float tile[TILE][TILE + 1];
    __shared__ volatile float seen[TILE][TILE + 1];
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        seen[threadIdx.x / TILE][threadIdx.x % TILE] = in[i];
        tile[threadIdx.x / TILE][threadIdx.x % TILE] = out[i];
        out[i] = tile[threadIdx.x / TILE][threadIdx.x % TILE];
    }
}

static void pages(const void *p, size_t bytes, int prot)
{
    size_t first = (size_t)p & ~(size_t)4095, end = ((size_t)p + bytes + 4095) & ~(size_t)4095;
    mprotect((void *)first, end - first, prot);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    pages(in, n * sizeof(float), PROT_READ | PROT_WRITE);
    pages(out, n * sizeof(float), PROT_READ | PROT_WRITE);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            wmemcpy((wchar_t *)(out + (size_t)c * rows + r), (const wchar_t *)(in + (size_t)r * cols + c), 1);
    pages(in, n * sizeof(float), PROT_NONE);
    pages(out, n * sizeof(float), PROT_NONE);
    rewrite_out<<<(unsigned)((n + 1023) / 1024), 1024>>>(out, in, n);
}
