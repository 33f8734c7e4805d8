/* Lab 5: the bank-conflict-free GPU transpose, with a padded tile. */
#define TL_SUITE lab05
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

/* Lab 4's tile, read and written without bank conflicts. */
TL_TECHNIQUE(lab05_technique, uses_a_padded_tile, 20)
{
    tl_shape s = tl_technique_shape(3, 7, 0);
    tl_emu_stats t = tl_counts_of(TL_ENTRY(transpose), s.rows, s.cols, 1);
    tl_expect_staged(&t, (double)s.rows * s.cols);
    tl_expect_coalesced();
    tl_expect_conflict_free();
    tl_expect_shared_reads_whole(&t, s.rows, s.cols);
}
