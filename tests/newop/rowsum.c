/*
 * A throwaway operation, which tests/newop_test.sh adds to a copy of the kit
 * as harness/core/ops/rowsum.c: out[r] = the sum of row r of in (rows x
 * cols), out holding rows floats. Its call is a transpose's (out, in, rows,
 * cols); its checker is check_rowsum.c.
 */
#include "op.h"

TL_ENTRY_POINT(row_sum);

void tl_check_rowsum(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b,
                     tl_shape s, uint64_t seed);

/* out (rows) and in (rows x cols) */
static size_t floats(tl_shape s, int i)
{
    return i == 0 ? (size_t)s.rows : i == 1 ? (size_t)s.rows * (size_t)s.cols : 0;
}

/* in read once, out written once. */
static double least_floats(tl_shape s)
{
    return (double)s.rows * s.cols + s.rows;
}

static double work(tl_shape s)
{
    return least_floats(s) * sizeof(float);
}

const tl_op tl_operation_rowsum = {
    .name = "rowsum",
    .summary = "each row of a matrix summed",
    .call = &tl_call_transpose,
    .entries = {{TL_ENTRY_FNS(row_sum), "student", "your code", "reference", "reference"}},
    .floats = floats,
    .work = work,
    .unit = "GB/s",
    .rate_is = "GB/s = (bytes read + bytes written) / 1e9 / seconds",
    .least_floats = least_floats,
    .dims = 2,
    .sizes_are = "N (square) or ROWSxCOLS",
    .bench_cpu = {"256,1024", 7},
    .bench_gpu = {"1024,4096,8192,4097x8191", 20},
    .sanitize_sizes = "33x31,97x89,1x300,256",
    .profile_size = {256, 192, 1},
    .grade_size = "4096",
    .held_back = "shapes",
    .held_back_are = "RxC,RxC,...     rows x cols, no spaces",
    .check = tl_check_rowsum,
};
