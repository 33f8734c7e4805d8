/* Lab 6: the unrolled GPU transpose: a padded tile, fewer rows of threads than the tile. */
#define TL_SUITE lab06
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

TL_TECHNIQUE(lab06_technique, uses_a_padded_tile, 20)
{
    tl_launch l = tl_first_launch(256, 256);
    tl_expect_shared_tile(&l, 1);
}

TL_TECHNIQUE(lab06_technique, moves_several_elements_per_thread, 20)
{
    tl_launch l = tl_first_launch(256, 256);
    cr_assert(l.block[1] < l.block[0],
              "you launched blocks of %u x %u threads: one thread per element of a %u x %u tile. "
              "Launch TILE_DIM x BLOCK_ROWS threads (e.g. 32 x 8) and let each thread move "
              "TILE_DIM / BLOCK_ROWS elements in a loop.",
              l.block[0], l.block[1], l.block[0], l.block[0]);
}
