/*
 * The GPU side of the harness: errors by name with their usual cause, the
 * device query, a backend for the checker, and kernel-only timing.
 */
#ifndef TILELAB_GPU_H
#define TILELAB_GPU_H

#include <stddef.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "timer.h"

/* "cudaErrorX (what the runtime says): what usually causes it" */
void tl_gpu_explain(cudaError_t err, char *buf, size_t len);

/* 1 when a CUDA device can be used; otherwise 0 and the reason in why. */
int tl_gpu_available(char *why, size_t why_len);

typedef struct {
    char name[256];
    int sms, cc_major, cc_minor;
    int mem_clock_khz, bus_bits;
    size_t l2_bytes, global_bytes;
    double peak_gbps; /* 2 (DDR) x memory clock x bus width, in 10^9 bytes/s */
} tl_gpu_info;

int tl_gpu_query(tl_gpu_info *info, char *why, size_t why_len);

/* "# machine:" and "# peak:" lines for a bench's CSV header. */
void tl_gpu_describe(FILE *f, const tl_gpu_info *info);

/* Runs a transpose on device copies of the checker's buffers. */
extern const tl_backend tl_gpu_backend;

/*
 * Kernel launches seen since the last reset. On a GPU the harness
 * interposes the runtime's launch hook (cuda_launch_hook.c), so it sees
 * each <<<grid, block>>> even when the launch itself fails.
 */
typedef struct {
    unsigned grid[3], block[3];
    size_t shared_bytes;
} tl_launch;

void tl_launch_record(dim3 grid, dim3 block, size_t shared_bytes);
int tl_launch_count(void);
const tl_launch *tl_launch_get(int i);
void tl_launch_reset(void);

/*
 * Times `launch` with CUDA events, one event pair per repetition, after
 * `warmup` untimed runs. When flush_bytes > 0 the L2 cache is overwritten
 * before each repetition, so a matrix that fits in L2 is still measured
 * against device memory. 0, or -1 with a reason.
 */
typedef cudaError_t (*tl_gpu_launch_fn)(void *ctx);
int tl_gpu_time(tl_gpu_launch_fn launch, void *ctx, int warmup, int reps, size_t flush_bytes,
                tl_stats *stats, char *why, size_t why_len);

#endif
