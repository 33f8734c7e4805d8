/*
 * Correctness of C = A B: every element against a double-precision product,
 * within a tolerance that grows with k and with the magnitudes summed.
 *
 * A float sum of k products, in any order, with or without fused
 * multiply-adds, is within about k u sum |a_ip b_pj| of the exact one
 * (u = 2^-24, the unit round-off; Higham, Accuracy and Stability of
 * Numerical Algorithms, 3.1). The tolerance is twice that, plus four
 * round-offs: it fails a kernel that drops or repeats a product, never
 * one that only sums in another order.
 */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

#define UNIT_ROUNDOFF (1.0 / 16777216.0)

/* Uniform in [-1, 1): products of these never overflow or underflow. */
static void fill_uniform(float *p, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++)
        p[i] = (float)((double)(tl_rand_next(&state) >> 11) / 4503599627370496.0 - 1.0);
}

double tl_matmul_tolerance(int k, double bound)
{
    return (2.0 * k + 4.0) * UNIT_ROUNDOFF * bound + 1e-37;
}

typedef struct {
    size_t wrong, unwritten, nan, from_margin, from_shared;
    size_t worst;        /* index of the element furthest outside its tolerance */
    double worst_ratio;  /* its error over its tolerance */
    int transposed;      /* every element matches C transposed */
} matmul_scan;

static void scan(matmul_scan *sc, const float *c, const double *exact, const double *bound,
                 tl_shape s)
{
    int m = s.rows, n = s.cols, k = s.depth;
    memset(sc, 0, sizeof *sc);
    sc->transposed = m == n && m > 1;
    for (size_t i = 0; i < (size_t)m * n; i++) {
        double tol = tl_matmul_tolerance(k, bound[i]);
        double got = c[i];
        uint32_t bits = tl_float_bits(c[i]);
        double ratio = got == got ? fabs(got - exact[i]) / tol : INFINITY;
        if (sc->transposed) {
            size_t t = (i % n) * n + i / n;
            double ttol = tl_matmul_tolerance(k, bound[t]);
            sc->transposed = got == got && fabs(got - exact[t]) <= ttol;
        }
        if (ratio <= 1.0)
            continue;
        sc->wrong++;
        sc->unwritten += bits == TL_POISON_BITS;
        sc->nan += got != got && bits != TL_POISON_BITS;
        /* On the CPU a NaN keeps its payload through arithmetic: it says where it came from. */
        sc->from_margin += bits == TL_MARGIN_BITS;
        sc->from_shared += bits == TL_SHARED_POISON_BITS;
        if (sc->wrong == 1 || ratio > sc->worst_ratio) {
            sc->worst = i;
            sc->worst_ratio = ratio;
        }
    }
    sc->transposed = sc->transposed && sc->wrong;
}

static void exact_product(double *exact, double *bound, const float *a, const float *b, tl_shape s)
{
    size_t m = (size_t)s.rows, n = (size_t)s.cols, k = (size_t)s.depth;
    memset(exact, 0, m * n * sizeof *exact);
    memset(bound, 0, m * n * sizeof *bound);
    for (size_t i = 0; i < m; i++)
        for (size_t p = 0; p < k; p++) {
            double x = a[i * k + p], ax = fabs(x);
            const float *brow = b + p * n;
            double *erow = exact + i * n, *brow_bound = bound + i * n;
            for (size_t j = 0; j < n; j++) {
                erow[j] += x * brow[j];
                brow_bound[j] += ax * fabs((double)brow[j]);
            }
        }
}

static void explain(char *msg, size_t len, const matmul_scan *sc, const float *c,
                    const double *exact, tl_shape s, int tiled, int on_gpu)
{
    int m = s.rows, n = s.cols, k = s.depth;
    /* The side of the tiles along k, as the first launch's blocks are wide (0: not known). */
    int t = tiled && on_gpu && tl_launch_count() > 0 ? (int)tl_launch_get(0)->block[0] : 0;
    size_t w = sc->worst;
    int tail_rows, tail_cols;
    tl_appendf(msg, len, "  %zu of %zu elements of C are wrong.\n", sc->wrong, (size_t)m * n);
    if (tl_float_bits(c[w]) == TL_POISON_BITS)
        tl_appendf(msg, len, "  e.g. C[%zu][%zu] should be %.9g and was never written\n", w / n,
                   w % n, exact[w]);
    else
        tl_appendf(msg, len,
                   "  worst: C[%zu][%zu] should be %.9g, got %.9g (%.3g times the tolerance)\n",
                   w / n, w % n, exact[w], (double)c[w], sc->worst_ratio);

    if (sc->unwritten == (size_t)m * n) {
        tl_appendf(msg, len, "  hint: C was not written at all. Is the kernel implemented and "
                             "launched?\n");
        return;
    }
    /*
     * Every element of C holds shared memory nobody wrote, and k leaves the last tile along k
     * part-filled: each element's sum reads the tile past k, which no thread stored. A
     * missing barrier leaves the elements of the threads that ran last right, where a block
     * holds more than a warp of C's elements.
     */
    if (sc->from_shared == (size_t)m * n && t > 1 && k % t)
        tl_appendf(msg, len,
                   "  hint: every element of C comes from shared memory nobody had written, and "
                   "k = %d is not a multiple of your tiles' side (%d): the last tile along k "
                   "reaches past k, past A's last column and B's last row. The product reads all "
                   "%d of its rows and columns, so each of their elements must be stored, 0.0f "
                   "where it lies past k (or past m or n): 0 times shared memory nobody wrote is "
                   "not 0. (If both loads already store 0.0f there, look at the barrier that "
                   "should keep the tiles from being read before they are filled.)\n",
                   k, t, t);
    else if (sc->from_shared)
        tl_appendf(msg, len,
                   "  hint: %zu elements come from shared memory nobody had written yet: a missing "
                   "__syncthreads() after loading the tiles, or threads that returned before the "
                   "barrier (every thread of the block must load its part of each tile).\n",
                   sc->from_shared);
    if (sc->from_margin && tiled)
        tl_appendf(msg, len,
                   "  hint: %zu elements come from past the end of A or B, whose margins hold NaN. "
                   "A tile that hangs over the edge of the matrix must load 0.0f for the elements "
                   "outside it (check row < m, col < n and the k index).\n",
                   sc->from_margin);
    else if (sc->from_margin)
        tl_appendf(msg, len,
                   "  hint: %zu elements come from past the end of A or B, whose margins hold NaN: "
                   "the loop over p reads A[row * k + p] and B[p * n + col] for p from 0 to k - 1 "
                   "(p < k, not p <= k), and only a thread with row < m and col < n reads at "
                   "all.\n",
                   sc->from_margin);
    if (sc->nan > sc->from_margin + sc->from_shared)
        tl_appendf(msg, len, "  hint: elements are NaN: a load past the end of A or B (their margins "
                             "hold NaN)%s.\n",
                   tiled ? ", or shared memory read before it was filled (a missing "
                           "__syncthreads(), or threads that returned before it)"
                         : "");
    if (sc->unwritten == sc->wrong && tl_unwritten_tail(c, m, n, &tail_rows, &tail_cols))
        tl_appendf(msg, len,
                   "  hint: the last %d row(s) and %d column(s) of C were never written: the grid "
                   "must cover m and n when they are not multiples of the %s. Round the number "
                   "of blocks up, and check the bounds before the store.\n",
                   tail_rows, tail_cols, tiled ? "tile" : "block");
    if (sc->transposed)
        tl_appendf(msg, len, "  hint: C holds the transposed product: row and column swapped in "
                             "the store (C[row * n + col]) or in the thread's indices.\n");
    if (!sc->nan && !sc->unwritten && !sc->transposed) {
        tl_appendf(msg, len,
                   "  hint: values are computed but wrong: check A[row * k + p] and B[p * n + col], "
                   "and that the loop over p covers 0..k-1 exactly once%s",
                   tiled ? " (tiles: every tile, none twice)" : ", from p = 0.\n");
        /* A tile part past k holds what an earlier tile left there, unless it is stored as 0. */
        if (tiled && t > 1 && k % t)
            tl_appendf(msg, len, "; with k = %d not a multiple of your tiles' side (%d), that the "
                                 "last tile holds 0.0f past k in both A's tile and B's, since the "
                                 "product reads all of it", k, t);
        if (tiled)
            tl_appendf(msg, len, "; and a __syncthreads() before and after using each tile.\n");
    }
}

void tl_check_matmul(tl_verdict *v, tl_matmul_fn fn, int tiled, const tl_backend *backend,
                     tl_shape s, uint64_t seed)
{
    size_t m = (size_t)s.rows, n = (size_t)s.cols, k = (size_t)s.depth;
    tl_matrix a = {NULL, NULL, 0}, b = a, c = a, a0 = a, b0 = a;
    double *exact = malloc(m * n * sizeof *exact), *bound = malloc(m * n * sizeof *bound);
    char *msg = v->message;
    size_t len = sizeof v->message;
    memset(v, 0, sizeof *v);

    tl_appendf(msg, len, "C = A B with m=%zu, n=%zu, k=%zu (A is %zu x %zu, B is %zu x %zu) on the "
               "%s (TILELAB_SEED=%llu):\n", m, n, k, m, k, k, n, backend->name,
               (unsigned long long)seed);
    if (!exact || !bound || tl_matrix_alloc(&a, m * k) || tl_matrix_alloc(&b, k * n) ||
        tl_matrix_alloc(&c, m * n) || tl_matrix_alloc(&a0, m * k) || tl_matrix_alloc(&b0, k * n)) {
        tl_appendf(msg, len, "  not enough host memory\n");
        goto done;
    }
    if (!backend->run_matmul) {
        tl_appendf(msg, len, "  the %s cannot run a matrix product\n", backend->name);
        goto done;
    }
    fill_uniform(a.data, m * k, seed ^ (m << 40) ^ (n << 20) ^ k);
    fill_uniform(b.data, k * n, ~seed ^ (k << 40) ^ (m << 20) ^ n);
    tl_matrix_fill_margins(&a, TL_MARGIN_BITS);
    tl_matrix_fill_margins(&b, TL_MARGIN_BITS);
    tl_fill_bits(c.data, m * n, TL_POISON_BITS);
    tl_matrix_fill_margins(&c, TL_GUARD_BITS);
    memcpy(a0.base, a.base, tl_matrix_total(&a) * sizeof(float));
    memcpy(b0.base, b.base, tl_matrix_total(&b) * sizeof(float));

    tl_todo_reset();
    char why[1024] = "";
    int ran = backend->run_matmul(fn, &c, &a, &b, s, why, sizeof why);
    const char *todo = tl_note_run(msg, len, ran, why);
    if (ran != 0)
        goto done;
    exact_product(exact, bound, a0.data, b0.data, s);
    matmul_scan sc;
    scan(&sc, c.data, exact, bound, s);
    v->wrong = sc.wrong;

    size_t before = tl_find_not_bits(c.base, TL_MARGIN, TL_GUARD_BITS) != TL_MARGIN;
    size_t after = tl_find_not_bits(c.data + c.count, TL_MARGIN, TL_GUARD_BITS) != TL_MARGIN;
    if (after)
        tl_appendf(msg, len, "  wrote past the end of C: a store without its bounds check (row < m "
                             "&& col < n)?\n");
    if (before)
        tl_appendf(msg, len, "  wrote before the start of C: a negative or overflowed index?\n");
    int changed = memcmp(a.base, a0.base, tl_matrix_total(&a) * sizeof(float)) ||
                  memcmp(b.base, b0.base, tl_matrix_total(&b) * sizeof(float));
    if (changed)
        tl_appendf(msg, len, "  A or B was changed: they are the inputs, write only to C.\n");
    if (sc.wrong && todo)
        tl_appendf(msg, len, "  %zu of %zu elements of C are wrong.\n", sc.wrong, m * n);
    else if (sc.wrong)
        explain(msg, len, &sc, c.data, exact, s, tiled, backend->on_gpu);
    v->ok = !sc.wrong && !before && !after && !changed;
done:
    if (v->ok)
        msg[0] = '\0';
    free(exact);
    free(bound);
    tl_matrix_free(&a);
    tl_matrix_free(&b);
    tl_matrix_free(&c);
    tl_matrix_free(&a0);
    tl_matrix_free(&b0);
}
