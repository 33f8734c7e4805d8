/*
 * The transpose suite every transpose lab runs. Include it after defining
 * TL_SUITE (the Criterion suite name) and TL_LARGE (the side of the large
 * square case; the emulator uses a smaller one, see tl_test.h).
 */
#include "tl_test.h"

#ifndef TL_SUITE
#error "define TL_SUITE before including transpose_tests.h"
#endif

Test(TL_SUITE, one_by_one, .timeout = 10)
{
    tl_expect_transpose(1, 1);
}

Test(TL_SUITE, tiny_rectangles, .timeout = 10)
{
    tl_expect_transpose(2, 3);
    tl_expect_transpose(3, 2);
}

Test(TL_SUITE, single_row, .timeout = 10)
{
    tl_expect_transpose(1, 1000);
}

Test(TL_SUITE, single_column, .timeout = 10)
{
    tl_expect_transpose(1000, 1);
}

Test(TL_SUITE, primes, .timeout = 10)
{
    tl_expect_transpose(97, 89);
    tl_expect_transpose(89, 97);
    tl_expect_transpose(1009, 1013);
}

/* Around the usual block and tile sides: 8, 16, 32 and 64. */
Test(TL_SUITE, around_block_edges, .timeout = 20)
{
    static const int sides[] = {7, 9, 15, 17, 31, 32, 33, 63, 64, 65, 127, 129};
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++)
        tl_expect_transpose(sides[i], sides[i]);
    tl_expect_transpose(33, 31);
    tl_expect_transpose(31, 33);
    tl_expect_transpose(65, 63);
}

Test(TL_SUITE, tall_rectangle, .timeout = 10)
{
    tl_expect_transpose(1000, 37);
    tl_expect_transpose(700, 300);
}

Test(TL_SUITE, wide_rectangle, .timeout = 10)
{
    tl_expect_transpose(37, 1000);
    tl_expect_transpose(300, 700);
}

Test(TL_SUITE, large_square, .timeout = 60)
{
    tl_expect_transpose(TL_LARGE_SIDE, TL_LARGE_SIDE);
}

Test(TL_SUITE, large_rectangle, .timeout = 60)
{
    tl_expect_transpose(TL_LARGE_SIDE / 2 + 1, TL_LARGE_SIDE - 1);
}

Test(TL_SUITE, random_shapes, .timeout = 30)
{
    tl_expect_random_shapes(8, TL_RANDOM_MAX);
}
