/* SGEMM (lab 8, the extension): lab 7's product and checker, one entry point, no naive kernel. */
#include "product.h"

TL_ENTRY_POINT(sgemm);

const tl_op tl_operation_sgemm = {
    .name = "sgemm",
    .summary = "the matrix product, as fast as it goes",
    .call = &tl_call_matmul,
    .entries = {{TL_ENTRY_FNS(sgemm), "student", "your code", "reference", "reference"}},
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
    .grade_size = "1024",
    .held_back = "products",
    .held_back_are = "MxNxK,...     matrix products (labs 7-8): m x n x k",
    .hints = TL_PRODUCT_HINTS,
    .check = tl_product_check,
};
