/*
 * The matrix-product suite labs 7 and 8 share: MATMUL_TESTS(fn, name) makes
 * tests name_edge_shapes, name_tall_and_wide, name_large, name_thin_shapes
 * and name_random_shapes of suite TL_SUITE for the entry point fn.
 */
#include "tl_test.h"

/* The checker's double-precision product runs on the CPU: large, not huge.
 * The emulator's are smaller; the GPU's are checked thin too (tl_test.h). */
#define MM_GPU_LARGE 1024
#ifdef TL_EMU
#define MM_LARGE 256
#else
#define MM_LARGE MM_GPU_LARGE
#endif
/* The random products are the same on every machine: a seed names shapes, and a
 * kernel right at the emulator's and wrong at a GPU's (a grid with x and y swapped,
 * short only where m and n differ enough) would take two verdicts from one seed.
 * Sides are drawn log-uniform up to this (shapes.c), so most products are small. */
#define MM_RANDOM 400
/* The large shapes for a side. */
#define MM_LARGE_SHAPES(side) {{side, side, side}, {side + 3, side / 2 - 1, side / 2 + 5}}

typedef int shape3[3];

static const shape3 edges[] = {
    {1, 1, 1}, {1, 1, 7}, {7, 1, 1}, {1, 7, 1},  /* single rows, columns, dots */
    {64, 48, 1},                                 /* k = 1: an outer product */
    {16, 16, 16}, {15, 17, 16}, {17, 15, 16},    /* around one 16 x 16 tile */
    {33, 31, 32}, {31, 33, 33}, {17, 33, 19},    /* around 32, and primes */
};
static const shape3 rectangles[] = {
    {300, 7, 40}, {7, 300, 40}, {40, 7, 300}, {257, 129, 65},
};
static const shape3 large[] = MM_LARGE_SHAPES(MM_LARGE), gpu_large[] = MM_LARGE_SHAPES(MM_GPU_LARGE);

static void expect_all(tl_entry_fn fn, const shape3 *shapes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tl_expect_matmul(fn, shapes[i][0], shapes[i][1], shapes[i][2]);
}

/* The longest m, n and k of shapes[], thin (tl_test.h). */
static void expect_thin(tl_entry_fn fn, const shape3 *shapes, size_t n)
{
    int most[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 3; d++)
            most[d] = shapes[i][d] > most[d] ? shapes[i][d] : most[d];
    tl_expect_thin_matmul(fn, most[0], most[1], most[2]);
}

static void expect_random(tl_entry_fn fn)
{
    uint64_t state = tl_test_seed();
    for (int i = 0; i < 3; i++) {
        tl_shape mn = tl_random_shape(&state, MM_RANDOM), kk = tl_random_shape(&state, MM_RANDOM);
        tl_expect_matmul(fn, mn.rows, mn.cols, kk.rows);
    }
}

#define MATMUL_TESTS(fn, name)                                                   \
    TL_TEST(TL_SUITE, name##_edge_shapes, 30)                                      \
    {                                                                           \
        expect_all(TL_ENTRY(fn), edges, sizeof edges / sizeof *edges);                    \
    }                                                                           \
    TL_TEST(TL_SUITE, name##_tall_and_wide, 30)                                    \
    {                                                                           \
        expect_all(TL_ENTRY(fn), rectangles, sizeof rectangles / sizeof *rectangles);     \
    }                                                                           \
    TL_TEST(TL_SUITE, name##_large, 120)                                           \
    {                                                                           \
        expect_all(TL_ENTRY(fn), large, sizeof large / sizeof *large);                    \
    }                                                                           \
    TL_TEST(TL_SUITE, name##_thin_shapes, 20)                                      \
    {                                                                           \
        expect_thin(TL_ENTRY(fn), gpu_large, sizeof gpu_large / sizeof *gpu_large);       \
    }                                                                           \
    TL_RANDOM(TL_SUITE, name##_random_shapes, 60)                                  \
    {                                                                           \
        expect_random(TL_ENTRY(fn));                                                    \
    }

