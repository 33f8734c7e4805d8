/* The bench's CPU back end: memcpy ceiling, reference, student, OpenBLAS. */
#include "bench.h"
#include "sysinfo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef TL_HAVE_OPENBLAS
#include <cblas.h>
#endif

#ifdef TL_HAVE_OPENBLAS
static void openblas_transpose(float *out, const float *in, int rows, int cols);
#endif

static const tl_variant before[] = {TL_CEILING_COPY(TL_VARIANT){0}};
static const tl_variant after[] = {TL_LIBRARY_TRANSPOSE_CPU(TL_VARIANT){0}};
TL_BENCH_TABLE(before, after)

static size_t llc;
static char *flush_buf;

int tl_bench_init(char *why, size_t why_len)
{
    llc = tl_last_level_cache();
    flush_buf = malloc(2 * llc);
    if (!flush_buf) {
        snprintf(why, why_len, "out of memory for the cache-flush buffer");
        return -1;
    }
#ifdef TL_HAVE_OPENBLAS
    openblas_set_num_threads(1); /* the labs are single-threaded: compare like with like */
#endif
    return 0;
}

int tl_bench_fits(tl_shape s, char *why, size_t why_len)
{
    size_t bytes = tl_shape_elements(s) * sizeof(float);
    size_t avail = tl_host_memory_available();
    if (avail && bytes > avail / 4) {
        snprintf(why, why_len,
                 "%dx%d needs %.1f GiB for its matrices and this machine has %.1f GiB free: "
                 "choose a smaller size",
                 s.rows, s.cols, 4.0 * bytes / (1 << 30), (double)avail / (1 << 30));
        return -1;
    }
    return 0;
}

static void evict(tl_shape s)
{
    /* Matrices that fit in the last-level cache would be timed from it. */
    if (tl_shape_elements(s) * sizeof(float) * 2 < 2 * llc)
        memset(flush_buf, (int)(tl_now() * 1e6) & 0xff, 2 * llc);
}

#ifdef TL_HAVE_OPENBLAS
static void openblas_transpose(float *out, const float *in, int rows, int cols)
{
    cblas_somatcopy(CblasRowMajor, CblasTrans, rows, cols, 1.0f, in, cols, out, rows);
}
#endif

/* A variant's function; NULL for the copy. */
static tl_transpose_fn fn_of(const tl_variant *v)
{
    return (tl_transpose_fn)v->fn;
}

static void run(const tl_variant *v, float *out, const float *in, tl_shape s)
{
    if (!fn_of(v))
        memcpy(out, in, tl_shape_elements(s) * sizeof(float));
    else
        fn_of(v)(out, in, s.rows, s.cols);
}

/* After a timed call: elements of out at random, or all of them; 0, or -1 with why. */
static int verify(const tl_variant *v, const float *out, const float *in, tl_shape s, int rep,
                  int whole, uint64_t *samples, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    int copy = !fn_of(v);
    for (size_t i = 0; i < (whole ? n : TL_BENCH_SAMPLES); i++) {
        size_t at = whole ? i : tl_bench_sample(samples, n);
        if (!tl_bench_same(out[at], in[copy ? at : tl_bench_transposed_from(s, at)], 0)) {
            tl_bench_note_skipped(why, why_len, rep, at, copy ? s.cols : s.rows);
            return -1;
        }
    }
    return 0;
}

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    tl_matrix in, out;
    double *t = calloc((size_t)o->reps, sizeof *t);
    static tl_verdict v;
    if (!t || tl_matrix_alloc(&in, n) || tl_matrix_alloc(&out, n)) {
        snprintf(why, why_len, "out of memory");
        free(t);
        return -1;
    }
    tl_fill_random(in.data, n, TL_DEFAULT_SEED);
    for (int k = 0; k < N_VARIANTS; k++) {
        tl_result *r = &results[k];
        uint64_t samples = TL_DEFAULT_SEED + (uint64_t)k;
        if (!tl_bench_selected(o, &variants[k]))
            continue;
        r->variant = &variants[k];
        tl_transpose_fn fn = fn_of(&variants[k]);
        if (fn) {
            tl_check_transpose(&v, fn, &tl_cpu_backend, s, TL_DEFAULT_SEED, &tl_transpose_words);
            if (!v.ok) {
                tl_bench_note_verdict(r, &v);
                continue;
            }
        }
        for (int i = 0; i < o->warmup; i++)
            run(&variants[k], out.data, in.data, s);
        int i = 0;
        for (; i < o->reps; i++) {
            tl_fill_bits(out.data, n, TL_POISON_BITS);
            evict(s);
            double t0 = tl_now();
            run(&variants[k], out.data, in.data, s);
            t[i] = tl_now() - t0;
            if (verify(&variants[k], out.data, in.data, s, i, i == o->reps - 1, &samples, r->note,
                       sizeof r->note) != 0)
                break;
        }
        if (i < o->reps)
            continue;
        r->stats = tl_stats_of(t, o->reps);
        r->measured = 1;
    }
    tl_matrix_free(&in);
    tl_matrix_free(&out);
    free(t);
    return 0;
}

int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    tl_matrix in, out;
    if (tl_matrix_alloc(&in, n) || tl_matrix_alloc(&out, n)) {
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    tl_fill_random(in.data, n, TL_DEFAULT_SEED);
    tl_fill_bits(out.data, n, TL_POISON_BITS);
    tl_todo_reset();
    run(v, out.data, in.data, s);
    if (tl_todo_message())
        printf("%s: not implemented yet (%s)\n", v->name, tl_todo_message());
    tl_matrix_free(&in);
    tl_matrix_free(&out);
    return 0;
}

/* No bound on the CPU: its rates decide no grade (the grader counts its cache misses). */
double tl_bench_bound(tl_shape s, const tl_result *r, int n, char *how, size_t how_len)
{
    (void)s, (void)r, (void)n, (void)how, (void)how_len;
    return 0;
}

void tl_bench_describe(FILE *f)
{
    char cpu[256];
    tl_cpu_model(cpu, sizeof cpu);
    fprintf(f, "# machine: %s, last-level cache %zu KiB, single-threaded\n", cpu, llc >> 10);
}
