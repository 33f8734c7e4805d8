/*
 * The bench's GPU back end of an operation that has none of its own
 * (harness/bench/bench_OP.c): the lab's kernels beside a device-to-device
 * copy of the bytes one call moves (op.h's work), its ceiling. Its buffers
 * are the operation's (op.h's floats); each kernel is checked by the
 * operation's checker before it is timed; every timed call gets the same
 * inputs, its output poisoned before it, and must leave, bit for bit, what
 * the kernel's untimed call left: some elements after each repetition, all
 * of them after the last. Fixed inputs are a weaker guard than the
 * transposes' fresh ones (bench_fresh.h): an operation whose lab is graded
 * on its speed gets a back end of its own.
 */
#include "bench_gpu_transpose.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const tl_variant before[] = {TL_CEILING_COPY(TL_VARIANT){0}};
static const tl_variant after[] = {{0}};
TL_BENCH_TABLE(before, after)

static tl_gpu_info info;

int tl_bench_init(char *why, size_t why_len)
{
    return tl_bench_gpu_start(&info, why, why_len);
}

static size_t floats(tl_shape s, int i)
{
    return i < tl_bench_op->call->matrices ? tl_bench_op->floats(s, i) : 0;
}

/* The copy's floats: half the bytes a call moves read, half written. */
static size_t copy_floats(tl_shape s)
{
    return (size_t)(tl_bench_op->work(s) / (2 * sizeof(float)));
}

/* The call's matrices, its output's expected copy and the copy's two buffers, beside the
 * L2 flush's: refused past nine tenths of the GPU's memory. */
int tl_bench_fits(tl_shape s, char *why, size_t why_len)
{
    double bytes = 2.0 * info.l2_bytes + 2.0 * copy_floats(s) * sizeof(float) +
                   (double)floats(s, 0) * sizeof(float);
    for (int i = 0; i < TL_CALL_MATRICES; i++)
        bytes += (double)floats(s, i) * sizeof(float);
    if (bytes <= 0.9 * (double)info.global_bytes)
        return 0;
    snprintf(why, why_len, "%dx%d needs %.1f GB on the GPU, which has %.1f GB", s.rows, s.cols,
             bytes / 1e9, info.global_bytes / 1e9);
    return -1;
}

typedef struct {
    tl_bench_draws draws; /* none: every timed call gets the same matrices */
    tl_entry_fn fn; /* NULL: the copy */
    float *d[TL_CALL_MATRICES];
    float *copy_from, *copy_to;
    tl_shape s;
    float *want;       /* the output of the kernel's untimed call */
    float *got;        /* room for the output, on the host */
    uint64_t samples;
} launch_ctx;

static cudaError_t launch(void *p)
{
    launch_ctx *c = p;
    if (!c->fn)
        return cudaMemcpyAsync(c->copy_to, c->copy_from, copy_floats(c->s) * sizeof(float),
                               cudaMemcpyDeviceToDevice, 0);
    tl_bench_invoke(tl_bench_op->call, c->fn, c->d[0], c->d[1], c->d[2], c->s);
    return tl_gpu_lab_error(NULL);
}

static cudaError_t poison(void *p)
{
    launch_ctx *c = p;
    return c->fn ? cudaMemsetAsync(c->d[0], 0xff, floats(c->s, 0) * sizeof(float), 0) : cudaSuccess;
}

static int verify(void *p, int rep, int last, char *why, size_t why_len)
{
    launch_ctx *c = p;
    size_t n = floats(c->s, 0);
    if (!c->fn)
        return 0;
    cudaError_t err = cudaMemcpy(c->got, c->d[0], n * sizeof(float), cudaMemcpyDeviceToHost);
    if (err) {
        tl_gpu_explain(err, why, why_len);
        return -1;
    }
    for (size_t k = 0; k < (last ? n : TL_BENCH_SAMPLES); k++) {
        size_t at = last ? k : tl_bench_sample(&c->samples, n);
        if (!tl_bench_same(c->got[at], c->want[at], 0)) {
            tl_bench_note_skipped(why, why_len, rep, at, (int)n);
            return -1;
        }
    }
    return 0;
}

/* The call's buffers on the GPU, its inputs random, and the copy's. */
static int allocate(launch_ctx *c, tl_shape s, char *why, size_t why_len)
{
    cudaError_t err = cudaSuccess;
    size_t most = copy_floats(s);
    for (int i = 0; i < TL_CALL_MATRICES; i++)
        most = floats(s, i) > most ? floats(s, i) : most;
    float *h = malloc((most ? most : 1) * sizeof(float));
    if (!h) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    for (int i = 0; i < TL_CALL_MATRICES && !err; i++) {
        size_t n = floats(s, i);
        if (!n)
            continue;
        tl_fill_random(h, n, tl_fresh_seed() + (uint64_t)i);
        if (!(err = cudaMalloc((void **)&c->d[i], n * sizeof(float))))
            err = cudaMemcpy(c->d[i], h, n * sizeof(float), cudaMemcpyHostToDevice);
    }
    if (!err && !(err = cudaMalloc((void **)&c->copy_from, (most ? most : 1) * sizeof(float))))
        err = cudaMalloc((void **)&c->copy_to, (most ? most : 1) * sizeof(float));
    free(h);
    if (err)
        tl_gpu_explain(err, why, why_len);
    return err ? -1 : 0;
}

static void release(launch_ctx *c)
{
    for (int i = 0; i < TL_CALL_MATRICES; i++)
        cudaFree(c->d[i]);
    cudaFree(c->copy_from);
    cudaFree(c->copy_to);
}

/* The call's matrices at one size (a context of no variant yet) and the output's room on the host:
 * what the kernel's untimed call left, and what a timed call leaves. */
typedef struct {
    launch_ctx base;
    float *want, *got;
} at_size;

static void context(void *p, void *size, const tl_variant *v, int k)
{
    at_size *at = size;
    launch_ctx c = at->base;
    c.fn = v->fn, c.want = at->want, c.got = at->got, c.samples = TL_DEFAULT_SEED + (uint64_t)k;
    *(launch_ctx *)p = c;
}

/* A kernel: its checker's verdict, then its untimed call's output, which every timed one must
 * leave again. */
static int ready(void *p, const tl_bench_opts *o, tl_result *r)
{
    launch_ctx *c = p;
    static tl_verdict v;
    size_t n = floats(c->s, 0);
    (void)o;
    if (!c->fn)
        return 1;
    tl_bench_op->check(&v, r->variant->entry, c->fn, &tl_gpu_backend, c->s, tl_fresh_seed());
    cudaError_t err = v.ok ? poison(c) : cudaSuccess;
    if (!err && v.ok)
        err = launch(c);
    if (!err && v.ok && !(err = cudaDeviceSynchronize()))
        err = cudaMemcpy(c->want, c->d[0], n * sizeof(float), cudaMemcpyDeviceToHost);
    if (err)
        tl_gpu_explain(err, r->note, sizeof r->note);
    else if (!v.ok)
        tl_bench_note_verdict(r, &v);
    return v.ok && !err;
}

static const tl_bench_gpu backend = {sizeof(launch_ctx), context, ready, launch, poison, poison, verify, &info};

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    size_t n = floats(s, 0);
    at_size at = {.base = {.s = s}, .want = malloc(n * sizeof(float)), .got = malloc(n * sizeof(float))};
    int rc = -1;
    if (!at.want || !at.got)
        snprintf(why, why_len, "out of host memory");
    else if (allocate(&at.base, s, why, why_len) == 0)
        rc = tl_bench_gpu_measure(&backend, &at, o, results, why, why_len);
    release(&at.base);
    free(at.want);
    free(at.got);
    return rc;
}

int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    launch_ctx c = {.fn = v->fn, .s = s};
    int rc = allocate(&c, s, why, why_len);
    if (rc == 0)
        rc = tl_bench_gpu_once(&backend, &c, v, why, why_len);
    release(&c);
    return rc;
}

double tl_bench_bound(tl_shape s, const tl_result *r, int n, char *how, size_t how_len)
{
    return tl_bench_gpu_copy_bound(&info, s, r, n, how, how_len);
}

void tl_bench_describe(FILE *f)
{
    tl_bench_gpu_describe(f, &info);
    fprintf(f, "# inputs: the same for every timed call (random, seed %llu); the ceiling copies the "
               "bytes a call moves; a rate above 125 %% of the copy's is refused\n",
            (unsigned long long)tl_fresh_seed());
}
