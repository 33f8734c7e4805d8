/* What the products (matmul.c, sgemm.c) share: lab 7's work, least traffic and checker. */
#ifndef TILELAB_OPS_PRODUCT_H
#define TILELAB_OPS_PRODUCT_H

#include "op.h"

size_t tl_product_floats(tl_shape s, int i);
double tl_product_work(tl_shape s);
double tl_product_least_floats(tl_shape s);
void tl_product_check(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b,
                      tl_shape s, uint64_t seed);

#endif
