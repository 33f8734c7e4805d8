/* Lab 7: C = A B, naive and tiled, on shapes where m, n and k differ. */
#define TL_SUITE lab07
#include "matmul_tests.h"
#include "gpu_technique.h"

MATMUL_TESTS(matmul_naive, naive)
MATMUL_TESTS(matmul_tiled, tiled)

/* Held-back MxNxK shapes, run by the grader (see transpose_tests.h). */
TL_HELD_BACK(lab07_hidden, held_back_shapes, 120)
{
    tl_shape shapes[64];
    int n = tl_hidden_shapes(shapes, 64);
    for (int i = 0; i < n; i++) {
        tl_expect_matmul(matmul_naive, shapes[i].rows, shapes[i].cols, shapes[i].depth);
        tl_expect_matmul(matmul_tiled, shapes[i].rows, shapes[i].cols, shapes[i].depth);
    }
}

TL_TECHNIQUE(lab07_technique, tiled_uses_shared_tiles, 20)
{
    int n = tl_launches_of((void (*)(void))matmul_tiled, 64, 64, 64);
    for (int i = 0; i < n; i++) {
        const tl_launch *l = tl_launch_get(i);
        int side = (int)l->block[0];
        long need = 2L * side * side * (long)sizeof(float), have = tl_launch_shared_bytes(l);
        cr_assert(l->block[0] == l->block[1],
                  "%smatmul_tiled launched blocks of %u x %u threads: use square blocks of "
                  "TILE_WIDTH x TILE_WIDTH, one thread per element of a tile of C.",
                  tl_launch_named(i, n), l->block[0], l->block[1]);
        cr_assert(have >= need,
                  "%syour kernel has %ld bytes of shared memory; two %d x %d tiles (one of A, one "
                  "of B) need %ld. Without them each thread reads its whole row of A and column of "
                  "B from global memory, as the naive kernel does: README.md, step 2.",
                  tl_launch_named(i, n), have, side, side, need);
    }
}
