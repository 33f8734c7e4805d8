/* Lab 5: the bank-conflict-free GPU transpose, with a padded tile. */
#define TL_SUITE lab05
#define TL_LARGE 8192
#include "transpose_tests.h"
#include "gpu_technique.h"

TL_TECHNIQUE(lab05_technique, uses_a_padded_tile, 20)
{
    int n = tl_launches(256, 256);
    for (int i = 0; i < n; i++)
        tl_expect_shared_tile(i, n, 1);
}
