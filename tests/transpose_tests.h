/*
 * The transpose suite every transpose lab runs. Include it after defining
 * TL_SUITE (the Criterion suite name) and TL_LARGE (the side of the large
 * square case; the emulator uses a smaller one, see tl_test.h).
 */
#include "tl_test.h"

#ifndef TL_SUITE
#error "define TL_SUITE before including transpose_tests.h"
#endif

#define TL_CAT_(a, b) a##b
#define TL_CAT(a, b) TL_CAT_(a, b)

TL_TEST(TL_SUITE, one_by_one, 10)
{
    tl_expect_transpose(1, 1);
}

TL_TEST(TL_SUITE, tiny_rectangles, 10)
{
    tl_expect_transpose(2, 3);
    tl_expect_transpose(3, 2);
}

TL_TEST(TL_SUITE, single_row, 10)
{
    tl_expect_transpose(1, 1000);
}

TL_TEST(TL_SUITE, single_column, 10)
{
    tl_expect_transpose(1000, 1);
}

TL_TEST(TL_SUITE, primes, 10)
{
    tl_expect_transpose(97, 89);
    tl_expect_transpose(89, 97);
    tl_expect_transpose(1009, 1013);
}

/* Around the usual block and tile sides: 8, 16, 32 and 64. */
TL_TEST(TL_SUITE, around_block_edges, 20)
{
    static const int sides[] = {7, 9, 15, 17, 31, 32, 33, 63, 64, 65, 127, 129};
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++)
        tl_expect_transpose(sides[i], sides[i]);
    tl_expect_transpose(33, 31);
    tl_expect_transpose(31, 33);
    tl_expect_transpose(65, 63);
}

TL_TEST(TL_SUITE, tall_rectangle, 10)
{
    tl_expect_transpose(1000, 37);
    tl_expect_transpose(700, 300);
}

TL_TEST(TL_SUITE, wide_rectangle, 10)
{
    tl_expect_transpose(37, 1000);
    tl_expect_transpose(300, 700);
}

TL_TEST(TL_SUITE, large_square, 60)
{
    tl_expect_transpose(TL_LARGE_SIDE, TL_LARGE_SIDE);
}

TL_TEST(TL_SUITE, large_rectangle, 60)
{
    tl_expect_transpose(TL_LARGE_SIDE / 2 + 1, TL_LARGE_SIDE - 1);
}

#ifdef TL_LAB_GPU
/* Past 2^24 elements, which a GPU's large_square crosses and the emulator's does not (tl_test.h). */
TL_TEST(TL_SUITE, large_past_float_index, 60)
{
    tl_expect_transpose(TL_PAST_FLOAT_INDEX, TL_PAST_FLOAT_INDEX);
}

/* The longest rows and columns of a GPU's large shapes (large_square's), thin (tl_test.h). */
TL_TEST(TL_SUITE, thin_shapes, 20)
{
    tl_expect_thin_transpose(TL_LARGE, TL_LARGE);
}
#endif

TL_RANDOM(TL_SUITE, random_shapes, 30)
{
    tl_expect_random_shapes(8, TL_RANDOM_MAX);
}

/*
 * Shapes an instructor held back, run by the grader: TILELAB_HIDDEN is a
 * list such as "97x1031,4095x33". The grader marks it hidden in its results.
 */
TL_HELD_BACK(TL_CAT(TL_SUITE, _hidden), held_back_shapes, 120)
{
    tl_shape shapes[64];
    int n = tl_hidden_shapes(shapes, 64);
    for (int i = 0; i < n; i++)
        tl_expect_transpose(shapes[i].rows, shapes[i].cols);
}
