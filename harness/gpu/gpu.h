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
#include "launch.h"
#include "timer.h"

/* The runtime underneath, by name, for the checker's messages: a GPU's, or the emulator's. */
extern const char tl_gpu_runtime_name[32];

/*
 * The error of the lab call just made, as cudaGetLastError() gives it, and
 * in *said why the runtime refused the call, or NULL (the emulator refuses
 * what a GPU's launch plan would: emu.h). gpu.c defines it weakly; where a lab's calls are launch plans
 * run by the kit (lab/lab_plans.c), the plan's error, and in *said what the
 * kit refused of the plan when that is the error.
 */
cudaError_t tl_gpu_lab_error(const char **said);

/*
 * Where a lab's calls are launch plans run by the kit (lab/lab_plans.c):
 * from tl_gpu_lab_plans_ahead(1) to tl_gpu_lab_plans_ahead(0) a lab call
 * only has its plan made (its lab process asked, and kept running), and
 * (0) ends the lab process; a later call with the same arguments runs its
 * plan without asking. The bench makes the plans of all its timed calls so,
 * before it times any (bench_fresh.h), so that the events time the kernels
 * alone. 1 where calls are plans; 0 where a lab's function is called
 * directly, and there is nothing to make (gpu.c defines it weakly so).
 */
int tl_gpu_lab_plans_ahead(int on);

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
 * Kernel launches seen since the last reset (launch.h). On a GPU the harness
 * interposes the runtime's launch hook (cuda_launch_hook.c), so it sees
 * each <<<grid, block, shared>>> even when the launch itself fails; kernel
 * is its name (launch.h), or NULL where it is not known.
 */
void tl_launch_record(dim3 grid, dim3 block, size_t shared, const char *kernel);
/*
 * The error a refused launch gives: cudaErrorInvalidValue for either fault
 * from CUDA 13 (as the H100 answers: plots/data/launch-limits-h100.txt),
 * cudaErrorInvalidConfiguration before. cudaSuccess for a launch a GPU runs.
 */
cudaError_t tl_launch_refusal(dim3 grid, dim3 block);

/*
 * One operation to time. launch is what the events time; prepare runs
 * before each repetition and verify after it, both outside the events
 * (either may be NULL). verify gets the repetition's number and whether it
 * was the last; it returns 0, or -1 with what was wrong.
 */
typedef struct {
    cudaError_t (*launch)(void *ctx);
    cudaError_t (*prepare)(void *ctx);
    int (*verify)(void *ctx, int rep, int last, char *why, size_t why_len);
    void *ctx;
} tl_gpu_op;

/*
 * Runs op once, prepare first, and waits for it: `bench --once VARIANT` for
 * compute-sanitizer. 0, or -1 with the CUDA error explained; a stub's TODO is
 * said on stdout with the variant's name.
 */
int tl_gpu_once(const tl_gpu_op *op, const char *variant, char *why, size_t why_len);

/* Warm-up lasts at least this long (and `warmup` runs): a GPU that was idle
 * raises its clocks over tens of milliseconds, so a few short launches are
 * not enough for the first size of a run. */
#define TL_GPU_WARMUP_SECONDS 0.1

/*
 * Times op->launch with CUDA events, one event pair per repetition, after
 * `warmup` untimed runs (none when 0, else for at least
 * TL_GPU_WARMUP_SECONDS). When flush_bytes > 0 the L2 cache is overwritten
 * before each repetition, so a matrix that fits in L2 is still measured
 * against device memory. 0, or -1 with a reason.
 */
int tl_gpu_time(const tl_gpu_op *op, int warmup, int reps, size_t flush_bytes, tl_stats *stats,
                char *why, size_t why_len);

#endif
