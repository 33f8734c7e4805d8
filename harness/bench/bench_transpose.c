/* The bench's GPU back end: device-to-device copy ceiling, reference, student, cuBLAS. */
#include "bench_gpu_transpose.h"

#include <cublas_v2.h>
#include <stdint.h>
#include <string.h>

static void cublas_transpose(float *out, const float *in, int rows, int cols);

static const tl_variant before[] = {TL_CEILING_COPY(TL_VARIANT){0}};
static const tl_variant after[] = {TL_LIBRARY_TRANSPOSE_GPU(TL_VARIANT){0}};
TL_BENCH_TABLE(before, after)

static tl_gpu_info info;
static cublasHandle_t cublas;

int tl_bench_init(char *why, size_t why_len)
{
    if (tl_bench_gpu_start(&info, why, why_len) != 0)
        return -1;
    if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS) {
        snprintf(why, why_len, "cublasCreate failed");
        return -1;
    }
    return 0;
}

/* The bench's pair, the checker's pair. */
int tl_bench_fits(tl_shape s, char *why, size_t why_len)
{
    return tl_bench_gpu_fits(s, &info, 4, why, why_len);
}

/* cublasSgeam in row-major terms: out (cols x rows) = in (rows x cols) transposed. */
static void cublas_transpose(float *out, const float *in, int rows, int cols)
{
    const float one = 1.0f, zero = 0.0f;
    cublasSgeam(cublas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out, rows,
                out, rows);
}

/* A variant's function; NULL for the device-to-device copy. */
static tl_transpose_fn fn_of(const tl_variant *v)
{
    return (tl_transpose_fn)v->fn;
}

typedef struct {
    tl_bench_draws draws; /* where each timed call's in and out come from (bench_fresh.h) */
    tl_transpose_fn fn; /* NULL: the device-to-device copy */
    float *out;
    const float *in;
    tl_shape s;
    const float *h_in;  /* what in holds */
    float *h_out;       /* room for out, to check it whole */
    int nan_any;        /* a library (cuBLAS): a NaN may come out as another NaN */
    uint64_t samples;   /* the sampler's state */
} launch_ctx;

static void context(void *p, void *size, const tl_variant *v, int k)
{
    tl_gpu_transposes *at = size;
    launch_ctx c = {{&at->ins, &at->outs}, fn_of(v), at->outs.d, at->ins.d, at->s, at->ins.h, at->h_out,
                    !strcmp(v->role, "library"), TL_DEFAULT_SEED + (uint64_t)k};
    *(launch_ctx *)p = c;
}

static cudaError_t launch(void *p)
{
    launch_ctx *c = p;
    if (!c->fn)
        return cudaMemcpyAsync(c->out, c->in, tl_shape_elements(c->s) * sizeof(float),
                               cudaMemcpyDeviceToDevice, 0);
    tl_bench_invoke(&tl_call_transpose, (tl_entry_fn)c->fn, c->out, c->in, NULL, c->s);
    return tl_gpu_lab_error(NULL);
}

/* Before each timed call: out holds nothing a call could leave in place. */
static cudaError_t poison(void *p)
{
    launch_ctx *c = p;
    return cudaMemsetAsync(c->out, 0xff, tl_shape_elements(c->s) * sizeof(float), 0);
}

/* Before each timed call: inputs it has not seen, at addresses new to it. */
static cudaError_t fresh(void *p)
{
    launch_ctx *c = p;
    size_t at = tl_fresh_next(c->draws.ins);
    c->in = c->draws.ins->d + at;
    c->h_in = c->draws.ins->h + at;
    c->out = c->draws.outs->d + tl_fresh_next(c->draws.outs);
    return poison(p);
}

static int verify(void *p, int rep, int last, char *why, size_t why_len)
{
    launch_ctx *c = p;
    tl_gpu_output o = {c->out, c->h_out, c->h_in, c->s, c->fn != NULL, c->nan_any, &c->samples};
    return tl_bench_gpu_verify(&o, rep, last, why, why_len);
}

/* The checker's verdict first (the copy has none); from cuBLAS any NaN stands for a NaN. */
static int ready(void *p, const tl_bench_opts *o, tl_result *r)
{
    launch_ctx *c = p;
    static tl_verdict v;
    (void)o;
    if (!c->fn)
        return 1;
    tl_check_transpose(&v, c->fn, &tl_gpu_backend, c->s, tl_fresh_seed(), &tl_transpose_words);
    if (!v.ok && !(c->nan_any && v.ok_but_nan_bits)) {
        tl_bench_note_verdict(r, &v);
        return 0;
    }
    return 1;
}

static const tl_bench_gpu backend = {sizeof(launch_ctx), context, ready, launch, fresh, poison, verify, &info};

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    return tl_bench_gpu_transpose_size(&backend, s, o, results, why, why_len);
}

int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    return tl_bench_gpu_transpose_once(&backend, s, v, why, why_len);
}

double tl_bench_bound(tl_shape s, const tl_result *r, int n, char *how, size_t how_len)
{
    return tl_bench_gpu_copy_bound(&info, s, r, n, how, how_len);
}

void tl_bench_describe(FILE *f)
{
    tl_bench_gpu_describe(f, &info);
    fprintf(f, "# inputs: new for each timed call, at new addresses (a random pool, seed %llu); a "
               "rate above 125 %% of the copy's is refused\n", (unsigned long long)tl_fresh_seed());
    fprintf(f, "# cublas: cublasSgeam computes 1 * x, which may give a NaN other bits (an H100 "
               "returns every NaN as 0x7fffffff): from cublas any NaN stands for a NaN, all else "
               "must match bit for bit\n");
}
