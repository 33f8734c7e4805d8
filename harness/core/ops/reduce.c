/*
 * The reduction (lab 10): *out = in[0] + ... + in[n - 1]. Its call is its
 * own, (float *out, const float *in, size_t n): n is a count of elements
 * (dims 1), which a shape carries as rows x cols of them (tl_count_shape),
 * so that n past 2^31 rides whole. Its checker is check_reduce.c.
 */
#include <stdio.h>

#include "check_reduce.h"
#include "op.h"

TL_ENTRY_POINT(reduce);

static void invoke(tl_entry_fn fn, float *const m[TL_CALL_MATRICES], tl_shape s)
{
    ((tl_reduce_fn)fn)(m[0], m[1], tl_shape_elements(s));
}

static void describe(char *buf, size_t len, const char *entry, tl_shape s)
{
    snprintf(buf, len, "%s() of n = %zu floats", entry, tl_shape_elements(s));
}

const tl_call tl_call_reduce = {TL_CALLS, "reduce", 2, {"d_out", "d_in"}, invoke, describe};

/* out (one float) and in (n) */
static size_t floats(tl_shape s, int i)
{
    return i == 0 ? 1 : i == 1 ? tl_shape_elements(s) : 0;
}

/* The rate counts what a reduction is about, the n floats read; one float is written. */
static double work(tl_shape s)
{
    return (double)tl_shape_elements(s) * sizeof(float);
}

static double least_floats(tl_shape s)
{
    return (double)tl_shape_elements(s) + 1;
}

static void check(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b, tl_shape s,
                  uint64_t seed)
{
    (void)entry;
    tl_check_reduce(v, (tl_reduce_fn)fn, b, tl_shape_elements(s), seed);
}

const tl_op tl_operation_reduce = {
    .name = "reduce",
    .summary = "an array of floats summed",
    .call = &tl_call_reduce,
    .entries = {{TL_ENTRY_FNS(reduce), "student", "your code", "reference", "reference"}},
    .floats = floats,
    .work = work,
    .unit = "GB/s",
    .rate_is = "GB/s = bytes read (n x 4) / 1e9 / seconds",
    .least_floats = least_floats,
    .dims = 1,
    .sizes_are = "N (a count of floats)",
    /* 2^22 is NVIDIA's ladder's size; 2^30, 4 GiB, the largest a GPU of 16 GB holds twice */
    .bench_cpu = {"4194304,16777216", 7},
    .bench_gpu = {"4194304,16777216,67108864,268435456,1073741824", 20},
    .sanitize_sizes = "1,33,1000,4097,100003",
    .profile_size = {1, 1 << 20, 1}, /* the emulator: a second for the reference, a few for step 1 */
    .grade_size = "268435456",       /* 1 GiB, far past the L2 cache, a few ms a call */
    .grade_emu_size = "1048576",     /* the profile's: 256 to 4096 blocks, the steps apart */
    .held_back = "counts",
    .held_back_are = "N,N,...         reductions (lab 10): counts of floats",
    .hints = {.side = NULL,
              .grid_x = "(n + BLOCK_SIZE - 1) / BLOCK_SIZE blocks (capped, for a grid-stride "
                        "loop), which is 0 only for n = 0: there store 0 in *d_out and launch "
                        "nothing",
              .grid_y = "1 for y",
              .small = "n is",
              .outside = "a thread read or wrote outside d_in, *d_out or a __shared__ array: test "
                         "each element's index against n (i < n, for the second element of a "
                         "first add during load too), index with size_t, and write only "
                         "d_out[0] (the blocks' partials in an array of your own)"},
    .check = check,
};
