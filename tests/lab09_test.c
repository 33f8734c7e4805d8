/* Lab 9, the extension: the GPU transpose in place, by pairs of mirror tiles. */
#define TL_SUITE lab09
#define TL_LARGE 8192
#include "inplace_tests.h"
#include "gpu_technique.h"

/* Every element through shared tiles (a tile and its mirror), global memory coalesced both ways. */
TL_TECHNIQUE(lab09_technique, uses_two_shared_tiles, 20)
{
    int n = tl_technique_shape(3, 7, 0).rows;
    tl_emu_stats t = tl_counts_of(TL_ENTRY(transpose_inplace), n, n, 1);
    tl_expect_staged(&t, (double)n * n);
    tl_expect_coalesced();
}
