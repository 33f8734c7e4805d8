/* Lab 6: the unrolled GPU transpose: a padded tile, fewer rows of threads than the tile. */
#define TL_SUITE lab06
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

TL_TECHNIQUE(lab06_technique, uses_a_padded_tile, 20)
{
    int n = tl_launches(256, 256);
    for (int i = 0; i < n; i++)
        tl_expect_shared_tile(i, n, 1);
}

TL_TECHNIQUE(lab06_technique, moves_several_elements_per_thread, 20)
{
    int n = tl_launches(256, 256);
    for (int i = 0; i < n; i++) {
        const tl_launch *l = tl_launch_get(i);
        cr_assert(l->block[1] < l->block[0],
                  "%syou launched blocks of %u x %u threads: one thread per element of a %u x %u "
                  "tile. Launch TILE_DIM x BLOCK_ROWS threads (e.g. 32 x 8) and let each thread "
                  "move TILE_DIM / BLOCK_ROWS elements in a loop.",
                  tl_launch_named(i, n), l->block[0], l->block[1], l->block[0], l->block[0]);
    }
}

/*
 * Shapes whose grid of 64 x 64 tiles needs just over one wave of 64 x 8
 * blocks and fits in one of 64 x 4 (the reference then launches those:
 * README.md, "One wave"), with rows of out on sectors and not: on the
 * emulator's one SM 5 to 8 tiles, on an H100's 132 SMs 529 to 1056. For
 * your kernel they are two more shapes.
 */
TL_TEST(lab06, one_wave_shapes, 10)
{
#ifdef TL_EMU
    tl_expect_transpose(256, 128);
    tl_expect_transpose(127, 127);
#else
    tl_expect_transpose(2048, 2048);
    tl_expect_transpose(1999, 2001);
#endif
}
