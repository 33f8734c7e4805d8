/* Lab 8: sgemm, the extension: lab 7's shapes, and a tile of C per thread. */
#define TL_SUITE lab08
#include "matmul_tests.h"
#include "gpu_technique.h"

MATMUL_TESTS(sgemm, sgemm)

/* Held-back MxNxK shapes, run by the grader (see transpose_tests.h). */
TL_HELD_BACK(lab08_hidden, held_back_shapes, 120)
{
    tl_shape shapes[64];
    int n = tl_hidden_shapes(shapes, 64);
    for (int i = 0; i < n; i++)
        tl_expect_matmul(TL_ENTRY(sgemm), shapes[i].rows, shapes[i].cols, shapes[i].depth);
}

/* Each thread a tile of C in registers (16 elements at least), from tiles of A and B in shared memory. */
TL_TECHNIQUE(lab08_technique, each_thread_computes_a_tile_of_c, 20)
{
    tl_emu_stats t = tl_counts_of(TL_ENTRY(sgemm), 128, 128, 128);
    double each = 128.0 * 128 / (double)t.threads;
    cr_assert(each >= 16,
              "for a 128 x 128 C, %llu threads ran, %.1f elements of C each: register blocking "
              "gives each thread a tile of C (at least 4 x 4) to keep in registers. README.md, step 1.",
              t.threads, each);
    tl_expect_tile_reuse(&t, 128, 128, 128, 8);
}
