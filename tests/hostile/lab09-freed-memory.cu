/*
 * Hostile hand-in (tests/hostile_test.sh), lab 9: the answer read from memory
 * another computation left (KernelBench#82: the reference's output in memory
 * its allocator freed and handed out again).
 * control: naive-inplace.cu
 *
 * It does no transpose: it copies in whatever lies one matrix past its own,
 * where a previous call's buffers may have been. Outside its matrix the
 * emulator stops it, and a GPU run finds the margins the kit fills around
 * every matrix, never an answer: wrong, nothing timed.
 */
#include "lab.h"

__global__ void borrow(float *m, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    size_t all = (size_t)n * n;
    if (r < n && c < n)
        m[(size_t)r * n + c] = m[all + (size_t)r * n + c];
}

void transpose_inplace(float *m, int n)
{
    dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
    borrow<<<grid, block>>>(m, n);
}
