/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: the naive transpose whose
 * strided writes are made by the C library's wmemcpy, handed to the kernel
 * as a function pointer from the host, so that the emulator ran it as the
 * CPU's own uninstrumented code: no store checked or counted, the writes
 * "coalesced" for want of any, and a per-thread padded tile (each thread
 * reads back its own word) for "staged" and "conflict-free". It scored 10 of
 * 10 on the emulator (issue 36), its control 5.
 * control: naive-transpose.cu
 *
 * A kernel calls only device code: on a GPU a host function's address is no
 * instruction of the GPU's and the kernel fails; the emulator refuses a call
 * through a pointer to anything its build of the file did not compile
 * (harness/emu/indirect.c), with that reason. Every test fails.
 */
#include "lab.h"
#include <wchar.h>

typedef wchar_t *(*word_copy)(wchar_t *, const wchar_t *, size_t);

__global__ void through_pointer(float *out, const float *in, int rows, int cols, word_copy put)
{
    __shared__ float pad[8][33];
    int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
    bool inside = r < rows && c < cols;
    if (inside)
        pad[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    if (inside) {
        float v = pad[threadIdx.y][threadIdx.x];
        put((wchar_t *)(out + (size_t)c * rows + r), (const wchar_t *)&v, 1);
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    through_pointer<<<grid, block>>>(out, in, rows, cols, wmemcpy);
}
