/* Lab 4: the coalesced GPU transpose, through a shared-memory tile. */
#define TL_SUITE lab04
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

/* Every element through a shared tile, and both sides of global memory coalesced. */
TL_TECHNIQUE(lab04_technique, uses_a_shared_tile, 20)
{
    tl_shape s = tl_technique_shape(3, 7, 0);
    tl_emu_stats t = tl_counts_of(TL_ENTRY(transpose), s.rows, s.cols, 1);
    tl_expect_staged(&t, (double)s.rows * s.cols);
    tl_expect_coalesced();
}
