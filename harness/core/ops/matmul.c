/* The matrix product (lab 7): C[m x n] = A[m x k] B[k x n], a naive kernel and a tiled one. */
#include <string.h>

#include "lab_words.h"
#include "product.h"

TL_ENTRY_POINT(matmul_tiled);
TL_ENTRY_POINT(matmul_naive);

/* C (m x n), A (m x k), B (k x n) */
size_t tl_product_floats(tl_shape s, int i)
{
    size_t m = (size_t)s.rows, n = (size_t)s.cols, k = (size_t)s.depth;
    return i == 0 ? m * n : i == 1 ? m * k : i == 2 ? k * n : 0;
}

double tl_product_work(tl_shape s)
{
    return 2.0 * s.rows * (double)s.cols * s.depth;
}

double tl_product_least_floats(tl_shape s)
{
    double m = s.rows, n = s.cols, k = s.depth;
    return m * k + k * n + m * n;
}

/* Every product's kernel works through shared tiles but lab 7's naive one, whose hints
 * speak of neither tiles nor barriers. */
void tl_product_check(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b,
                      tl_shape s, uint64_t seed)
{
    tl_check_matmul(v, (tl_matmul_fn)fn, strcmp(entry, "matmul_naive") != 0, b, s, seed,
                    &tl_product_words);
}

const tl_op tl_operation_matmul = {
    .name = "matmul",
    .summary = "a matrix product, naive and tiled",
    .call = &tl_call_matmul,
    /* The tiled kernels are the headline, the naive ones beside them. */
    .entries = {{TL_ENTRY_FNS(matmul_tiled), "student", "your code", "reference", "reference"},
                {TL_ENTRY_FNS(matmul_naive), "naive", "your naive", "ref_naive", "naive (ref.)"}},
    .floats = tl_product_floats,
    .work = tl_product_work,
    .unit = "GFLOP/s",
    .rate_is = "GFLOP/s = 2 m n k / 1e9 / seconds",
    .least_floats = tl_product_least_floats,
    .dims = 3,
    .sizes_are = "N (m = n = k) or MxNxK",
    .bench_cpu = {"512,1024,2000,2048,4096,8192", 20},
    .bench_gpu = {"512,1024,2000,2048,4096,8192", 20},
    .sanitize_sizes = "33x31x17,97x89x65,130x7x40,64",
    .profile_size = {128, 128, 128},
    .grade_size = "1024", /* its check runs on the CPU, in double */
    .held_back = "products",
    .held_back_are = "MxNxK,...     matrix products (labs 7-8): m x n x k",
    .hints = TL_PRODUCT_HINTS,
    .check = tl_product_check,
};
