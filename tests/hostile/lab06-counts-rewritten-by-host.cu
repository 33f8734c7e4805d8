/*
 * Hostile hand-in (tests/hostile_test.sh), lab 6: the naive transpose
 * (strided writes), after which the host code looks for the emulator's
 * count of it in its own process's memory, the program's data and the
 * pages the emulator keeps its counts in at their documented address, and
 * writes a padded tile's counts over it. The host code's accesses outside
 * device memory are not instrumented: when the counts lay in the program's
 * data, such a file earned every technique point of labs 4 to 9 (+17, a
 * cheating helper, 2026-11-27), its control none.
 * control: naive-transpose.cu
 *
 * The counts live in pages the lab's code can read and never write
 * (harness/emu/kit_pages.c; mprotect, munmap and madvise there are
 * refused): the search in the data finds nothing, and the first write into
 * the pages faults.
 */
#include "lab.h"
#include <sys/mman.h>

extern "C" char __data_start[], _end[];

typedef unsigned long long u64;

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* tl_emu_stats (emu.h): a name pointer, then 8-byte counters */
enum { NAME, LAUNCHES, BLOCKS, THREADS, GLR, GLS, GSR, GSS, SLR, SLW, SSR, SSW, GLB, GSB, SLI, SSI, FIELDS };

static int forge_in(u64 *p, u64 *end, u64 n, u64 threads)
{
    int forged = 0;
    for (; p + FIELDS <= end; p++) {
        if (p[NAME] == 0 || p[LAUNCHES] != 1 || p[THREADS] != threads || p[GLB] != 4 * n || p[GSB] != 4 * n)
            continue;
        u64 requests = (n + 31) / 32, sectors = (4 * n + 31) / 32;
        p[GLR] = p[GSR] = requests, p[GLS] = p[GSS] = sectors;
        p[SLR] = p[SLW] = p[SLI] = p[SSR] = p[SSW] = p[SSI] = requests;
        forged = 1;
    }
    return forged;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
    cudaDeviceSynchronize();
    u64 n = (u64)rows * cols, threads = (u64)grid.x * grid.y * 256;
    forge_in((u64 *)(((size_t)__data_start + 7) & ~(size_t)7), (u64 *)_end, n, threads);
    u64 *kit = (u64 *)0x6b0000000000ull; /* emulator.h's TL_EMU_KIT_BASE */
    mprotect(kit, 1 << 20, PROT_READ | PROT_WRITE);
    forge_in(kit, kit + (1 << 17), n, threads);
}
