#ifndef TILELAB_BENCH_FRESH_H
#define TILELAB_BENCH_FRESH_H

/*
 * Fresh inputs for every timed repetition on the GPU. A pool of random
 * floats, on the GPU and the same on the host, a little longer than the
 * inputs: each repetition's inputs start at an offset of their own in it,
 * so that each call gets inputs it has not seen, at an address it has not
 * seen, and no copy is needed. A kernel that keeps results from call to
 * call (keyed on its pointers, its sizes or a sample of its inputs) returns
 * stale ones, which the check after each repetition catches; one that
 * recomputes what it is given is timed as it is. Outputs come from a pool
 * too (no contents), at new addresses each time.
 *
 * The pool's values come from a seed drawn for each run (TILELAB_SEED
 * picks one), so no file can hold the answers of the run it is timed in.
 */
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

typedef struct {
    float *d;        /* on the GPU: elements + slack floats */
    float *h;        /* the same on the host, or NULL for an output's pool */
    size_t elements, slack, last;
    uint64_t state;  /* the offsets' random source */
} tl_fresh;

/* Room for `elements` at any offset; contents: random values (finite: no
 * inf or NaN, for products), a reduction's data (check_reduce.h's
 * tl_reduce_fill over the whole pool: every slice of it sums exactly, in any
 * order), or none. 0, or -1 with why. */
enum { TL_FRESH_EMPTY, TL_FRESH_RANDOM, TL_FRESH_FINITE, TL_FRESH_SUMS };
int tl_fresh_make(tl_fresh *f, size_t elements, int contents, char *why, size_t why_len);

/* An offset, in floats, a multiple of 64 (256 bytes, as cudaMalloc aligns)
 * and not the last one given. */
size_t tl_fresh_next(tl_fresh *f);

void tl_fresh_free(tl_fresh *f);

/* This run's seed, drawn once. */
uint64_t tl_fresh_seed(void);

/*
 * Where the student's calls are launch plans (gpu.h): the plan of every call
 * tl_gpu_time(op, ..., reps, ...) will make -- the warm-up's, then each
 * repetition's after op->prepare -- made now, by one lab process, so that no
 * timed call waits for one. `rehearsal` is a copy of op's context whose
 * pools are copies too: it draws the same offsets, in the same order, as
 * the timing will.
 */
void tl_fresh_plan_ahead(const tl_gpu_op *op, void *rehearsal, int reps);

#endif
