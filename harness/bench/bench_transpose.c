/* The bench's GPU back end: device-to-device copy ceiling, reference, student, cuBLAS. */
#include "bench_fresh.h"
#include "bench_gpu_transpose.h"
#include "sysinfo.h"

#include <cublas_v2.h>
#include <stdint.h>
#include <stdlib.h>
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
    tl_transpose_fn fn; /* NULL: the device-to-device copy */
    float *out;
    const float *in;
    tl_shape s;
    const float *h_in;  /* what in holds */
    float *h_out;       /* room for out, to check it whole */
    int nan_any;        /* a library (cuBLAS): a NaN may come out as another NaN */
    uint64_t samples;   /* the sampler's state */
    tl_fresh *ins, *outs; /* where each timed call's in and out come from (bench_fresh.h) */
    int student;          /* the student's: its calls may be launch plans (gpu.h) */
} launch_ctx;

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
    size_t at = tl_fresh_next(c->ins);
    c->in = c->ins->d + at;
    c->h_in = c->ins->h + at;
    c->out = c->outs->d + tl_fresh_next(c->outs);
    return poison(p);
}

static int verify(void *p, int rep, int last, char *why, size_t why_len)
{
    launch_ctx *c = p;
    tl_gpu_output o = {c->out, c->h_out, c->h_in, c->s, c->fn != NULL, c->nan_any, &c->samples};
    return tl_bench_gpu_verify(&o, rep, last, why, why_len);
}

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    float *h_out = malloc(n * sizeof(float));
    tl_fresh ins, outs;
    static tl_verdict v;
    int rc = -1;
    memset(&ins, 0, sizeof ins), memset(&outs, 0, sizeof outs);
    if (!h_out) {
        snprintf(why, why_len, "out of host memory");
        goto done;
    }
    if (tl_fresh_make(&ins, n, TL_FRESH_RANDOM, why, why_len) ||
        tl_fresh_make(&outs, n, TL_FRESH_EMPTY, why, why_len))
        goto done;
    for (int k = 0; k < N_VARIANTS; k++) {
        tl_result *r = &results[k];
        if (!tl_bench_selected(o, &variants[k]))
            continue;
        r->variant = &variants[k];
        launch_ctx c = {fn_of(&variants[k]), outs.d, ins.d, s, ins.h, h_out,
                        !strcmp(variants[k].role, "library"), TL_DEFAULT_SEED + (uint64_t)k, &ins, &outs,
                        !strcmp(variants[k].role, "student")};
        if (c.fn) {
            tl_check_transpose(&v, c.fn, &tl_gpu_backend, s, tl_fresh_seed(), &tl_transpose_words);
            if (!v.ok && !(c.nan_any && v.ok_but_nan_bits)) {
                tl_bench_note_verdict(r, &v);
                continue;
            }
        }
        tl_gpu_op op = {launch, fresh, verify, &c};
        if (c.student) { /* its plans, made before anything is timed */
            tl_fresh ins_again = ins, outs_again = outs;
            launch_ctx rehearsal = c;
            rehearsal.ins = &ins_again, rehearsal.outs = &outs_again;
            tl_fresh_plan_ahead(&op, &rehearsal, o->reps);
        }
        if (tl_gpu_time(&op, o->warmup, o->reps, 2 * info.l2_bytes, &r->stats, r->note,
                        sizeof r->note) == 0)
            r->measured = 1;
    }
    rc = 0;
done:
    tl_fresh_free(&ins);
    tl_fresh_free(&outs);
    free(h_out);
    return rc;
}

int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s), bytes = n * sizeof(float);
    float *h = malloc(bytes), *d_in = NULL, *d_out = NULL;
    cudaError_t err;
    int rc = -1;
    if (!h) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    tl_fill_random(h, n, TL_DEFAULT_SEED);
    if (!(err = cudaMalloc((void **)&d_in, bytes)) && !(err = cudaMalloc((void **)&d_out, bytes)) &&
        !(err = cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice))) {
        launch_ctx c = {fn_of(v), d_out, d_in, s, h, NULL, 0, 0, NULL, NULL, 0};
        tl_gpu_op op = {launch, poison, NULL, &c};
        rc = tl_gpu_once(&op, v->name, why, why_len);
    } else {
        tl_gpu_explain(err, why, why_len);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
    return rc;
}

double tl_bench_bound(tl_shape s, const tl_result *r, int n, char *how, size_t how_len)
{
    return tl_bench_gpu_copy_bound(&info, s, r, n, how, how_len);
}

void tl_bench_describe(FILE *f)
{
    char cpu[256];
    tl_cpu_model(cpu, sizeof cpu);
    tl_gpu_describe(f, &info);
    fprintf(f, "# host: %s\n", cpu);
    fprintf(f, "# inputs: new for each timed call, at new addresses (a random pool, seed %llu); a "
               "rate above 125 %% of the copy's is refused\n", (unsigned long long)tl_fresh_seed());
    fprintf(f, "# cublas: cublasSgeam computes 1 * x, which may give a NaN other bits (an H100 "
               "returns every NaN as 0x7fffffff): from cublas any NaN stands for a NaN, all else "
               "must match bit for bit\n");
}
