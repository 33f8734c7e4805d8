#include "call.h"

#include <stdio.h>
#include <stdlib.h>

#include "op.h"

typedef void (*transpose_fn)(float *out, const float *in, int rows, int cols);
typedef void (*matmul_fn)(float *c, const float *a, const float *b, int m, int n, int k);
typedef void (*inplace_fn)(float *mat, int n);

static void invoke_transpose(tl_entry_fn fn, float *const m[TL_CALL_MATRICES], tl_shape s)
{
    ((transpose_fn)fn)(m[0], m[1], s.rows, s.cols);
}

static void invoke_matmul(tl_entry_fn fn, float *const m[TL_CALL_MATRICES], tl_shape s)
{
    ((matmul_fn)fn)(m[0], m[1], m[2], s.rows, s.cols, s.depth);
}

static void invoke_inplace(tl_entry_fn fn, float *const m[TL_CALL_MATRICES], tl_shape s)
{
    ((inplace_fn)fn)(m[0], s.rows);
}

static void describe_matrix(char *buf, size_t len, const char *entry, tl_shape s)
{
    snprintf(buf, len, "%s() of a %d x %d matrix", entry, s.rows, s.cols);
}

static void describe_product(char *buf, size_t len, const char *entry, tl_shape s)
{
    snprintf(buf, len, "%s() with m=%d, n=%d, k=%d", entry, s.rows, s.cols, s.depth);
}

static void describe_square(char *buf, size_t len, const char *entry, tl_shape s)
{
    snprintf(buf, len, "%s() of a %d x %d matrix", entry, s.rows, s.rows);
}

const tl_call tl_call_transpose = {TL_CALL_TRANSPOSE, "transpose", 2, {"out", "in"}, invoke_transpose,
                                   describe_matrix};
const tl_call tl_call_matmul = {TL_CALL_MATMUL, "matmul", 3, {"d_c", "d_a", "d_b"}, invoke_matmul,
                                describe_product};
const tl_call tl_call_inplace = {TL_CALL_INPLACE, "inplace", 1, {"d_mat"}, invoke_inplace, describe_square};

const tl_call *tl_call_of(int kind)
{
    static const tl_call *const calls[TL_CALLS] = {&tl_call_transpose, &tl_call_matmul, &tl_call_inplace};
    return kind >= 0 && kind < TL_CALLS ? calls[kind] : NULL;
}

static tl_entry_handler handler;

void tl_call_handle_entries(tl_entry_handler h)
{
    handler = h;
}

void tl_call_invoke(const tl_call *call, tl_entry_fn fn, float *const m[TL_CALL_MATRICES], tl_shape s)
{
    int entry = tl_entry_handled(fn);
    if (entry < 0) {
        call->invoke(fn, m, s);
    } else if (handler) {
        handler(entry, call, m, s);
    } else {
        fprintf(stderr, "tilelab: %s() was called in a program that runs it elsewhere, with no "
                        "way there: a bug of the kit (harness/lab/lab_process.h)\n",
                tl_entry_at(entry)->name);
        abort();
    }
}
