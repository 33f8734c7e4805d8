/*
 * A request to run an entry point (lab_process.h), read the one way by both
 * processes that answer one: the lab process, which runs it through the real
 * backend beside the lab's code, and the suite's server, which runs it
 * through the suite's own backend (suite_server.c). No system call here:
 * the lab process calls this once it is confined.
 */
#include <stdio.h>

#include "lab_process.h"

#define TL_ENTRY_NAME(name, op) #name,
static const char *const names[] = {TL_ENTRY_POINTS(TL_ENTRY_NAME)};
#undef TL_ENTRY_NAME
#define TL_ENTRY_OP(name, op) op,
static const int ops[] = {TL_ENTRY_POINTS(TL_ENTRY_OP)};
#undef TL_ENTRY_OP

const char *tl_lab_entry_name(int entry)
{
    return entry >= 0 && entry < TL_ENTRIES ? names[entry] : "?";
}

int tl_lab_entry_op(int entry)
{
    return entry >= 0 && entry < TL_ENTRIES ? ops[entry] : -1;
}

int tl_lab_request_views(const tl_lab_request *rq, float *base, tl_matrix m[3])
{
    int op = tl_lab_entry_op(rq->entry);
    if (op < 0 || rq->matrices != (op == TL_CALL_MATMUL ? 3 : op == TL_CALL_INPLACE ? 1 : 2))
        return -1;
    for (int i = 0; i < rq->matrices; i++) {
        if (rq->m[i].offset > rq->floats || rq->floats - rq->m[i].offset < rq->m[i].total ||
            rq->m[i].total != rq->m[i].count + 2 * (size_t)TL_MARGIN)
            return -1;
        m[i].base = base + rq->m[i].offset;
        m[i].data = m[i].base + TL_MARGIN;
        m[i].count = rq->m[i].count;
    }
    return 0;
}

int tl_lab_request_counts_fit(const tl_lab_request *rq)
{
    size_t bytes = rq->floats * sizeof(float);
    return rq->profile_at % 8 == 0 && rq->profile_at <= bytes &&
           bytes - rq->profile_at >= sizeof(tl_lab_profile);
}

int tl_lab_request_run(const tl_backend *b, const tl_lab_request *rq, void (*fn)(void), tl_matrix *m,
                       char *why, size_t why_len)
{
    int op = tl_lab_entry_op(rq->entry);
    if (op == TL_CALL_TRANSPOSE)
        return b->run_transpose((tl_transpose_fn)fn, &m[0], &m[1], rq->shape, why, why_len);
    if (op == TL_CALL_MATMUL && b->run_matmul)
        return b->run_matmul((tl_matmul_fn)fn, &m[0], &m[1], &m[2], rq->shape, why, why_len);
    if (op == TL_CALL_INPLACE && b->run_inplace)
        return b->run_inplace((tl_inplace_fn)fn, &m[0], rq->shape.rows, why, why_len);
    snprintf(why, why_len, "the %s cannot run %s", b->name, tl_lab_entry_name(rq->entry));
    return -1;
}
