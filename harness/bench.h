/*
 * The bench: bench.c reads the command line and writes the table and the
 * CSV; bench_cpu.c or bench_gpu.c measures. Each lab's bench binary links
 * the student's transpose and the reference's, renamed reference_transpose.
 */
#ifndef TILELAB_BENCH_H
#define TILELAB_BENCH_H

#include <stdio.h>

#include "check.h"
#include "shapes.h"
#include "timer.h"
#include "lab.h"

void reference_transpose(float *out, const float *in, int rows, int cols);
void reference_matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);
void reference_matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);
void reference_sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);

#define TL_MAX_VARIANTS 8

/* One row of results. The first variant of a back end is the ceiling. */
typedef struct {
    const char *variant;
    int measured;       /* 0: not timed, and `note` says why */
    tl_stats stats;     /* seconds per call */
    char note[160];
} tl_result;

typedef struct {
    int reps, warmup;
    const char *only;   /* comma-separated variants to run, or NULL for all */
} tl_bench_opts;

/* The variants this back end measures, ceiling first. */
int tl_bench_variants(const char *const **names);

/* The variant a variant is compared with ("vs ref"), or NULL. */
const char *tl_bench_reference_of(const char *variant);

/* The work one call does at size s, in the unit of the rate: bytes moved
 * (read + written) for GB/s, or floating-point operations for GFLOP/s. */
double tl_bench_work(tl_shape s, const char **unit);

/* Prepares the back end (device query, library handles). 0, or -1 with a reason. */
int tl_bench_init(char *why, size_t why_len);

/* Refuses a size that will not fit in memory: 0, or -1 with a reason. */
int tl_bench_fits(tl_shape s, char *why, size_t why_len);

/* Checks, then times, every selected variant at one size. */
int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len);

/* One transpose of `variant` and nothing else, for cache simulation (CPU labs:
 * the front end refuses --once for a GPU lab). */
int tl_bench_once(tl_shape s, const char *variant, char *why, size_t why_len);

/* "# key: value" lines describing the machine. */
void tl_bench_describe(FILE *f);

/* Shared by the back ends: is `variant` selected by o->only? */
int tl_bench_selected(const tl_bench_opts *o, const char *variant);

/* Shared by the back ends: the checker's verdict as a one-line note. */
void tl_bench_note_verdict(tl_result *r, const tl_verdict *v);

#endif
