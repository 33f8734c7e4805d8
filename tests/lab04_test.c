/* Lab 4: the coalesced GPU transpose, through a shared-memory tile. */
#define TL_SUITE lab04
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

TL_TECHNIQUE(lab04_technique, uses_a_shared_tile, 20)
{
    int n = tl_launches(256, 256);
    for (int i = 0; i < n; i++)
        tl_expect_shared_tile(i, n, 0);
}
