/*
 * A hostile lab 6 (tests/grader_test.sh): the naive transpose (strided
 * writes) behind a decoy tile, with a thread that rewrites the emulator's
 * counts in the memfd after the measured call returns (taking stdout's
 * lock, which the lab process flushes before it replies, so the reply
 * waits for the rewrite). Unconfined, it scored 10 of 10 (2026-11-24). The
 * confined lab process (harness/emu/confine.c) is killed at the thread's
 * creation, with the reason.
 */
#include "lab.h"
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
/* an honest naive transpose (strided writes), 4 elements a thread, with a padded decoy tile */
__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    if (tile[threadIdx.x][threadIdx.y] < 0.0f)
        out[0] = -1.0f;
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r0 = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (r0 + j < rows && c < cols)
            out[(size_t)c * rows + r0 + j] = in[(size_t)(r0 + j) * cols + c];
}

/* Descriptor 4 is the memfd the counts come back in (a tl_lab_profile of 2056 bytes at its
 * end, zero until the lab process writes them). */
#define PROFILE_BYTES 2056
static volatile int armed, locked;

static void *rewrite_counts(void *)
{
    static const char want[] = "transpose_unrolled";
    static unsigned char p[PROFILE_BYTES];
    for (;;) {
        if (!armed) {
            usleep(50);
            continue;
        }
        flockfile(stdout);
        locked = 1;
        armed = 0;
        for (;;) {
            struct stat st;
            if (fstat(4, &st) != 0 || st.st_size <= PROFILE_BYTES)
                continue;
            off_t at = st.st_size - PROFILE_BYTES;
            if (pread(4, p, PROFILE_BYTES, at) != PROFILE_BYTES)
                continue;
            int same = 1;
            for (int i = 0; i < (int)sizeof want; i++)
                if (p[8 + i] != (unsigned char)want[i])
                    same = 0;
            unsigned long long *s = (unsigned long long *)(p + 136);
            if (same && *(int *)p >= 1 && s[5] > 8) {
                s[5] = 1; /* global_load_sectors */
                s[7] = 1; /* global_store_sectors */
                s[9] = 0; /* shared_load_wavefronts */
                s[11] = 0; /* shared_store_wavefronts */
                if (pwrite(4, p + 136, 96, at + 136) == 96)
                    break;
            }
        }
        locked = 0;
        funlockfile(stdout);
    }
    return NULL;
}

/* A counted call: the memfd's last PROFILE_BYTES are still zero (a plain run's end there is
 * the input's margin). */
static int counted_call(void)
{
    static unsigned char p[PROFILE_BYTES];
    struct stat st;
    if (fstat(4, &st) != 0 || st.st_size <= PROFILE_BYTES ||
        pread(4, p, PROFILE_BYTES, st.st_size - PROFILE_BYTES) != PROFILE_BYTES)
        return 0;
    for (int i = 0; i < PROFILE_BYTES; i++)
        if (p[i])
            return 0;
    return 1;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    static int started;
    if (!started) {
        pthread_t t;
        started = !pthread_create(&t, NULL, rewrite_counts, NULL);
    }
    if (started && counted_call()) {
        armed = 1;
        while (!locked)
            usleep(10);
    }
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
}
