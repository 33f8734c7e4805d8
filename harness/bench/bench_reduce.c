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
#include "bench_fresh.h"
#include "bench_gpu_transpose.h"
#include "bench_reduce.h"
#include "check_reduce.h"
#include "sysinfo.h"

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

typedef struct {
    const tl_variant *v;
    float *out;            /* one float */
    const float *in;       /* n floats */
    float *copy_to;        /* the copy's n floats */
    tl_shape s;
    const double *prefix;  /* the pool's prefix sums, in quanta, every STEP floats */
    tl_fresh *ins, *outs;  /* where each timed call's in and out come from (bench_fresh.h) */
} launch_ctx;

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
    c->in = c->ins->d + tl_fresh_next(c->ins);
    c->out = c->outs->d + tl_fresh_next(c->outs);
    return cudaMemsetAsync(c->out, 0xff, sizeof(float), 0);
}

/* The exact sum of the pool's floats from `at` (a multiple of STEP) for n. */
static float slice_sum(const launch_ctx *c, size_t at)
{
    size_t n = tl_shape_elements(c->s), end = at + n, whole = end / STEP;
    double quanta = c->prefix[whole] - c->prefix[at / STEP];
    for (size_t i = whole * STEP; i < end; i++)
        quanta += (double)c->ins->h[i] / TL_REDUCE_QUANTUM;
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
    want = slice_sum(c, (size_t)(c->in - c->ins->d));
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

/* The checker first (not for the stream, the copy or CUB), then the timing. */
static void measure(launch_ctx c, const tl_bench_opts *o, tl_result *r)
{
    static tl_verdict v;
    const tl_variant *k = c.v;
    int lab = !strcmp(k->role, "student") || !strcmp(k->role, "reference");
    if (lab) {
        tl_bench_op->check(&v, k->entry, (tl_entry_fn)k->fn, &tl_gpu_backend, c.s, tl_fresh_seed());
        if (!v.ok) {
            tl_bench_note_verdict(r, &v);
            return;
        }
    }
    if (k->fn == (void (*)(void))cub_sum && !tl_cub_sum_fits(tl_shape_elements(c.s))) {
        snprintf(r->note, sizeof r->note, "not timed: this toolkit's CUB counts items in an int, "
                 "and n is past 2^31 (CUDA 12.3 or later counts in size_t)");
        return;
    }
    tl_gpu_op op = {launch, fresh, verify, &c};
    if (!strcmp(k->role, "student")) { /* its plans, made before anything is timed */
        tl_fresh ins_again = *c.ins, outs_again = *c.outs;
        launch_ctx rehearsal = c;
        rehearsal.ins = &ins_again, rehearsal.outs = &outs_again;
        tl_fresh_plan_ahead(&op, &rehearsal, o->reps);
    }
    if (tl_gpu_time(&op, o->warmup, o->reps, 2 * info.l2_bytes, &r->stats, r->note,
                    sizeof r->note) == 0)
        r->measured = 1;
}

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    tl_fresh ins, outs;
    float *copy_to = NULL;
    double *prefix = NULL;
    int rc = -1;
    cudaError_t err = cudaSuccess;
    memset(&ins, 0, sizeof ins), memset(&outs, 0, sizeof outs);
    if (tl_fresh_make(&ins, n, TL_FRESH_SUMS, why, why_len) ||
        tl_fresh_make(&outs, 1, TL_FRESH_EMPTY, why, why_len))
        goto done;
    if (!(prefix = prefix_sums(&ins))) {
        snprintf(why, why_len, "out of host memory");
        goto done;
    }
    scratch_bytes = 0;
    if (tl_cub_sum_fits(n) && !(err = tl_cub_sum_bytes(n, &scratch_bytes)))
        err = cudaMalloc(&d_scratch, scratch_bytes ? scratch_bytes : 1);
    if (!err)
        err = cudaMalloc((void **)&copy_to, n * sizeof(float));
    if (err) {
        tl_gpu_explain(err, why, why_len);
        goto done;
    }
    for (int k = 0; k < N_VARIANTS; k++) {
        if (!tl_bench_selected(o, &variants[k]))
            continue;
        results[k].variant = &variants[k];
        launch_ctx c = {&variants[k], outs.d, ins.d, copy_to, s, prefix, &ins, &outs};
        measure(c, o, &results[k]);
    }
    rc = 0;
done:
    cudaFree(d_scratch);
    d_scratch = NULL;
    cudaFree(copy_to);
    free(prefix);
    tl_fresh_free(&ins);
    tl_fresh_free(&outs);
    return rc;
}

static cudaError_t poison(void *p)
{
    launch_ctx *c = p;
    return cudaMemsetAsync(c->out, 0xff, sizeof(float), 0);
}

/* One call on buffers of exactly n floats and one, for compute-sanitizer. */
int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s), bytes = n * sizeof(float);
    float *h = malloc(bytes ? bytes : 1), *d_in = NULL, *d_out = NULL, *copy_to = NULL;
    cudaError_t err;
    int rc = -1;
    if (!h) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    tl_reduce_fill(h, n, TL_DEFAULT_SEED, NULL);
    scratch_bytes = 0;
    if (!(err = cudaMalloc((void **)&d_in, bytes)) && !(err = cudaMalloc((void **)&d_out, sizeof(float))) &&
        !(err = cudaMalloc((void **)&copy_to, bytes)) &&
        !(err = cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice)) &&
        !(err = tl_cub_sum_fits(n) ? tl_cub_sum_bytes(n, &scratch_bytes) : cudaSuccess) &&
        !(err = cudaMalloc(&d_scratch, scratch_bytes ? scratch_bytes : 1))) {
        launch_ctx c = {v, d_out, d_in, copy_to, s, NULL, NULL, NULL};
        tl_gpu_op op = {launch, poison, NULL, &c};
        rc = tl_gpu_once(&op, v->name, why, why_len);
    } else {
        tl_gpu_explain(err, why, why_len);
    }
    cudaFree(d_scratch);
    d_scratch = NULL;
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(copy_to);
    free(h);
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
    char cpu[256];
    tl_cpu_model(cpu, sizeof cpu);
    tl_gpu_describe(f, &info);
    fprintf(f, "# host: %s\n", cpu);
    fprintf(f, "# inputs: new for each timed call, at new addresses (the checker's data, seed %llu: "
               "multiples of 1/8 that every order sums exactly); each sum checked bit for bit; the "
               "stream reads the same floats and sums nothing; a rate above 125 %% of the stream's "
               "is refused\n", (unsigned long long)tl_fresh_seed());
}
