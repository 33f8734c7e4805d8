/* Lab 2: the cache-blocked CPU transpose, which must also cover the tail. */
#define TL_SUITE lab02
#define TL_LARGE 4096
#include "transpose_tests.h"

/* One past and one short of a multiple of BLOCK, whatever BLOCK is. */
#ifndef BLOCK
#define BLOCK 32
#endif

TL_TEST(lab02, tail_of_blocked_loop, 10)
{
    int b = BLOCK;
    tl_expect_transpose(4 * b + 1, 3 * b - 1);
    tl_expect_transpose(3 * b - 1, 4 * b + 1);
    tl_expect_transpose(2 * b + 1, 2 * b + 1);
}
