/* Lab 7: C = A B, naive and tiled, on shapes where m, n and k differ. */
#include "tl_test.h"
#include "gpu_technique.h"

/* The checker's double-precision product runs on the CPU: large, not huge. */
#ifdef TL_EMU
#define MM_LARGE 256
#define MM_RANDOM 200
#else
#define MM_LARGE 1024
#define MM_RANDOM 400
#endif

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

static void expect_all(tl_matmul_fn fn, const shape3 *shapes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tl_expect_matmul(fn, shapes[i][0], shapes[i][1], shapes[i][2]);
}

static void expect_random(tl_matmul_fn fn)
{
    uint64_t state = tl_test_seed();
    for (int i = 0; i < 3; i++) {
        tl_shape mn = tl_random_shape(&state, MM_RANDOM), kk = tl_random_shape(&state, MM_RANDOM);
        tl_expect_matmul(fn, mn.rows, mn.cols, kk.rows);
    }
}

#define MATMUL_TESTS(fn, name)                                                   \
    TL_TEST(lab07, name##_edge_shapes, 30)                                      \
    {                                                                           \
        expect_all(fn, edges, sizeof edges / sizeof *edges);                    \
    }                                                                           \
    TL_TEST(lab07, name##_tall_and_wide, 30)                                    \
    {                                                                           \
        expect_all(fn, rectangles, sizeof rectangles / sizeof *rectangles);     \
    }                                                                           \
    TL_TEST(lab07, name##_large, 120)                                           \
    {                                                                           \
        tl_expect_matmul(fn, MM_LARGE, MM_LARGE, MM_LARGE);                     \
        tl_expect_matmul(fn, MM_LARGE + 3, MM_LARGE / 2 - 1, MM_LARGE / 2 + 5); \
    }                                                                           \
    TL_TEST(lab07, name##_random_shapes, 60)                                    \
    {                                                                           \
        expect_random(fn);                                                      \
    }

MATMUL_TESTS(matmul_naive, naive)
MATMUL_TESTS(matmul_tiled, tiled)

/* Held-back MxNxK shapes, run by the grader (see transpose_tests.h). */
TL_TEST(lab07_hidden, held_back_shapes, 120)
{
    tl_shape shapes[64];
    int n = tl_hidden_shapes(shapes, 64);
    for (int i = 0; i < n; i++) {
        tl_expect_matmul(matmul_naive, shapes[i].rows, shapes[i].cols, shapes[i].depth);
        tl_expect_matmul(matmul_tiled, shapes[i].rows, shapes[i].cols, shapes[i].depth);
    }
}

static void call_tiled(float *const *d, int rows, int cols)
{
    matmul_tiled(d[0], d[1], d[2], rows, cols, cols);
}

TL_TEST(lab07_technique, tiled_uses_shared_tiles, 20)
{
    tl_launch l = tl_first_launch_of(call_tiled, 64, 64);
    int side = (int)l.block[0];
    long need = 2L * side * side * (long)sizeof(float), have = tl_shared_bytes();
    cr_assert(l.block[0] == l.block[1],
              "matmul_tiled launched blocks of %u x %u threads: use square blocks of TILE_WIDTH x "
              "TILE_WIDTH, one thread per element of a tile of C.", l.block[0], l.block[1]);
    cr_assert(have >= need,
              "your kernels declare %ld bytes of shared memory at most; two %d x %d tiles (one of "
              "A, one of B) need %ld. Without them each thread reads its whole row of A and column "
              "of B from global memory, as the naive kernel does: README.md, step 2.",
              have, side, side, need);
}
