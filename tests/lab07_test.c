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
        tl_expect_matmul(TL_ENTRY(matmul_naive), shapes[i].rows, shapes[i].cols, shapes[i].depth);
        tl_expect_matmul(TL_ENTRY(matmul_tiled), shapes[i].rows, shapes[i].cols, shapes[i].depth);
    }
}

/* matmul_tiled reads each float of A and B from global memory once a tile,
 * and its multiply-adds take them from shared memory. */
TL_TECHNIQUE(lab07_technique, tiled_uses_shared_tiles, 20)
{
    tl_shape s = tl_technique_shape(2, 4, 0);
    tl_emu_stats t = tl_counts_of(TL_ENTRY(matmul_tiled), s.rows, s.cols, s.depth);
    tl_expect_tile_reuse(&t, s.rows, s.cols, s.depth, 4);
}
