/*
 * Hostile hand-in (tests/hostile_test.sh), lab 2: the measuring program's
 * own work made cheaper in the student's run than in the baseline it is
 * subtracted from (reference-kernels#162's timing-layer family: the call's
 * own work honest, what the measurement does around it changed by the code
 * it measures).
 * control: blocked-4.c
 *
 * The control's loop, and a constructor that maps every byte of data the
 * process may still map (RLIMIT_DATA), then gives 24 MiB back: room for
 * the two matrices, none for the 32 MiB pass the measuring program makes
 * before the call to clear the simulated caches, whose million misses the
 * baseline counts. Then it reads a small array over and over, first-level
 * misses that hit the last level, enough to clear the grader's floor on
 * first-level misses: 10 of 10 where its control scored 6.26 (session 15).
 * The pass now reads a static array of the measuring program, mapped before
 * any code of the lab file runs: its misses are counted in both runs, and
 * the constructor's reads are the hand-in's own.
 */
#define _GNU_SOURCE
#include "lab.h"

#include <stddef.h>
#include <sys/mman.h>

#ifndef BLOCK
#define BLOCK 4
#endif

#define MAPPED (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

static unsigned char small[256 << 10];

__attribute__((constructor)) static void starve(void)
{
    void *keep = mmap(NULL, (size_t)24 << 20, PROT_READ | PROT_WRITE, MAPPED, -1, 0);
    for (size_t size = (size_t)1 << 40; size >= ((size_t)1 << 20);)
        if (mmap(NULL, size, PROT_READ | PROT_WRITE, MAPPED, -1, 0) == MAP_FAILED)
            size /= 2;
    if (keep != MAP_FAILED)
        munmap(keep, (size_t)24 << 20);
    volatile unsigned char *p = small;
    unsigned sum = 0;
    for (int k = 0; k < 200; k++)
        for (size_t i = 0; i < sizeof small; i += 64)
            sum += p[i];
    (void)sum;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    for (int rb = 0; rb < rows; rb += BLOCK)
        for (int cb = 0; cb < cols; cb += BLOCK)
            for (int r = rb; r < rb + BLOCK && r < rows; r++)
                for (int c = cb; c < cb + BLOCK && c < cols; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
