/* Lab 6: the unrolled GPU transpose: a padded tile, fewer rows of threads than the tile. */
#define TL_SUITE lab06
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

/* Lab 5's tile, read and written without bank conflicts. */
TL_TECHNIQUE(lab06_technique, uses_a_padded_tile, 20)
{
    tl_emu_stats t = tl_counts_of(TL_ENTRY(transpose), 192, 128, 1);
    tl_expect_staged(&t, 192.0 * 128);
    tl_expect_coalesced();
    tl_expect_conflict_free();
}

/* Fewer threads than elements: each moves several, as many as the threads that ran say. */
TL_TECHNIQUE(lab06_technique, moves_several_elements_per_thread, 20)
{
    tl_emu_stats t = tl_counts_of(TL_ENTRY(transpose), 192, 128, 1);
    double each = 192.0 * 128 / (double)t.threads;
    cr_assert(each >= 2,
              "%llu threads ran for the %d elements of a 192 x 128 matrix, %.1f elements each: one "
              "thread per element of a tile. Launch TILE_DIM x BLOCK_ROWS threads (e.g. 32 x 8) and "
              "let each thread move TILE_DIM / BLOCK_ROWS elements in a loop.",
              t.threads, 192 * 128, each);
}

/*
 * Shapes whose grid of 64 x 64 tiles needs just over one wave of 64 x 8
 * blocks and fits in one of 64 x 4 (the reference then launches those:
 * README.md, "One wave"), with rows of out on sectors and not: on an H100's
 * 132 SMs 529 to 1056 tiles, on the emulator as on the GPU (it has an
 * H100's SMs). For your kernel they are two more shapes.
 */
TL_TEST(lab06, one_wave_shapes, 20)
{
    tl_expect_transpose(2048, 2048);
    tl_expect_transpose(1999, 2001);
}
