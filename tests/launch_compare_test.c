/* launch_compare.h: a GPU's launches of a call beside the emulator's. Planted differences are
 * caught and said; what an honest file does on both (a grid sized by the SMs, a kernel named
 * by its symbol on one side and its source on the other) is not. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "launch_compare.h"

static tl_launch launch(const char *symbol, unsigned gx, unsigned gy, unsigned bx, unsigned by, unsigned shared)
{
    tl_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = gx, l.grid[1] = gy, l.grid[2] = 1;
    l.block[0] = bx, l.block[1] = by, l.block[2] = 1;
    l.shared = shared;
    snprintf(l.symbol, sizeof l.symbol, "%s", symbol);
    return l;
}

Test(launch_compare, base_names_from_symbols_and_sources)
{
    const char *cases[][2] = {
        {"_Z5tiledPfPKfii", "tiled"},
        {"_ZL5tiledPfPKfii", "tiled"},
        {"_ZN2ns4tileILi32EEEvPfPKfii", "tile"},
        {"_Z4tileILi32EEvPfPKfii", "tile"},
        {"_ZN12_GLOBAL__N_15naiveEPfPKfii", "naive"},
        {"transpose_kernel", "transpose_kernel"},
        {"ns::tile<float, 32>", "tile"},
        {"tile<32> ", "tile"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[128];
        tl_kernel_base(cases[i][0], out, sizeof out);
        cr_expect_str_eq(out, cases[i][1], "'%s' gave '%s'", cases[i][0], out);
    }
}

Test(launch_compare, a_record_reads_back)
{
    tl_launch l[20], back[20];
    char line[4096];
    for (int i = 0; i < 20; i++)
        l[i] = launch(i % 2 ? "_Z5naivePfPKfii" : "", 9 + i, 33, 32, 8, 4 * i);
    cr_assert_eq(tl_launches_write(line, sizeof line, 20, l), 0);
    int n = 0;
    unsigned long long digest = 0;
    cr_assert_eq(tl_launches_read(line, &n, back, 20, &digest), 0, "%s", line);
    cr_expect_eq(n, 20);
    cr_expect_eq(digest, tl_launches_digest(20, l), "the digest of all 20 travels with the first %d",
                 TL_COMPARE_LAUNCHES);
    for (int i = 0; i < TL_COMPARE_LAUNCHES; i++) {
        cr_expect_str_eq(back[i].symbol, l[i].symbol);
        cr_expect_eq(back[i].grid[0], l[i].grid[0]);
        cr_expect_eq(back[i].shared, l[i].shared);
    }
    cr_expect_eq(tl_launches_write(line, 8, 20, l), -1, "a line that does not fit is refused");
    cr_expect_eq(tl_launches_read("2|_Z1kv 1 1 1 32 1 1 0", &n, back, 20, &digest), -1, "one launch of two");
    cr_expect_eq(tl_launches_read("x", &n, back, 20, &digest), -1);
    cr_expect_eq(tl_launches_read("0", &n, back, 20, &digest), 0);
}

Test(launch_compare, planted_differences_are_caught)
{
    tl_launch tiled = launch("_Z5tiledPfPKfii", 9, 9, 32, 32, 0), naive = launch("_Z5naivePfPKfii", 9, 33, 32, 8, 0);
    char why[2048];
    cr_assert_eq(tl_launches_differ(1, &naive, 0, 1, &tiled, 132, why, sizeof why), 1);
    cr_expect(strstr(why, "on the GPU your call launched the kernel naive") && strstr(why, "on the emulator tiled"),
              "%s", why);
    /* the same kernel, other blocks: a block of 32 x 8 where it is timed, 32 x 32 where counted */
    tl_launch a = launch("_Z5tiledPfPKfii", 9, 9, 32, 8, 0), b = launch("tiled", 9, 9, 32, 32, 0);
    cr_expect_eq(tl_launches_differ(1, &a, 0, 1, &b, 132, why, sizeof why), 1);
    cr_expect(strstr(why, "blocks differ"), "%s", why);
    /* dynamic shared memory */
    a = launch("_Z1kPf", 9, 9, 32, 32, 0), b = launch("_Z1kPf", 9, 9, 32, 32, 4224);
    cr_expect_eq(tl_launches_differ(1, &a, 0, 1, &b, 132, why, sizeof why), 1);
    cr_expect(strstr(why, "dynamic shared memory differs"), "%s", why);
    /* one launch on the GPU, two on the emulator */
    tl_launch two[2] = {tiled, tiled};
    cr_expect_eq(tl_launches_differ(1, &tiled, 0, 2, two, 132, why, sizeof why), 1);
    cr_expect(strstr(why, "made 1 launch (") && strstr(why, "on the emulator 2"), "%s", why);
    /* a grid that is not sized by the device: one block on the GPU, the whole matrix emulated */
    a = launch("_Z7stridedPfPKfii", 1, 1, 256, 1, 0), b = launch("_Z7stridedPfPKfii", 70, 1, 256, 1, 0);
    cr_expect_eq(tl_launches_differ(1, &a, 0, 1, &b, 132, why, sizeof why), 1);
    cr_expect(strstr(why, "grids differ"), "%s", why);
    /* the second launch of two differs */
    tl_launch g2[2] = {tiled, naive}, e2[2] = {tiled, tiled};
    cr_expect_eq(tl_launches_differ(2, g2, 0, 2, e2, 132, why, sizeof why), 1);
    cr_expect(strstr(why, "(launch 2 of 2)"), "%s", why);
    /* SMs not known: every grid must match */
    a = launch("_Z1kPf", 264, 1, 256, 1, 0), b = launch("_Z1kPf", 132, 1, 256, 1, 0);
    cr_expect_eq(tl_launches_differ(1, &a, 0, 1, &b, 0, why, sizeof why), 1);
}

Test(launch_compare, what_an_honest_file_does_on_both_agrees)
{
    char why[2048] = "";
    tl_launch same = launch("_Z5tiledPfPKfii", 9, 9, 32, 32, 0), src = launch("_Z5tiledPfPKfii", 9, 9, 32, 32, 0);
    cr_expect_eq(tl_launches_differ(1, &same, 0, 1, &src, 132, why, sizeof why), 0, "%s", why);
    /* a symbol the emulator did not learn (no thread ran): the blocks still agree */
    src.symbol[0] = '\0';
    cr_expect_eq(tl_launches_differ(1, &same, 0, 1, &src, 132, why, sizeof why), 0, "%s", why);
    /* a persistent grid of blocks an SM from the occupancy, which the emulator models: 2 a SM on
     * the GPU, 3 emulated */
    tl_launch a = launch("_Z1kPf", 264, 1, 256, 1, 0), b = launch("_Z1kPf", 396, 1, 256, 1, 0);
    cr_expect_eq(tl_launches_differ(1, &a, 0, 1, &b, 132, why, sizeof why), 0, "%s", why);
    /* capped by the work on one side only: min(tiles, blocks a SM x SMs) */
    a = launch("_Z1kPf", 200, 1, 256, 1, 0), b = launch("_Z1kPf", 132, 1, 256, 1, 0);
    cr_expect_eq(tl_launches_differ(1, &a, 0, 1, &b, 132, why, sizeof why), 0, "%s", why);
    /* no launch on either side */
    cr_expect_eq(tl_launches_differ(0, NULL, 0, 0, NULL, 132, why, sizeof why), 0, "%s", why);
    /* past the record's launches, the same kernels and blocks under other grids (sized by the
     * device): the digest leaves grids out */
    tl_launch many[TL_COMPARE_LAUNCHES + 2], other[TL_COMPARE_LAUNCHES + 2];
    for (int i = 0; i < TL_COMPARE_LAUNCHES + 2; i++)
        many[i] = other[i] = same;
    other[TL_COMPARE_LAUNCHES + 1].grid[0] = 264;
    cr_expect_eq(tl_launches_differ(TL_COMPARE_LAUNCHES + 2, many, tl_launches_digest(TL_COMPARE_LAUNCHES + 2, many),
                                    TL_COMPARE_LAUNCHES + 2, other, 132, why, sizeof why), 0, "%s", why);
}

/* A file that launches a few small kernels first (to time the machine: cheat14's
 * detect-events.cu launched 20) pushes the kernel it chose past the record's first launches:
 * the digest of them all still tells them apart. */
Test(launch_compare, a_difference_past_the_first_launches_is_caught)
{
    char why[2048] = "";
    tl_launch gpu[TL_COMPARE_LAUNCHES + 5], emu[TL_COMPARE_LAUNCHES + 5];
    for (int i = 0; i < TL_COMPARE_LAUNCHES + 4; i++)
        gpu[i] = emu[i] = launch("_Z4tinyPf", 64, 1, 256, 1, 0);
    gpu[TL_COMPARE_LAUNCHES + 4] = launch("_Z5naivePfPKfii", 9, 33, 32, 8, 0);
    emu[TL_COMPARE_LAUNCHES + 4] = launch("_Z5tiledPfPKfii", 9, 9, 32, 32, 0);
    int n = TL_COMPARE_LAUNCHES + 5;
    cr_expect_eq(tl_launches_differ(n, gpu, tl_launches_digest(n, gpu), n, emu, 132, why, sizeof why), 1);
    cr_expect(strstr(why, "the first 16 agree, but a later one launched another kernel"), "%s", why);
    /* a record without a digest (0) compares what it holds */
    cr_expect_eq(tl_launches_differ(n, gpu, 0, n, emu, 132, why, sizeof why), 0);
}
