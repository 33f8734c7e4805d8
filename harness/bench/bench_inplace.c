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
#include "bench_fresh.h"
#include "bench_gpu_transpose.h"
#include "sysinfo.h"

#include <stdint.h>
#include <stdlib.h>
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
    tl_inplace_fn inplace;     /* in place on work; else out of place or the copy */
    tl_transpose_fn transpose; /* out of place into work; NULL: the copy */
    float *work;               /* what the call writes */
    const float *pristine;     /* the matrix as it was */
    tl_shape s;
    const float *h_in;         /* what pristine holds */
    float *h_out;              /* room for work, to check it whole */
    uint64_t samples;          /* the sampler's state */
    tl_fresh *ins, *works;     /* where each timed call's matrices come from */
    int student;          /* the student's: its calls may be launch plans (gpu.h) */
} launch_ctx;

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

/* Before each timed call: the matrix as it was for an in-place call, poison for the others. */
static cudaError_t prepare(void *p)
{
    launch_ctx *c = p;
    size_t bytes = tl_shape_elements(c->s) * sizeof(float);
    if (c->ins) { /* a timed call: a matrix it has not seen, at an address new to it */
        size_t at = tl_fresh_next(c->ins);
        c->pristine = c->ins->d + at;
        c->h_in = c->ins->h + at;
        c->work = c->works->d + tl_fresh_next(c->works);
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
static int checked(tl_result *r, const launch_ctx *c, tl_shape s)
{
    static tl_verdict v;
    if (c->inplace)
        tl_check_inplace(&v, c->inplace, &tl_gpu_backend, s.rows, tl_fresh_seed(), &tl_inplace_words);
    else if (c->transpose)
        tl_check_transpose(&v, c->transpose, &tl_gpu_backend, s, tl_fresh_seed(), &tl_transpose_words);
    else
        return 1;
    if (!v.ok)
        tl_bench_note_verdict(r, &v);
    return v.ok;
}

static void context(launch_ctx *c, const tl_variant *v, float *work, const float *pristine,
                    tl_shape s, const float *h_in, float *h_out, uint64_t samples)
{
    launch_ctx made = {out_of_place(v) ? NULL : (tl_inplace_fn)v->fn,
                       out_of_place(v) ? (tl_transpose_fn)v->fn : NULL,
                       work, pristine, s, h_in, h_out, samples, NULL, NULL, 0};
    *c = made;
}

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    float *h_out = malloc(n * sizeof(float));
    tl_fresh ins, works;
    int rc = -1;
    memset(&ins, 0, sizeof ins), memset(&works, 0, sizeof works);
    if (!h_out) {
        snprintf(why, why_len, "out of host memory");
        goto done;
    }
    if (tl_fresh_make(&ins, n, TL_FRESH_RANDOM, why, why_len) ||
        tl_fresh_make(&works, n, TL_FRESH_EMPTY, why, why_len))
        goto done;
    for (int k = 0; k < N_VARIANTS; k++) {
        tl_result *r = &results[k];
        if (!tl_bench_selected(o, &variants[k]))
            continue;
        r->variant = &variants[k];
        launch_ctx c;
        context(&c, &variants[k], works.d, ins.d, s, ins.h, h_out, TL_DEFAULT_SEED + (uint64_t)k);
        c.ins = &ins, c.works = &works, c.student = !strcmp(variants[k].role, "student");
        if (!checked(r, &c, s))
            continue;
        tl_gpu_op op = {launch, prepare, verify, &c};
        if (c.student) { /* its plans, made before anything is timed */
            tl_fresh ins_again = ins, works_again = works;
            launch_ctx rehearsal = c;
            rehearsal.ins = &ins_again, rehearsal.works = &works_again;
            tl_fresh_plan_ahead(&op, &rehearsal, o->reps);
        }
        if (tl_gpu_time(&op, o->warmup, o->reps, 2 * info.l2_bytes, &r->stats, r->note,
                        sizeof r->note) == 0)
            r->measured = 1;
    }
    rc = 0;
done:
    tl_fresh_free(&ins);
    tl_fresh_free(&works);
    free(h_out);
    return rc;
}

int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s), bytes = n * sizeof(float);
    float *h = malloc(bytes), *d_pristine = NULL, *d_work = NULL;
    cudaError_t err;
    int rc = -1;
    if (!h) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    tl_fill_random(h, n, TL_DEFAULT_SEED);
    if (!(err = cudaMalloc((void **)&d_pristine, bytes)) && !(err = cudaMalloc((void **)&d_work, bytes)) &&
        !(err = cudaMemcpy(d_pristine, h, bytes, cudaMemcpyHostToDevice))) {
        launch_ctx c;
        context(&c, v, d_work, d_pristine, s, h, NULL, 0);
        tl_gpu_op op = {launch, prepare, NULL, &c};
        rc = tl_gpu_once(&op, v->name, why, why_len);
    } else {
        tl_gpu_explain(err, why, why_len);
    }
    cudaFree(d_pristine);
    cudaFree(d_work);
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
    fprintf(f, "# in place: the matrix is restored from a pristine copy before each timed call, "
               "outside the events; out_of_place is the reference of lab " TL_BASELINE_LAB
               ", writing a second matrix\n");
}
