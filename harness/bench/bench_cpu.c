/*
 * The bench's CPU back end, of any operation (op.h): a memcpy of the bytes
 * one call moves (its work), the ceiling; the lab's kernels; and the
 * operation's library rows, where a file of its own, bench_cpu_OP.c, defines
 * them (tl_bench_cpu_library: OpenBLAS beside the transpose). Its buffers are
 * the operation's; each kernel is checked by the operation's checker before
 * it is timed, and every timed call, its output poisoned before it, must
 * leave bit for bit what its untimed call after the check left: some
 * elements after each repetition, all of them after the last.
 */
#include "bench.h"
#include "sysinfo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef TL_HAVE_OPENBLAS
#include <cblas.h>
#endif

/* The operation's library rows: none, unless bench_cpu_OP.c is linked and defines them. */
__attribute__((weak)) const tl_variant tl_bench_cpu_library[] = {{0}};

static const tl_variant before[] = {TL_CEILING_COPY(TL_VARIANT){0}};
TL_BENCH_TABLE(before, tl_bench_cpu_library)

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

static size_t floats(tl_shape s, int i)
{
    return i < tl_bench_op->call->matrices ? tl_bench_op->floats(s, i) : 0;
}

/* The copy's floats: half the bytes a call moves read, half written. */
static size_t copy_floats(tl_shape s)
{
    return (size_t)(tl_bench_op->work(s) / (2 * sizeof(float)));
}

/* The largest of the call's matrices, and of the copy's. */
static size_t most_floats(tl_shape s)
{
    size_t most = copy_floats(s);
    for (int i = 0; i < TL_CALL_MATRICES; i++)
        most = floats(s, i) > most ? floats(s, i) : most;
    return most;
}

int tl_bench_fits(tl_shape s, char *why, size_t why_len)
{
    size_t bytes = most_floats(s) * sizeof(float);
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
    if (copy_floats(s) * sizeof(float) * 2 < 2 * llc)
        memset(flush_buf, (int)(tl_now() * 1e6) & 0xff, 2 * llc);
}

/*
 * A call's matrices, its inputs random; the copy's source and destination:
 * the call's first input and its output where they hold the copy's floats,
 * else buffers of its own; and the output of the kernel's untimed call.
 */
typedef struct {
    tl_shape s;
    tl_matrix m[TL_CALL_MATRICES];
    tl_matrix copy[2];
    float *copy_from, *copy_to;
    float *want;
} buffers;

static void release(buffers *b)
{
    for (int i = 0; i < TL_CALL_MATRICES; i++)
        tl_matrix_free(&b->m[i]);
    tl_matrix_free(&b->copy[0]);
    tl_matrix_free(&b->copy[1]);
    free(b->want);
}

static int allocate(buffers *b, tl_shape s)
{
    size_t copy = copy_floats(s);
    memset(b, 0, sizeof *b);
    b->s = s;
    for (int i = 0; i < TL_CALL_MATRICES; i++) {
        if (!floats(s, i))
            continue;
        if (tl_matrix_alloc(&b->m[i], floats(s, i)))
            return -1;
        if (i > 0)
            tl_fill_random(b->m[i].data, floats(s, i), TL_DEFAULT_SEED + (uint64_t)(i - 1));
    }
    if (floats(s, 1) >= copy && floats(s, 0) >= copy) {
        b->copy_from = b->m[1].data, b->copy_to = b->m[0].data;
    } else {
        if (tl_matrix_alloc(&b->copy[0], copy) || tl_matrix_alloc(&b->copy[1], copy))
            return -1;
        tl_fill_random(b->copy[0].data, copy, TL_DEFAULT_SEED);
        b->copy_from = b->copy[0].data, b->copy_to = b->copy[1].data;
    }
    return 0;
}

static void run(const tl_variant *v, buffers *b)
{
    if (!v->fn)
        memcpy(b->copy_to, b->copy_from, copy_floats(b->s) * sizeof(float));
    else
        tl_bench_invoke(tl_bench_op->call, v->fn, b->m[0].data, b->m[1].data, b->m[2].data, b->s);
}

/* Before a call: its output holds nothing a call could leave in place. */
static void poison(const tl_variant *v, buffers *b)
{
    if (v->fn)
        tl_fill_bits(b->m[0].data, floats(b->s, 0), TL_POISON_BITS);
    else
        tl_fill_bits(b->copy_to, copy_floats(b->s), TL_POISON_BITS);
}

/* After a timed call: elements of its output at random, or all of them, as they must be: the
 * copy's source, a kernel's untimed call's output. 0, or -1 with why. */
static int verify(const tl_variant *v, const buffers *b, int rep, int whole, uint64_t *samples, char *why,
                  size_t why_len)
{
    size_t n = v->fn ? floats(b->s, 0) : copy_floats(b->s);
    const float *got = v->fn ? b->m[0].data : b->copy_to, *want = v->fn ? b->want : b->copy_from;
    int width = !v->fn ? b->s.cols : tl_bench_op->out_width ? tl_bench_op->out_width(b->s) : (int)n;
    for (size_t i = 0; i < (whole ? n : TL_BENCH_SAMPLES); i++) {
        size_t at = whole ? i : tl_bench_sample(samples, n);
        if (!tl_bench_same(got[at], want[at], 0)) {
            tl_bench_note_skipped(why, why_len, rep, at, width);
            return -1;
        }
    }
    return 0;
}

/* A kernel: its checker's verdict, then its untimed call's output, which every timed one must
 * leave again. 1 when it may be timed, else 0 with r's note saying why. */
static int checked(tl_result *r, buffers *b)
{
    static tl_verdict v;
    const tl_variant *k = r->variant;
    size_t n = floats(b->s, 0);
    if (!k->fn)
        return 1;
    tl_bench_op->check(&v, k->entry, k->fn, &tl_cpu_backend, b->s, TL_DEFAULT_SEED);
    if (!v.ok) {
        tl_bench_note_verdict(r, &v);
        return 0;
    }
    if (!b->want && !(b->want = malloc(n * sizeof(float)))) {
        snprintf(r->note, sizeof r->note, "out of memory");
        return 0;
    }
    poison(k, b);
    run(k, b);
    memcpy(b->want, b->m[0].data, n * sizeof(float));
    return 1;
}

int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len)
{
    buffers b;
    double *t = calloc((size_t)o->reps, sizeof *t);
    if (!t || allocate(&b, s)) {
        snprintf(why, why_len, "out of memory");
        if (t)
            release(&b);
        free(t);
        return -1;
    }
    for (int k = 0; k < N_VARIANTS; k++) {
        tl_result *r = &results[k];
        uint64_t samples = TL_DEFAULT_SEED + (uint64_t)k;
        if (!tl_bench_selected(o, &variants[k]))
            continue;
        r->variant = &variants[k];
        if (!checked(r, &b))
            continue;
        for (int i = 0; i < o->warmup; i++)
            run(&variants[k], &b);
        int i = 0;
        for (; i < o->reps; i++) {
            poison(&variants[k], &b);
            evict(s);
            double t0 = tl_now();
            run(&variants[k], &b);
            t[i] = tl_now() - t0;
            if (verify(&variants[k], &b, i, i == o->reps - 1, &samples, r->note, sizeof r->note) != 0)
                break;
        }
        if (i < o->reps)
            continue;
        r->stats = tl_stats_of(t, o->reps);
        r->measured = 1;
    }
    release(&b);
    free(t);
    return 0;
}

int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len)
{
    buffers b;
    if (allocate(&b, s)) {
        snprintf(why, why_len, "out of memory");
        release(&b);
        return -1;
    }
    poison(v, &b);
    tl_todo_reset();
    run(v, &b);
    if (tl_todo_message())
        printf("%s: not implemented yet (%s)\n", v->name, tl_todo_message());
    release(&b);
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
