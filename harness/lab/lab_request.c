/*
 * A request to run an entry point (lab_process.h), read the one way by both
 * processes that answer one: the lab process, which runs it through the real
 * backend beside the lab's code, and the suite's server, which runs it
 * through the suite's own backend (suite_server.c). No system call here:
 * the lab process calls this once it is confined.
 */
#include <stdio.h>

#include "lab_process.h"

const char *tl_lab_entry_name(int entry)
{
    return tl_entry_at(entry) ? tl_entry_at(entry)->name : "?";
}

const tl_call *tl_lab_entry_call(int entry)
{
    return tl_entry_op(entry) ? tl_entry_op(entry)->call : NULL;
}

int tl_lab_request_views(const tl_lab_request *rq, float *base, tl_matrix m[3])
{
    const tl_call *call = tl_lab_entry_call(rq->entry);
    if (!call || rq->matrices != call->matrices)
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

int tl_lab_request_run(const tl_backend *b, const tl_lab_request *rq, tl_entry_fn fn, tl_matrix *m,
                       char *why, size_t why_len)
{
    const tl_call *call = tl_lab_entry_call(rq->entry);
    if (!call) {
        snprintf(why, why_len, "the %s cannot run %s", b->name, tl_lab_entry_name(rq->entry));
        return -1;
    }
    tl_matrix *each[TL_CALL_MATRICES] = {&m[0], &m[1], &m[2]};
    return b->run(call, fn, each, rq->shape, why, why_len);
}
