/*
 * The in-place transpose suite (op inplace): square matrices only, every
 * side from 1 up, around the tile sides, odd and prime, large. Include it
 * after defining TL_SUITE and TL_LARGE, as transpose_tests.h.
 */
#include "tl_test.h"

#ifndef TL_SUITE
#error "define TL_SUITE before including inplace_tests.h"
#endif

#define TL_CAT_(a, b) a##b
#define TL_CAT(a, b) TL_CAT_(a, b)

static void expect_sides(const int *sides, size_t count)
{
    for (size_t i = 0; i < count; i++)
        tl_expect_inplace(sides[i]);
}
#define EXPECT_SIDES(...)                                                                          \
    do {                                                                                           \
        static const int sides[] = {__VA_ARGS__};                                                  \
        expect_sides(sides, sizeof sides / sizeof *sides);                                         \
    } while (0)

/* A 1 x 1 matrix is its own transpose: nothing may change, nothing past it either. */
TL_TEST(TL_SUITE, one_by_one, 10)
{
    tl_expect_inplace(1);
}

TL_TEST(TL_SUITE, tiny_squares, 10)
{
    EXPECT_SIDES(2, 3, 4, 5);
}

/* One tile, a tile and a bit, two tiles, for tiles of 4 to 64. */
TL_TEST(TL_SUITE, around_tile_edges, 30)
{
    EXPECT_SIDES(7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129);
}

TL_TEST(TL_SUITE, odd_and_prime, 30)
{
    EXPECT_SIDES(97, 255, 257, 1009, 1013);
}

TL_TEST(TL_SUITE, large_square, 60)
{
    tl_expect_inplace(TL_LARGE_SIDE);
}

TL_TEST(TL_SUITE, large_odd, 60)
{
    tl_expect_inplace(TL_LARGE_SIDE - 1);
}

/* Past 2^24 elements, which a GPU's large_square crosses and the emulator's does not (tl_test.h). */
TL_TEST(TL_SUITE, large_past_float_index, 60)
{
    tl_expect_inplace(TL_PAST_FLOAT_INDEX);
}

TL_RANDOM(TL_SUITE, random_sides, 30)
{
    uint64_t state = tl_test_seed();
    for (int i = 0; i < 8; i++)
        tl_expect_inplace(tl_random_shape(&state, TL_RANDOM_MAX).rows);
}

/*
 * Sides an instructor held back, run by the grader: TILELAB_HIDDEN is a
 * list such as "97,1031,4095" (the held-back file's `sides` line). A shape
 * RxC there gives both sides, R and C.
 */
TL_HELD_BACK(TL_CAT(TL_SUITE, _hidden), held_back_sides, 120)
{
    tl_shape shapes[64];
    int n = tl_hidden_shapes(shapes, 64);
    for (int i = 0; i < n; i++) {
        tl_expect_inplace(shapes[i].rows);
        if (shapes[i].cols != shapes[i].rows)
            tl_expect_inplace(shapes[i].cols);
    }
}
