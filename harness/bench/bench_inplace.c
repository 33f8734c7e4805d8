/*
 * The bench's back end for the in-place transpose (op inplace): the
 * device-to-device copy is the ceiling; then the reference's in-place
 * kernel, the student's, and the out-of-place transpose of the lab named
 * labNN_baseline in labs/labs.mk (its reference, as reference_transpose).
 *
 * An in-place call changes its own input: before each timed repetition the
 * matrix is copied in from a pristine one, outside the events, and after it
 * must hold the transpose of that one. Both are new for each repetition, at
 * new addresses (bench_fresh.h).
 */
#include "bench_gpu_transpose.h"

#include <stdint.h>
#include <string.h>

/* The out-of-place reference of the baseline lab, linked beside this one's. */
void reference_transpose(float *out, const float *in, int rows, int cols);

static const tl_variant before[] = {TL_CEILING_COPY(TL_VARIANT){0}};
static const tl_variant after[] = {TL_LIBRARY_INPLACE_GPU(TL_VARIANT){0}};
TL_BENCH_TABLE(before, after)

/* Each element read once and written once, as an out-of-place transpose. */
static tl_gpu_info info;

int tl_bench_init(char *why, size_t why_len)
{
    return tl_bench_gpu_start(&info, why, why_len);
}

/* The matrix and its pristine copy, and the checker's copy. */
int tl_bench_fits(tl_shape s, char *why, size_t why_len)
{
    if (s.rows != s.cols) {
        snprintf(why, why_len, "%dx%d: an in-place transpose takes square matrices only: give one "
                 "side, as in 4096", s.rows, s.cols);
        return -1;
    }
    return tl_bench_gpu_fits(s, &info, 3, why, why_len);
}

/* The library's variant is the out-of-place transpose; the ceiling's function is NULL. */
static int out_of_place(const tl_variant *v)
{
    return strcmp(v->role, "library") == 0;
}

typedef struct {
    tl_bench_draws draws;      /* where each timed call's matrices come from: ins, and outs the works */
    tl_inplace_fn inplace;     /* in place on work; else out of place or the copy */
    tl_transpose_fn transpose; /* out of place into work; NULL: the copy */
    float *work;               /* what the call writes */
    const float *pristine;     /* the matrix as it was */
    tl_shape s;
    const float *h_in;         /* what pristine holds */
    float *h_out;              /* room for work, to check it whole */
    uint64_t samples;          /* the sampler's state */
} launch_ctx;

static void context(void *p, void *size, const tl_variant *v, int k)
{
    tl_gpu_transposes *at = size;
    launch_ctx c = {{&at->ins, &at->outs}, out_of_place(v) ? NULL : (tl_inplace_fn)v->fn,
                    out_of_place(v) ? (tl_transpose_fn)v->fn : NULL, at->outs.d, at->ins.d, at->s,
                    at->ins.h, at->h_out, TL_DEFAULT_SEED + (uint64_t)k};
    *(launch_ctx *)p = c;
}

static cudaError_t launch(void *p)
{
    launch_ctx *c = p;
    if (c->inplace)
        tl_bench_invoke(&tl_call_inplace, (tl_entry_fn)c->inplace, c->work, NULL, NULL, c->s);
    else if (c->transpose)
        tl_bench_invoke(&tl_call_transpose, (tl_entry_fn)c->transpose, c->work, c->pristine, NULL, c->s);
    else
        return cudaMemcpyAsync(c->work, c->pristine, tl_shape_elements(c->s) * sizeof(float),
                               cudaMemcpyDeviceToDevice, 0);
    return tl_gpu_lab_error(NULL);
}

/* Before each call: the matrix as it was for an in-place call, poison for the others. */
static cudaError_t prepare(void *p)
{
    launch_ctx *c = p;
    size_t bytes = tl_shape_elements(c->s) * sizeof(float);
    if (c->draws.ins) { /* a timed call: a matrix it has not seen, at an address new to it */
        size_t at = tl_fresh_next(c->draws.ins);
        c->pristine = c->draws.ins->d + at;
        c->h_in = c->draws.ins->h + at;
        c->work = c->draws.outs->d + tl_fresh_next(c->draws.outs);
    }
    if (c->inplace)
        return cudaMemcpyAsync(c->work, c->pristine, bytes, cudaMemcpyDeviceToDevice, 0);
    return cudaMemsetAsync(c->work, 0xff, bytes, 0);
}

static int verify(void *p, int rep, int last, char *why, size_t why_len)
{
    launch_ctx *c = p;
    tl_gpu_output o = {c->work, c->h_out, c->h_in, c->s, c->inplace || c->transpose, 0, &c->samples};
    return tl_bench_gpu_verify(&o, rep, last, why, why_len);
}

/* The checker's verdict on a variant before it is timed: 1 when it may be. */
static int ready(void *p, const tl_bench_opts *o, tl_result *r)
{
    launch_ctx *c = p;
    static tl_verdict v;
    (void)o;
    if (c->inplace)
        tl_check_inplace(&v, c->inplace, &tl_gpu_backend, c->s.rows, tl_fresh_seed(), &tl_inplace_words);
    else if (c->transpose)
        tl_check_transpose(&v, c->transpose, &tl_gpu_backend, c->s, tl_fresh_seed(), &tl_transpose_words);
    else
        return 1;
    if (!v.ok)
        tl_bench_note_verdict(r, &v);
    return v.ok;
}

static const tl_bench_gpu backend = {sizeof(launch_ctx), context, ready, launch, prepare, prepare, verify, &info};

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
    fprintf(f, "# in place: the matrix is restored from a pristine copy before each timed call, "
               "outside the events; out_of_place is the reference of lab " TL_BASELINE_LAB
               ", writing a second matrix\n");
}
