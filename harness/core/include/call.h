/*
 * How a lab's entry point is called, one row a kind of call (lab.h's
 * signatures): its matrices in lab.h's order, the output first, with the
 * names lab.h gives their device copies; how a call is said in a message;
 * and the call itself, on pointers to the matrices' elements. The backends
 * (check.h), the lab process and the suites' client take a call from here
 * and switch on its kind nowhere else.
 */
#ifndef TILELAB_CALL_H
#define TILELAB_CALL_H

#include <stddef.h>

#include "shapes.h"

typedef enum { TL_CALL_TRANSPOSE, TL_CALL_MATMUL, TL_CALL_INPLACE, TL_CALLS } tl_call_kind;

/* An entry point whatever its signature; its call's invoke calls it as what it is. */
typedef void (*tl_entry_fn)(void);

#define TL_CALL_MATRICES 3

typedef struct {
    tl_call_kind kind;
    const char *name;                             /* "transpose", "matmul", "inplace" */
    int matrices;                                 /* matrix 0 is the output */
    const char *device_name[TL_CALL_MATRICES];    /* "out", "in"; "d_c", "d_a", "d_b" */
    /* fn called on the elements of its matrices, m = s.rows, n = s.cols, k = s.depth */
    void (*invoke)(tl_entry_fn fn, float *const m[TL_CALL_MATRICES], tl_shape s);
    /* The call in a message: "transpose() of a 97 x 89 matrix" for entry "transpose". */
    void (*describe)(char *buf, size_t len, const char *entry, tl_shape s);
} tl_call;

/* The kit's rows: lab.h's three signatures. An operation of another signature defines its
 * own tl_call in its file (op.h), its kind TL_CALLS. */
extern const tl_call tl_call_transpose, tl_call_matmul, tl_call_inplace;

/* The row of kind, or NULL for none. */
const tl_call *tl_call_of(int kind);

/*
 * fn called as call says, on the matrices' elements: call->invoke, or, where
 * fn is an entry point's handle (op.h: one this program runs elsewhere), the
 * handler this program set, told which entry point. Every backend calls a
 * lab's code through here.
 */
typedef void (*tl_entry_handler)(int entry, const tl_call *call, float *const m[TL_CALL_MATRICES],
                                 tl_shape s);
void tl_call_invoke(const tl_call *call, tl_entry_fn fn, float *const m[TL_CALL_MATRICES], tl_shape s);
void tl_call_handle_entries(tl_entry_handler handler);

#endif
