/* Lab 9, the extension: the GPU transpose in place, by pairs of mirror tiles. */
#define TL_SUITE lab09
#define TL_LARGE 8192
#include "inplace_tests.h"
#include "gpu_technique.h"

TL_TECHNIQUE(lab09_technique, uses_two_shared_tiles, 20)
{
    int n = tl_launches_of((void (*)(void))transpose_inplace, 256, 256, 1);
    for (int i = 0; i < n; i++) {
        const tl_launch *l = tl_launch_get(i);
        int side = (int)l->block[0];
        long need = 2L * side * side * (long)sizeof(float), have = tl_launch_shared_bytes(l);
        cr_assert(have >= need,
                  "%syour kernel has %ld bytes of shared memory; the two %d x %d tiles of a pair "
                  "(blocks of %d threads in x, so TILE_DIM is %d) need %ld. The naive kernel of "
                  "step 1 passes the correctness tests, but its writes are strided (lab 3): stage "
                  "a tile and its mirror in two __shared__ arrays, README.md, step 2.",
                  tl_launch_named(i, n), have, side, side, side, side, need);
    }
}
