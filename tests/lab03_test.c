/* Lab 3: the naive GPU transpose, and a launch that covers the matrix. */
#define TL_SUITE lab03
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

static void expect_cover(int rows, int cols)
{
    int n = tl_launches(rows, cols);
    for (int i = 0; i < n; i++) {
        const tl_launch *l = tl_launch_get(i);
        unsigned long x = (unsigned long)l->grid[0] * l->block[0];
        unsigned long y = (unsigned long)l->grid[1] * l->block[1];
        cr_assert(y > 1 || rows == 1,
                  "%sfor a %d x %d matrix you launched grid (%u, %u) of blocks (%u, %u): one row of "
                  "%lu threads. Lab 3 asks for a 2-D launch, x over the columns and y over the rows, "
                  "one thread for each element: dim3 block(TILE_DIM, BLOCK_ROWS) and a grid of "
                  "(cols + TILE_DIM - 1) / TILE_DIM by (rows + BLOCK_ROWS - 1) / BLOCK_ROWS blocks.",
                  tl_launch_named(i, n), rows, cols, l->grid[0], l->grid[1], l->block[0], l->block[1], x);
        if ((x >= (unsigned long)cols && y >= (unsigned long)rows) ||
            (x >= (unsigned long)rows && y >= (unsigned long)cols))
            continue;
        /* Blocks of one row of threads on a grid of several rows of blocks, with threads
         * enough in all: the kernel spreads a block over rows by its own arithmetic
         * (threadIdx.x / 32), which the check, reading y as the rows, cannot follow. */
        unsigned long all = (unsigned long)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0];
        cr_assert(!(l->block[1] == 1 && l->block[2] == 1 && l->grid[1] > 1 &&
                    all >= (unsigned long)rows * (unsigned long)cols),
                  "%sfor a %d x %d matrix you launched grid (%u, %u) of blocks (%u, 1): each block "
                  "is one row of %u threads, which your kernel may spread over several rows of the "
                  "matrix itself (threadIdx.x / 32), but the launch's y must cover the rows: the "
                  "harness reads a launch as x over the columns and y over the rows, grid x block "
                  "reaching cols in x and rows in y (README.md, Technique). Give the block its rows "
                  "in y: dim3 block(TILE_DIM, BLOCK_ROWS), threadIdx.y the row in the block.",
                  tl_launch_named(i, n), rows, cols, l->grid[0], l->grid[1], l->block[0], l->block[0]);
        /* The side that falls short, read as x over the columns and y over the rows: the
         * blocks it has, and those it needs. A grid that was capped, or rounded down, or
         * sized from the other side looks the same from here, so the message says what it
         * must be, not how it came to be short. */
        char side[2][320];
        int shorts = 0;
        if (x < (unsigned long)cols)
            snprintf(side[shorts++], sizeof side[0],
                     "in x, %u blocks of %u threads are %lu threads for %d columns, where "
                     "(cols + TILE_DIM - 1) / TILE_DIM = %u blocks are needed",
                     l->grid[0], l->block[0], x, cols, (unsigned)((cols + l->block[0] - 1) / l->block[0]));
        if (y < (unsigned long)rows)
            snprintf(side[shorts++], sizeof side[0],
                     "in y, %u blocks of %u threads are %lu threads for %d rows, where "
                     "(rows + BLOCK_ROWS - 1) / BLOCK_ROWS = %u blocks are needed",
                     l->grid[1], l->block[1], y, rows, (unsigned)((rows + l->block[1] - 1) / l->block[1]));
        cr_assert_fail("%sfor a %d x %d matrix you launched grid (%u, %u) of blocks (%u, %u): %lu x %lu "
                       "threads, not one for each of its %d columns and %d rows, so they cannot cover "
                       "it one element a thread: %s%s%s. Lab 3's kernel gives each thread one element, "
                       "and the launch itself must cover the matrix (a thread that loops over several, "
                       "as a grid-stride loop does, is lab 6's idea): give the grid as many blocks as "
                       "the matrix needs, rounded up, never fewer.",
                       tl_launch_named(i, n), rows, cols, l->grid[0], l->grid[1], l->block[0],
                       l->block[1], x, y, cols, rows, side[0], shorts > 1 ? "; " : "",
                       shorts > 1 ? side[1] : "");
    }
}

TL_TECHNIQUE(lab03_technique, launch_covers_the_matrix, 20)
{
    expect_cover(33, 31);
    expect_cover(1000, 37);
    expect_cover(1, 1000);
    expect_cover(1000, 1);
}
