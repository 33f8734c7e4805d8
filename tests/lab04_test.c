/* Lab 4: the coalesced GPU transpose, through a shared-memory tile. */
#define TL_SUITE lab04
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

TL_TECHNIQUE(lab04_technique, uses_a_shared_tile, 20)
{
    tl_launch l = tl_first_launch(256, 256);
    tl_expect_shared_tile(&l, 0);
}
