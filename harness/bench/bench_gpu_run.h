#ifndef TILELAB_BENCH_GPU_RUN_H
#define TILELAB_BENCH_GPU_RUN_H

/*
 * What every GPU back end does with its table, written once: at a size, each
 * variant selected gets its launch context, is checked, has the student's
 * launch plans made before anything is timed (bench_fresh.h) and is timed by
 * tl_gpu_time; for --once, the call's buffers of exactly its size, inputs
 * filled, and one call. A back end brings only what is its own: its
 * context, its launch, what comes before each timed call, its check of the
 * output, and its buffers.
 */
#include "bench.h"
#include "bench_fresh.h"
#include "gpu.h"

/* What a back end's launch context starts with: the pools its timed calls draw their
 * matrices from (bench_fresh.h), or NULL where every call gets the same ones. */
typedef struct {
    tl_fresh *ins, *outs;
} tl_bench_draws;

typedef struct {
    size_t ctx_bytes; /* the size of its launch context, which starts with a tl_bench_draws */
    /* Variant k of the table (v), its context in ctx, from `size`: the back end's buffers
     * at this size, as its tl_bench_size passed them. */
    void (*context)(void *ctx, void *size, const tl_variant *v, int k);
    /* Whether r's variant may be timed: 1, or 0 with r's note saying why not (its checker's
     * verdict, a size it does not run at), or r measured by the back end itself (a CPU's
     * variant). NULL: every one may. */
    int (*ready)(void *ctx, const tl_bench_opts *o, tl_result *r);
    cudaError_t (*launch)(void *ctx);
    cudaError_t (*prepare)(void *ctx); /* before each timed call: its matrices, output poisoned */
    cudaError_t (*poison)(void *ctx);  /* before --once's call */
    int (*verify)(void *ctx, int rep, int last, char *why, size_t why_len);
    const tl_gpu_info *info;           /* its L2, flushed before each timed call */
} tl_bench_gpu;

/* tl_bench_size's loop over the variants o selects, with the back end's buffers at this
 * size in `size`: 0, or -1 with why (out of host memory). */
int tl_bench_gpu_measure(const tl_bench_gpu *g, void *size, const tl_bench_opts *o, tl_result *results,
                         char *why, size_t why_len);

/*
 * tl_bench_once's buffers: d[0 .. count) on the GPU, of floats[i] floats each; the first
 * `inputs` of them hold the values of one fill (bench_fresh.h's TL_FRESH_RANDOM or
 * TL_FRESH_SUMS, TL_DEFAULT_SEED) of their floats together, in their order; the others
 * nothing. 0, or -1 with why; tl_bench_gpu_free frees them, all or some.
 */
int tl_bench_gpu_buffers(float **d, const size_t *floats, int count, int inputs, int contents,
                         char *why, size_t why_len);
void tl_bench_gpu_free(float **d, int count);

/* The one call of --once, on the context ctx of variant v: poisoned first, then waited for. */
int tl_bench_gpu_once(const tl_bench_gpu *g, void *ctx, const tl_variant *v, char *why, size_t why_len);

#endif
