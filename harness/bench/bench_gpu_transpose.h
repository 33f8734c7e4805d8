#ifndef TILELAB_BENCH_GPU_TRANSPOSE_H
#define TILELAB_BENCH_GPU_TRANSPOSE_H

/*
 * What the bench's GPU back ends share, first those of the transposes
 * (bench_transpose.c, out of place; bench_inplace.c, in place): starting on the GPU, whether a
 * size fits, and the check of a timed call's output.
 */
#include "bench.h"
#include "bench_gpu_run.h"
#include "gpu.h"

#include <stdint.h>

/* The GPU, or why there is none, in the words the bench prints. */
int tl_bench_gpu_start(tl_gpu_info *info, char *why, size_t why_len);

/* The GPU's lines of a bench's header (tl_gpu_describe) and the host's "# host:" line. */
void tl_bench_gpu_describe(FILE *f, const tl_gpu_info *info);

/* Whether s fits: `copies` matrices of s on the GPU beside the L2 flush
 * buffer, and three on the host to check the result. */
int tl_bench_gpu_fits(tl_shape s, const tl_gpu_info *info, int copies, char *why, size_t why_len);

/* A timed call's output on the GPU, and what it must hold. */
typedef struct {
    const float *d_out; /* what the call wrote */
    float *h_out;       /* room for all of it, to check it whole */
    const float *h_in;  /* the matrix the call read */
    tl_shape s;         /* its shape */
    int transposed;     /* 1: out is in transposed; 0: a copy of it */
    int nan_any;        /* cuBLAS: a NaN may come out as another NaN */
    uint64_t *samples;  /* the sampler's state */
} tl_gpu_output;

/* tl_bench_bound of a transpose: 125 % of the device-to-device copy's rate in
 * this run (r[0], the ceiling: a transpose moves the bytes a copy moves, and
 * the best reach the copy's rate, a few per cent above at most), or the
 * memory's theoretical peak where the copy was not timed. */
double tl_bench_gpu_copy_bound(const tl_gpu_info *info, tl_shape s, const tl_result *r, int n, char *how,
                               size_t how_len);

/* After each timed call, some elements at random; after the last one, all of them. */
int tl_bench_gpu_verify(const tl_gpu_output *o, int rep, int last, char *why, size_t why_len);

/*
 * A transpose's matrices at one size, from which its back end's context
 * (tl_bench_gpu's) takes its own: the input and the output, each a pool
 * (bench_fresh.h) for timing, or one matrix of exactly the size for --once
 * (ins.h NULL then); and room on the host to check an output whole.
 */
typedef struct {
    tl_fresh ins, outs;
    float *h_out;
    tl_shape s;
} tl_gpu_transposes;

/* tl_bench_size and tl_bench_once of a transpose's back end g, on a tl_gpu_transposes. */
int tl_bench_gpu_transpose_size(const tl_bench_gpu *g, tl_shape s, const tl_bench_opts *o, tl_result *results,
                                char *why, size_t why_len);
int tl_bench_gpu_transpose_once(const tl_bench_gpu *g, tl_shape s, const tl_variant *v, char *why,
                                size_t why_len);

#endif
