/* Lab 5: the bank-conflict-free GPU transpose, with a padded tile. */
#define TL_SUITE lab05
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

TL_TECHNIQUE(lab05_technique, uses_a_padded_tile, 20)
{
    tl_launch l = tl_first_launch(256, 256);
    tl_expect_shared_tile(&l, 1);
}
