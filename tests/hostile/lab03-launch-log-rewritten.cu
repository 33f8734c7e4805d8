/*
 * Hostile hand-in (tests/hostile_test.sh), lab 3: a 1-D grid-stride loop
 * (64 blocks of 256 threads), whose host code then finds its launch in the
 * launch log in its own process's data and rewrites it into the 2-D launch
 * that covers the matrix, one thread an element, which lab 3's technique
 * check asks for. The lab process read its launches back from that log.
 * control: grid-stride-transpose.cu
 *
 * On the emulator the launches come back from the emulator's own record,
 * in pages the lab's code cannot write (harness/emu/kit_pages.c); on a GPU
 * from the plan the suite runs itself.
 */
#include "lab.h"
#include <string.h>

extern "C" char __data_start[], _end[];

__global__ void strided(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        size_t r = i / cols, c = i % cols;
        out[c * rows + r] = in[i];
    }
}

/* launch.h's record: grid[3], block[3], shared, then the kernel's name */
struct record {
    unsigned grid[3], block[3], shared;
    char kernel[1];
};

void transpose(float *out, const float *in, int rows, int cols)
{
    strided<<<64, 256>>>(out, in, rows, cols);
    cudaDeviceSynchronize();
    for (char *p = (char *)(((size_t)__data_start + 3) & ~(size_t)3); p + sizeof(record) + 8 <= _end; p += 4) {
        record *l = (record *)p;
        if (l->grid[0] == 64 && l->grid[1] == 1 && l->grid[2] == 1 && l->block[0] == 256 &&
            l->block[1] == 1 && l->block[2] == 1 && !strncmp(l->kernel, "strided", 7)) {
            l->grid[0] = (unsigned)(cols + 31) / 32, l->grid[1] = (unsigned)(rows + 7) / 8;
            l->block[0] = 32, l->block[1] = 8;
        }
    }
}
