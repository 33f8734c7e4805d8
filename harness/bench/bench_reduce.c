/*
 * The bench's GPU back end of the reduction (lab 10): the read-only stream
 * of the same n floats (the ceiling, bench_reduce.cu), the device-to-device
 * copy of them (the ceiling of the labs before, for comparison), the
 * reference, the student's code and CUB's DeviceReduce::Sum.
 *
 * Every timed call sums a slice of a pool it has not seen (bench_fresh.h)
 * into a float it has not seen, poisoned first. The pool holds the
 * checker's data (tl_reduce_fill over all of it), multiples of 1/8 whose
 * magnitudes add up to less than 2^24 eighths: every slice sums exactly in
 * any order, so each call's float is held, bit for bit, to the slice's sum,
 * which prefix sums taken once a size give at once.
 */
#include "bench_gpu_transpose.h"
#include "bench_reduce.h"
#include "check_reduce.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void stream_read(float *out, const float *in, size_t n);
static void cub_sum(float *out, const float *in, size_t n);

static const tl_variant before[] = {TL_CEILING_READ_GPU(TL_VARIANT){0}};
static const tl_variant after[] = {TL_LIBRARY_REDUCE_GPU(TL_VARIANT){0}};
TL_BENCH_TABLE(before, after)

/* Bench_fresh.h's offsets are multiples of this many floats: the prefix sums' step. */
#define STEP 64
/* Any word: the stream stores its fold only where it equals this (bench_reduce.h). */
#define SENTINEL 0x7eed1e55u

static tl_gpu_info info;
/* What the stream and CUB take besides a call's arguments, and the error of their launch
 * (tl_stream_read and CUB take it from cudaGetLastError). */
static unsigned *d_sink;
static void *d_scratch;
static size_t scratch_bytes;
static cudaError_t own_error;

int tl_bench_init(char *why, size_t why_len)
{
    if (tl_bench_gpu_start(&info, why, why_len) != 0)
        return -1;
    cudaError_t err = cudaMalloc((void **)&d_sink, sizeof *d_sink);
    if (err)
        tl_gpu_explain(err, why, why_len);
    return err ? -1 : 0;
}

static void stream_read(float *out, const float *in, size_t n)
{
    (void)out; /* nothing to sum */
    own_error = tl_stream_read(in, n, d_sink, SENTINEL, info.sms);
}

static void cub_sum(float *out, const float *in, size_t n)
{
    own_error = tl_cub_sum(d_scratch, scratch_bytes, in, out, n);
}

/* The pool (n floats at any of its offsets), the copy's destination, CUB's scratch and the
 * L2 flush, refused past nine tenths of the GPU's memory; the pool again on the host. */
int tl_bench_fits(tl_shape s, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s), scratch = 0;
    if (tl_cub_sum_fits(n))
        tl_cub_sum_bytes(n, &scratch);
    double bytes = 2.0 * info.l2_bytes + 2.0 * n * sizeof(float) + (double)scratch + (1 << 20);
    if (bytes <= 0.9 * (double)info.global_bytes)
        return 0;
    snprintf(why, why_len, "n = %zu needs %.1f GB on the GPU, which has %.1f GB", n, bytes / 1e9,
             info.global_bytes / 1e9);
    return -1;
}

/* The sum's buffers at one size: its pool of inputs and of outputs (bench_fresh.h), the copy's
 * destination and the pool's prefix sums. */
typedef struct {
    tl_fresh ins, outs;
    float *copy_to;
    double *prefix;
    tl_shape s;
} at_size;

typedef struct {
    tl_bench_draws draws;  /* where each timed call's in and out come from (bench_fresh.h) */
    const tl_variant *v;
    float *out;            /* one float */
    const float *in;       /* n floats */
    float *copy_to;        /* the copy's n floats */
    tl_shape s;
    const double *prefix;  /* the pool's prefix sums, in quanta, every STEP floats */
} launch_ctx;

static void context(void *p, void *size, const tl_variant *v, int k)
{
    at_size *at = size;
    launch_ctx c = {{&at->ins, &at->outs}, v, at->outs.d, at->ins.d, at->copy_to, at->s, at->prefix};
    (void)k;
    *(launch_ctx *)p = c;
}

static cudaError_t launch(void *p)
{
    launch_ctx *c = p;
    if (!c->v->fn)
        return cudaMemcpyAsync(c->copy_to, c->in, tl_shape_elements(c->s) * sizeof(float),
                               cudaMemcpyDeviceToDevice, 0);
    own_error = cudaSuccess;
    tl_bench_invoke(&tl_call_reduce, (tl_entry_fn)c->v->fn, c->out, c->in, NULL, c->s);
    cudaError_t err = tl_gpu_lab_error(NULL);
    return own_error ? own_error : err;
}

/* Before each timed call: a slice of the pool it has not seen, and *out poisoned. */
static cudaError_t fresh(void *p)
{
    launch_ctx *c = p;
    c->in = c->draws.ins->d + tl_fresh_next(c->draws.ins);
    c->out = c->draws.outs->d + tl_fresh_next(c->draws.outs);
    return cudaMemsetAsync(c->out, 0xff, sizeof(float), 0);
}

/* The exact sum of the pool's floats from `at` (a multiple of STEP) for n. */
static float slice_sum(const launch_ctx *c, size_t at)
{
    size_t n = tl_shape_elements(c->s), end = at + n, whole = end / STEP;
    double quanta = c->prefix[whole] - c->prefix[at / STEP];
    for (size_t i = whole * STEP; i < end; i++)
        quanta += (double)c->draws.ins->h[i] / TL_REDUCE_QUANTUM;
    return (float)(quanta * TL_REDUCE_QUANTUM);
}

/* After each timed call: its float is its slice's sum (the stream and the copy sum nothing). */
static int verify(void *p, int rep, int last, char *why, size_t why_len)
{
    launch_ctx *c = p;
    float got, want;
    (void)last;
    if (!c->v->fn || c->v->fn == (void (*)(void))stream_read)
        return 0;
    cudaError_t err = cudaMemcpy(&got, c->out, sizeof got, cudaMemcpyDeviceToHost);
    if (err) {
        tl_gpu_explain(err, why, why_len);
        return -1;
    }
    want = slice_sum(c, (size_t)(c->in - c->draws.ins->d));
    if (tl_bench_same(got, want, 0))
        return 0;
    snprintf(why, why_len, "WRONG in timed repetition %d: the sum was %.9g, not %.9g; each call "
             "must do all the work", rep + 1, (double)got, (double)want);
    return -1;
}

/* prefix[j]: the pool's first j * STEP floats summed, in quanta (exact: fewer than 2^24). */
static double *prefix_sums(const tl_fresh *pool)
{
    size_t total = pool->elements + pool->slack, steps = total / STEP;
    double *prefix = malloc((steps + 1) * sizeof *prefix), sum = 0;
    if (!prefix)
        return NULL;
    for (size_t j = 0; j < steps; j++) {
        prefix[j] = sum;
        for (size_t i = j * STEP; i < (j + 1) * STEP; i++)
            sum += (double)pool->h[i] / TL_REDUCE_QUANTUM;
    }
    prefix[steps] = sum;
    return prefix;
}

/* The checker first (not for the stream, the copy or CUB); CUB where this toolkit's counts n. */
static int ready(void *p, const tl_bench_opts *o, tl_result *r)
{
    launch_ctx *c = p;
    static tl_verdict v;
    const tl_variant *k = c->v;
    (void)o;
    if (!strcmp(k->role, "student") || !strcmp(k->role, "reference")) {
        tl_bench_op->check(&v, k->entry, (tl_entry_fn)k->fn, &tl_gpu_backend, c->s, tl_fresh_seed());
        if (!v.ok) {
            tl_bench_note_verdict(r, &v);
            return 0;
        }
    }
    if (k->fn == (void (*)(void))cub_sum && !tl_cub_sum_fits(tl_shape_elements(c->s))) {
        snprintf(r->note, sizeof r->note, "not timed: this toolkit's CUB counts items in an int, "
                 "and n is past 2^31 (CUDA 12.3 or later counts in size_t)");
        return 0;
    }
    return 1;
}

static cudaError_t poison(void *p)
{
    launch_ctx *c = p;
    return cudaMemsetAsync(c->out, 0xff, sizeof(float), 0);
}

static const tl_bench_gpu backend = {sizeof(launch_ctx), context, ready, launch, fresh, poison, verify, &info};

/* CUB's scratch for n floats, in d_scratch: cudaSuccess, or the error. */
static cudaError_t make_scratch(size_t n)
{
    cudaError_t err = cudaSuccess;
    scratch_bytes = 0;
    if (tl_cub_sum_fits(n) && !(err = tl_cub_sum_bytes(n, &scratch_bytes)))
        err = cudaMalloc(&d_scratch, scratch_bytes ? scratch_bytes : 1);
    return err;
}

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    at_size at = {.s = s};
    int rc = -1;
    cudaError_t err = cudaSuccess;
    if (tl_fresh_make(&at.ins, n, TL_FRESH_SUMS, why, why_len) ||
        tl_fresh_make(&at.outs, 1, TL_FRESH_EMPTY, why, why_len))
        goto done;
    if (!(at.prefix = prefix_sums(&at.ins))) {
        snprintf(why, why_len, "out of host memory");
        goto done;
    }
    if (!(err = make_scratch(n)))
        err = cudaMalloc((void **)&at.copy_to, n * sizeof(float));
    if (err) {
        tl_gpu_explain(err, why, why_len);
        goto done;
    }
    rc = tl_bench_gpu_measure(&backend, &at, o, results, why, why_len);
done:
    cudaFree(d_scratch);
    d_scratch = NULL;
    cudaFree(at.copy_to);
    free(at.prefix);
    tl_fresh_free(&at.ins);
    tl_fresh_free(&at.outs);
    return rc;
}

/* One call on buffers of exactly n floats and one, for compute-sanitizer. */
int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    float *d[3]; /* in, out, the copy's */
    int rc = tl_bench_gpu_buffers(d, (const size_t[]){n, 1, n}, 3, 1, TL_FRESH_SUMS, why, why_len);
    cudaError_t err;
    if (rc == 0 && (err = make_scratch(n))) {
        tl_gpu_explain(err, why, why_len);
        rc = -1;
    }
    if (rc == 0) {
        launch_ctx c = {{NULL, NULL}, v, d[1], d[0], d[2], s, NULL};
        rc = tl_bench_gpu_once(&backend, &c, v, why, why_len);
    }
    cudaFree(d_scratch);
    d_scratch = NULL;
    tl_bench_gpu_free(d, 3);
    return rc;
}

/* 125 % of the stream's rate in this run (r[0], the ceiling: a sum reads what the stream
 * reads, and the best reach its rate), or the memory's theoretical peak without it. */
double tl_bench_bound(tl_shape s, const tl_result *r, int n, char *how, size_t how_len)
{
    const char *unit;
    if (n > 0 && r[0].variant && !strcmp(r[0].variant->role, "ceiling") && r[0].measured) {
        double stream = tl_bench_work(s, &unit) / r[0].stats.median / 1e9;
        snprintf(how, how_len, "125 %% of the read-only stream's %.0f %s in this run", stream, unit);
        return 1.25 * stream;
    }
    snprintf(how, how_len, "the memory's theoretical %.0f GB/s", info.peak_gbps);
    return info.peak_gbps;
}

void tl_bench_describe(FILE *f)
{
    tl_bench_gpu_describe(f, &info);
    fprintf(f, "# inputs: new for each timed call, at new addresses (the checker's data, seed %llu: "
               "multiples of 1/8 that every order sums exactly); each sum checked bit for bit; the "
               "stream reads the same floats and sums nothing; a rate above 125 %% of the stream's "
               "is refused\n", (unsigned long long)tl_fresh_seed());
}
