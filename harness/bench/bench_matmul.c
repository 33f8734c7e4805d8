/*
 * The bench's back end for the matrix product (labs 7 and 8): cuBLAS SGEMM
 * in plain FP32 is the ceiling; then the reference's kernels (tiled and
 * naive, or sgemm), the student's, and a CPU product at sizes where it ends
 * in seconds.
 */
#include "bench_gpu_run.h"
#include "sysinfo.h"

#include <cublas_v2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef TL_HAVE_OPENBLAS
#include <cblas.h>
#endif

static void cublas_matmul(float *c, const float *a, const float *b, int m, int n, int k);
static void cpu_matmul(float *c, const float *a, const float *b, int m, int n, int k);

static const tl_variant before[] = {TL_CEILING_PRODUCT_GPU(TL_VARIANT){0}};
static const tl_variant after[] = {TL_LIBRARY_PRODUCT_GPU(TL_VARIANT){0}};
TL_BENCH_TABLE(before, after)

/* The library's variant is the CPU's product, on host pointers. */
static int on_host(const tl_variant *v)
{
    return strcmp(v->role, "library") == 0;
}

static tl_matmul_fn fn_of(const tl_variant *v)
{
    return (tl_matmul_fn)v->fn;
}

static tl_gpu_info info;
static cublasHandle_t cublas;

int tl_bench_init(char *why, size_t why_len)
{
    /* Plain FP32: no TF32 tensor-core shortcut, whatever the environment says. */
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
    if (!tl_gpu_available(why, why_len))
        return -1;
    if (tl_gpu_query(&info, why, why_len) != 0)
        return -1;
    if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(cublas, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {
        snprintf(why, why_len, "cublasCreate failed");
        return -1;
    }
#ifdef TL_HAVE_OPENBLAS
    openblas_set_num_threads(1);
#endif
    return 0;
}

int tl_bench_fits(tl_shape s, char *why, size_t why_len)
{
    size_t bytes = ((size_t)s.rows * s.depth + (size_t)s.depth * s.cols + (size_t)s.rows * s.cols) *
                   sizeof(float), free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    if (bytes + 2 * info.l2_bytes + (64u << 20) > free_bytes) {
        snprintf(why, why_len, "%dx%dx%d needs %.1f GiB on the GPU and %s has %.1f GiB free: choose "
                 "a smaller size", s.rows, s.cols, s.depth, (double)bytes / (1 << 30), info.name,
                 (double)free_bytes / (1 << 30));
        return -1;
    }
    return 0;
}

/* Row-major C = A B is column-major C^T = B^T A^T: the same call with A and B swapped. */
static void cublas_matmul(float *c, const float *a, const float *b, int m, int n, int k)
{
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n);
}

/* The CPU product, at sizes where it takes seconds, not hours. */
static int cpu_runs(tl_shape s)
{
#ifdef TL_HAVE_OPENBLAS
    return (double)s.rows * s.cols * s.depth <= 2048.0 * 2048 * 2048;
#else
    return (double)s.rows * s.cols * s.depth <= 512.0 * 512 * 512;
#endif
}

static void cpu_matmul(float *c, const float *a, const float *b, int m, int n, int k)
{
#ifdef TL_HAVE_OPENBLAS
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
#else
    memset(c, 0, (size_t)m * n * sizeof *c);
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t p = 0; p < (size_t)k; p++)
            for (size_t j = 0; j < (size_t)n; j++)
                c[i * n + j] += a[i * k + p] * b[p * n + j];
#endif
}

/* A product's matrices at one size: A and B from one pool of finite values (no inf or NaN in a
 * product), C from another (bench_fresh.h); and A, B and room for C on the host, for the CPU's
 * product, made when it is asked for. */
typedef struct {
    tl_fresh ins, outs;
    float *h;
    tl_shape s;
} at_size;

typedef struct {
    tl_bench_draws draws;   /* where each timed call's A, B and C come from (bench_fresh.h) */
    tl_matmul_fn fn;
    float *c;
    const float *a, *b;
    tl_shape s;
    const float *h_a, *h_b; /* what a and b hold */
    uint64_t samples;       /* the sampler's state */
    at_size *at;
} launch_ctx;

static void context(void *p, void *size, const tl_variant *v, int k)
{
    at_size *at = size;
    launch_ctx x = {{&at->ins, &at->outs}, fn_of(v), at->outs.d, at->ins.d, at->ins.d, at->s, at->ins.h,
                    at->ins.h, TL_DEFAULT_SEED + (uint64_t)k, at};
    *(launch_ctx *)p = x;
}

static cudaError_t launch(void *p)
{
    launch_ctx *x = p;
    tl_bench_invoke(&tl_call_matmul, (tl_entry_fn)x->fn, x->c, x->a, x->b, x->s);
    return tl_gpu_lab_error(NULL);
}

/* Before each timed call: C holds nothing a call could leave in place. */
static cudaError_t poison(void *p)
{
    launch_ctx *x = p;
    return cudaMemsetAsync(x->c, 0xff, (size_t)x->s.rows * x->s.cols * sizeof(float), 0);
}

/* Before each timed call: A and B it has not seen, at addresses new to it. */
static cudaError_t fresh(void *p)
{
    launch_ctx *x = p;
    size_t at_a = tl_fresh_next(x->draws.ins), at_b = tl_fresh_next(x->draws.ins);
    x->a = x->draws.ins->d + at_a, x->h_a = x->draws.ins->h + at_a;
    x->b = x->draws.ins->d + at_b, x->h_b = x->draws.ins->h + at_b;
    x->c = x->draws.outs->d + tl_fresh_next(x->draws.outs);
    return poison(p);
}

/* After each timed call, elements of C at random (more after the last), each against a
 * double-precision dot product within the checker's tolerance. */
static int verify(void *p, int rep, int last, char *why, size_t why_len)
{
    launch_ctx *x = p;
    size_t n = (size_t)x->s.rows * x->s.cols, k = (size_t)x->s.depth;
    for (int i = 0; i < (last ? 16 : 1) * TL_BENCH_SAMPLES; i++) {
        size_t at = tl_bench_sample(&x->samples, n), row = at / x->s.cols, col = at % x->s.cols;
        float got;
        cudaError_t err = cudaMemcpy(&got, x->c + at, sizeof got, cudaMemcpyDeviceToHost);
        if (err) {
            tl_gpu_explain(err, why, why_len);
            return -1;
        }
        double exact = 0, bound = 0;
        for (size_t q = 0; q < k; q++) {
            double term = (double)x->h_a[row * k + q] * x->h_b[q * x->s.cols + col];
            exact += term;
            bound += fabs(term);
        }
        if (!(fabs(got - exact) <= tl_matmul_tolerance(x->s.depth, bound))) {
            tl_bench_note_skipped(why, why_len, rep, at, x->s.cols);
            return -1;
        }
    }
    return 0;
}

/* Correct first: each kernel once, at a size whose exact product the CPU finds quickly. */
static int checked(tl_result *r, const tl_variant *variant)
{
    static char verdicts[TL_MAX_VARIANTS]; /* 0 unknown, 1 right, 2 wrong */
    static char notes[TL_MAX_VARIANTS][sizeof r->note];
    static tl_verdict v;
    int i = (int)(variant - variants);
    if (!verdicts[i]) {
        tl_shape s = {257, 255, 263};
        tl_bench_op->check(&v, variant->entry, variant->fn, &tl_gpu_backend, s, tl_fresh_seed());
        verdicts[i] = v.ok ? 1 : 2;
        if (!v.ok) {
            tl_bench_note_verdict(r, &v);
            memcpy(notes[i], r->note, sizeof notes[i]);
        }
    }
    if (verdicts[i] == 2)
        memcpy(r->note, notes[i], sizeof r->note);
    return verdicts[i] == 1;
}

/* The CPU's product, at most three times, where it ends in seconds: h holds A, B and room for C. */
static void time_on_host(tl_result *r, const tl_bench_opts *o, float *h, tl_shape s)
{
    size_t na = (size_t)s.rows * s.depth, nb = (size_t)s.depth * s.cols;
    if (!cpu_runs(s)) {
        snprintf(r->note, sizeof r->note, "not run at this size (it would take too long)");
        return;
    }
    double *t = calloc((size_t)o->reps, sizeof *t);
    int reps = o->reps < 3 ? o->reps : 3;
    for (int i = 0; t && i < reps; i++) {
        double t0 = tl_now();
        fn_of(r->variant)(h + na + nb, h, h + na, s.rows, s.cols, s.depth);
        t[i] = tl_now() - t0;
    }
    if (t) {
        r->stats = tl_stats_of(t, reps);
        r->measured = 1;
    }
    free(t);
}

/* The ceiling as it is; the lab's kernels checked first; the CPU's product timed on the host. */
static int ready(void *p, const tl_bench_opts *o, tl_result *r)
{
    launch_ctx *x = p;
    at_size *at = x->at;
    tl_shape s = x->s;
    size_t na = (size_t)s.rows * s.depth, nb = (size_t)s.depth * s.cols, nc = (size_t)s.rows * s.cols;
    if (!on_host(r->variant))
        return !strcmp(r->variant->role, "ceiling") || checked(r, r->variant);
    if (!at->h && (at->h = malloc((na + nb + nc) * sizeof *at->h))) {
        memcpy(at->h, at->ins.h, na * sizeof *at->h);
        memcpy(at->h + na, at->ins.h, nb * sizeof *at->h);
    }
    if (at->h)
        time_on_host(r, o, at->h, s);
    else
        snprintf(r->note, sizeof r->note, "out of host memory");
    return 0;
}

static const tl_bench_gpu backend = {sizeof(launch_ctx), context, ready, launch, fresh, poison, verify, &info};

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    size_t na = (size_t)s.rows * s.depth, nb = (size_t)s.depth * s.cols, nc = (size_t)s.rows * s.cols;
    at_size at = {.s = s};
    int rc = -1;
    if (!tl_fresh_make(&at.ins, na > nb ? na : nb, TL_FRESH_FINITE, why, why_len) &&
        !tl_fresh_make(&at.outs, nc, TL_FRESH_EMPTY, why, why_len))
        rc = tl_bench_gpu_measure(&backend, &at, o, results, why, why_len);
    tl_fresh_free(&at.ins);
    tl_fresh_free(&at.outs);
    free(at.h);
    return rc;
}

int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    size_t na = (size_t)s.rows * s.depth, nb = (size_t)s.depth * s.cols, nc = (size_t)s.rows * s.cols;
    float *d[3];
    int rc;
    if (on_host(v))
        return 0; /* nothing on the GPU to look at */
    if ((rc = tl_bench_gpu_buffers(d, (const size_t[]){na, nb, nc}, 3, 2, TL_FRESH_RANDOM, why, why_len)) == 0) {
        launch_ctx x = {{NULL, NULL}, fn_of(v), d[2], d[0], d[1], s, NULL, NULL, 0, NULL};
        rc = tl_bench_gpu_once(&backend, &x, v, why, why_len);
    }
    tl_bench_gpu_free(d, 3);
    return rc;
}

/* FP32 results per clock per SM (the CUDA C++ Programming Guide's throughput
 * table): 64 on 6.0, 7.x and 8.0, 128 on the others the kit builds for and after. */
static int fp32_lanes(int major, int minor)
{
    return (major == 6 && minor == 0) || major == 7 || (major == 8 && minor == 0) ? 64 : 128;
}

/* tl_bench_bound of a product: 105 % of the GPU's FP32 peak, SMs x lanes x 2
 * (a multiply-add) x its highest clock, from the device's properties. */
double tl_bench_bound(tl_shape s, const tl_result *r, int n, char *how, size_t how_len)
{
    int clock_khz = 0;
    (void)s, (void)r, (void)n;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0) != cudaSuccess || clock_khz <= 0)
        return 0;
    double peak = (double)info.sms * fp32_lanes(info.cc_major, info.cc_minor) * 2 * clock_khz * 1e3 / 1e9;
    snprintf(how, how_len, "105 %% of its FP32 peak, %d SMs x %d lanes x 2 x %.2f GHz = %.0f GFLOP/s", info.sms,
             fp32_lanes(info.cc_major, info.cc_minor), clock_khz / 1e6, peak);
    return 1.05 * peak;
}

void tl_bench_describe(FILE *f)
{
    char cpu[256];
    tl_cpu_model(cpu, sizeof cpu);
    tl_gpu_describe(f, &info);
    fprintf(f, "# ceiling: cublasSgemm, FP32 (CUBLAS_DEFAULT_MATH, NVIDIA_TF32_OVERRIDE=0)\n");
    fprintf(f, "# inputs: new for each timed call, at new addresses (a random pool, seed %llu); a "
               "rate above 105 %% of the FP32 peak is refused\n", (unsigned long long)tl_fresh_seed());
    fprintf(f, "# host: %s; cpu variant: %s, single-threaded\n", cpu,
#ifdef TL_HAVE_OPENBLAS
            "OpenBLAS cblas_sgemm"
#else
            "a plain triple loop"
#endif
    );
}
