/*
 * The row sum's checker (tests/newop/rowsum.c), which tests/newop_test.sh
 * adds as harness/core/src/check_rowsum.c: each of out's rows floats against
 * a sum in double, within the bound of a float sum of cols terms
 * (tl_matmul_tolerance); out's margins untouched, in unchanged.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "op.h"

void tl_check_rowsum(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b,
                     tl_shape s, uint64_t seed);

void tl_check_rowsum(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b,
                     tl_shape s, uint64_t seed)
{
    size_t rows = (size_t)s.rows, cols = (size_t)s.cols, first = rows;
    tl_matrix in = {NULL, NULL, 0}, out = in, in0 = in;
    char *msg = v->message, why[4096] = "";
    size_t len = sizeof v->message;
    memset(v, 0, sizeof *v);
    tl_appendf(msg, len, "%s() of a %zu x %zu matrix on the %s (TILELAB_SEED=%llu):\n", entry, rows,
               cols, b->name, (unsigned long long)seed);
    if (tl_matrix_alloc(&in, rows * cols) || tl_matrix_alloc(&out, rows) ||
        tl_matrix_alloc(&in0, rows * cols)) {
        tl_appendf(msg, len, "  not enough host memory\n");
        goto done;
    }
    uint64_t state = seed ^ (rows << 32) ^ cols;
    for (size_t i = 0; i < rows * cols; i++) /* in [-1, 1): sums that cancel, as data does */
        in.data[i] = (float)((double)(tl_rand_next(&state) >> 40) / (1 << 23) - 1.0);
    tl_matrix_fill_margins(&in, TL_MARGIN_BITS);
    tl_fill_bits(out.data, rows, TL_POISON_BITS);
    tl_matrix_fill_margins(&out, TL_GUARD_BITS);
    memcpy(in0.base, in.base, tl_matrix_total(&in) * sizeof(float));

    tl_todo_reset();
    int ran = b->run(&tl_call_transpose, fn, (tl_matrix *[]){&out, &in}, s, why, sizeof why);
    const char *todo = tl_note_run(msg, len, ran, why);
    v->run_failed = ran != 0;
    if (ran != 0)
        goto done;
    double want = 0;
    for (size_t r = 0; r < rows; r++) {
        double exact = 0, bound = 0;
        for (size_t c = 0; c < cols; c++)
            exact += in0.data[r * cols + c], bound += fabs(in0.data[r * cols + c]);
        float got = out.data[r];
        if (!(fabs(got - exact) <= tl_matmul_tolerance((int)cols, bound))) {
            if (!v->wrong++)
                first = r, want = exact;
        }
    }
    int past = tl_find_not_bits(out.data + rows, TL_MARGIN, TL_GUARD_BITS) != TL_MARGIN;
    int changed = memcmp(in.base, in0.base, tl_matrix_total(&in) * sizeof(float)) != 0;
    if (v->wrong && !todo) {
        char got[64];
        tl_describe_bits(got, sizeof got, tl_float_bits(out.data[first]));
        tl_appendf(msg, len, "  %zu of %zu sums are wrong; the first, out[%zu], is %s where the sum of "
                   "row %zu is %.7g%s\n", v->wrong, rows, first, got, first, want,
                   tl_float_bits(out.data[first]) == TL_POISON_BITS
                       ? ": it was never written (a row without a thread?)" : "");
    }
    if (past)
        tl_appendf(msg, len, "  wrote past the end of out, which holds one float a row\n");
    if (changed)
        tl_appendf(msg, len, "  in was changed: it is the input, write only to out\n");
    v->ok = !v->wrong && !past && !changed;
done:
    if (v->ok)
        msg[0] = '\0';
    tl_matrix_free(&in);
    tl_matrix_free(&out);
    tl_matrix_free(&in0);
}
