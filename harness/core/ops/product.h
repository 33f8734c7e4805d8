/* What the products (matmul.c, sgemm.c) share: lab 7's work, least traffic and checker. */
#ifndef TILELAB_OPS_PRODUCT_H
#define TILELAB_OPS_PRODUCT_H

#include "op.h"

size_t tl_product_floats(tl_shape s, int i);
double tl_product_work(tl_shape s);

/* What a product's fault means (op.h's hints): lab 7's TILE_WIDTH, C's m x n, A's and B's k. */
#define TL_PRODUCT_HINTS                                                                          \
    {.side = "TILE_WIDTH",                                                                        \
     .grid_x = "(n + TILE_WIDTH - 1) / TILE_WIDTH for x (C's n columns)",                        \
     .grid_y = "(m + TILE_WIDTH - 1) / TILE_WIDTH for y (its m rows)",                           \
     .outside = "a thread read or wrote outside A, B, C or a __shared__ array: check row < m and " \
                "col < n before storing C[row * n + col], and that the loads A[row * k + p] and " \
                "B[p * n + col] keep row < m, col < n and p < k"}
double tl_product_least_floats(tl_shape s);
void tl_product_check(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b,
                      tl_shape s, uint64_t seed);

#endif
