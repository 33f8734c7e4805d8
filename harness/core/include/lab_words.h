/*
 * The labs' words for what their code is built around, as their stubs and
 * handouts write them (DESIGN.md, "Contracts": the tunables), which a
 * checker's caller gives it (check.h: the checker itself speaks of shapes
 * and indices). One set an operation: its labs share their tunables.
 */
#ifndef TILELAB_LAB_WORDS_H
#define TILELAB_LAB_WORDS_H

#include "check.h"

/* The out-of-place transposes (labs 1-6): lab 2's BLOCK, labs 3-6's TILE_DIM and BLOCK_ROWS. */
static const tl_lab_words tl_transpose_words = {
    .tile = "TILE_DIM", .block_rows = "BLOCK_ROWS", .cpu_block = "BLOCK",
};

/* The in-place transpose (lab 9), and the steps of its handout. */
static const tl_lab_words tl_inplace_words = {
    .tile = "TILE_DIM", .block_rows = "BLOCK_ROWS",
    .pairs_step = "README.md, step 1", .tiles_step = "README.md, step 2",
    .both_steps = "README.md, steps 1 and 2", .tiles_in_pairs = "README.md, \"Tiles, swapped in pairs\"",
};

/* The products (labs 7 and 8): lab 7's TILE_WIDTH. */
static const tl_lab_words tl_product_words = {.tile = "TILE_WIDTH"};

#endif
