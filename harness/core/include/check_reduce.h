/*
 * Correctness of a sum of n floats (lab 10), with a message that says what
 * went wrong: which elements the sum lacks (a tail, whole blocks' partial
 * sums), how often it holds them (twice), or where a NaN in it came from.
 * The operation's descriptor is harness/core/ops/reduce.c; this is its
 * checker, and its data, which the bench reuses.
 */
#ifndef TILELAB_CHECK_REDUCE_H
#define TILELAB_CHECK_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "call.h"
#include "check.h"

/* lab.h's lab 10 entry point: *out = in[0] + ... + in[n - 1], device pointers on a GPU. */
typedef void (*tl_reduce_fn)(float *out, const float *in, size_t n);

/*
 * The sum of n = 0 .. 2^51 elements (tl_count_shape); in is a fill of tl_reduce_fill's, out
 * one float. The checks of check.c around it: out's margins guarded, in's
 * margins NaN (a read past either end shows in the sum), in unchanged.
 */
void tl_check_reduce(tl_verdict *v, tl_reduce_fn fn, const tl_backend *backend, size_t n,
                     uint64_t seed);

/*
 * How far a float sum of n terms, in any order (a loop, a tree, atomics in
 * any order), may stray from the exact sum, whose magnitudes sum|x_i| add up
 * to abs_sum: (n - 1) u abs_sum (Higham, Accuracy and Stability of
 * Numerical Algorithms, 4.2). Where every term is a multiple of quantum and
 * abs_sum < 2^24 quantum, every partial sum of any order is such a multiple
 * of less than 2^24 quanta, which a float holds exactly: the bound is 0.
 */
double tl_reduce_tolerance(size_t n, double abs_sum, double quantum);

/*
 * The checker's data, which the bench may reuse: each value a multiple of
 * TL_REDUCE_QUANTUM, nonzero everywhere up to 2^20 elements and in the last
 * 2^16 of any n, sparse between past that, the magnitudes summing to less
 * than 2^24 quanta so that every order of summation is exact. Returns the
 * exact sum; *abs_sum (may be NULL) the sum of magnitudes.
 */
#define TL_REDUCE_QUANTUM 0.125
double tl_reduce_fill(float *x, size_t n, uint64_t seed, double *abs_sum);

/* The call as the backends take it (ops/reduce.c): matrix 0 is out (1 float), matrix 1 is
 * in (n), the shape rows x cols = n elements (tl_count_shape). */
extern const tl_call tl_call_reduce;

#endif
