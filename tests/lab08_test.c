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
        tl_expect_matmul(sgemm, shapes[i].rows, shapes[i].cols, shapes[i].depth);
}

TL_TECHNIQUE(lab08_technique, each_thread_computes_a_tile_of_c, 20)
{
    int n = tl_launches_of((void (*)(void))sgemm, 512, 512, 512);
    for (int i = 0; i < n; i++) {
        const tl_launch *l = tl_launch_get(i);
        unsigned long threads = (unsigned long)l->grid[0] * l->grid[1] * l->grid[2] *
                                l->block[0] * l->block[1] * l->block[2];
        cr_assert(threads * 16 <= 512UL * 512,
                  "%sfor a 512 x 512 C you launched %lu threads, %.1f elements of C each: register "
                  "blocking gives each thread a tile of C (at least 4 x 4) to keep in registers. "
                  "README.md, step 1.", tl_launch_named(i, n), threads, 512.0 * 512 / (double)threads);
        cr_assert(tl_launch_shared_bytes(l) > 0,
                  "%syour kernel uses no shared memory: stage the tiles of A and B there, as in "
                  "lab 7.", tl_launch_named(i, n));
    }
}
