/* Lab 6: the unrolled GPU transpose: a padded tile, fewer rows of threads than the tile. */
#define TL_SUITE lab06
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

/* Lab 5's tile, read and written without bank conflicts. */
TL_TECHNIQUE(lab06_technique, uses_a_padded_tile, 20)
{
    tl_shape s = tl_technique_shape(3, 7, 0);
    tl_emu_stats t = tl_counts_of(TL_ENTRY(transpose), s.rows, s.cols, 1);
    tl_expect_staged(&t, (double)s.rows * s.cols);
    tl_expect_coalesced();
    tl_expect_conflict_free();
    tl_expect_shared_reads_whole(&t, s.rows, s.cols);
}

/* Fewer threads than elements: each moves several, as many as the threads that ran say. The
 * drawn shape's sides are no multiple of a tile, so a tile's threads past the matrix idle:
 * counted over the matrix rounded up to whole 32 x 32 tiles, every thread moves 2 at least
 * (TILE_DIM 32 and BLOCK_ROWS 16 exactly 2; 64 x 16, 4 of its tiles' elements, fewer tiles of
 * 32 x 32 each), where one thread an element covers at most 1 (sides from 104: 0.66 of the
 * rounded matrix are its own elements, and 2 x 0.66 > 1). */
TL_TECHNIQUE(lab06_technique, moves_several_elements_per_thread, 20)
{
    tl_shape s = tl_technique_shape(3, 7, 1);
    tl_emu_stats t = tl_counts_of(TL_ENTRY(transpose), s.rows, s.cols, 1);
    double covered = tl_tiled_area(s.rows, s.cols, 32), each = covered / (double)t.threads;
    /* Blocks that touched no global memory lie past the matrix: where the threads of those that
     * worked move several elements each, what is wrong is the grid, not the threads' loop (a
     * grid of (rows + BLOCK_ROWS - 1) / BLOCK_ROWS in y, 8 times the tiles: 2026-11-28). */
    unsigned long long worked = t.blocks - t.idle_blocks;
    double each_worked = worked ? covered / ((double)t.threads / (double)t.blocks * (double)worked) : 0;
    char grid[96] = "";
    if (tl_launch_count() == 1)
        snprintf(grid, sizeof grid, " (%u x %u, of %u x %u threads)", tl_launch_get(0)->grid[0],
                 tl_launch_get(0)->grid[1], tl_launch_get(0)->block[0], tl_launch_get(0)->block[1]);
    cr_assert(each >= 2 || each_worked < 2,
              "%llu threads ran for a %d x %d matrix, whose whole 32 x 32 tiles hold %.0f elements: "
              "%.1f elements each. But %llu of your grid's %llu blocks%s moved nothing: no thread of "
              "theirs read or wrote global memory, since they lie past the matrix, and the threads "
              "of the %llu that worked moved %.1f elements each, as they should. The grid has more "
              "blocks than the matrix has tiles: one block a TILE_DIM x TILE_DIM tile, (cols + "
              "TILE_DIM - 1) / TILE_DIM x (rows + TILE_DIM - 1) / TILE_DIM, not one for each "
              "BLOCK_ROWS rows or columns.",
              t.threads, s.rows, s.cols, covered, each, t.idle_blocks, t.blocks, grid, worked,
              each_worked);
    cr_assert(each >= 2,
              "%llu threads ran for a %d x %d matrix, whose whole 32 x 32 tiles hold %.0f elements: "
              "%.1f elements each, one thread per element of a tile. Launch TILE_DIM x BLOCK_ROWS "
              "threads (e.g. 32 x 8) and let each thread move TILE_DIM / BLOCK_ROWS elements in a "
              "loop.",
              t.threads, s.rows, s.cols, covered, each);
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
