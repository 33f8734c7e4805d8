/*
 * The emulator's warps: the lanes of a warp meet at each collective, which
 * gives each lane what CUDA's rule says (the PTX ISA's shfl.sync, the
 * Programming Guide's votes, matches and reductions), and a meeting that
 * can never happen fails the kernel naming both lines instead of hanging.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "emu.h"
#include "gpu.h"

void launch_shuffles(unsigned *out, int which);
void launch_wide_shuffles(double *d, long long *ll, unsigned long long *ull, float *f);
void launch_warp_sum(float *out, int threads);
void launch_syncwarp_orders_memory(float *out);
void launch_active_lanes(unsigned *out);
void launch_half_warps(unsigned *out);
void launch_lane_exits_first(unsigned *out);
void launch_partial_warp(unsigned *out);
void launch_reads_of_absent_lanes(unsigned *out);
void launch_count_barrier(int *out);
void launch_own_lane_left_out(unsigned *out);
void launch_shuffle_beside_barrier(unsigned *out);
void launch_vote_beside_shuffle(unsigned *out);
extern const int shuffle_beside_barrier_line, vote_beside_shuffle_line;

static void *device(size_t bytes)
{
    void *d = NULL;
    cr_assert_eq(cudaMalloc(&d, bytes), cudaSuccess);
    cr_assert_eq(cudaMemset(d, 0, bytes), cudaSuccess);
    return d;
}

static void fetch(void *h, const void *d, size_t bytes)
{
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

/* Each case's result for lane l, by the PTX ISA's rule and the Programming Guide. */
static unsigned expected(int which, unsigned l)
{
    switch (which) {
    case 0: return l < 31 ? l + 1 : l;                    /* past the warp: its own */
    case 1: return l > 0 ? l - 1 : l;
    case 2: return l ^ 8;                                 /* inside segments of 16 */
    case 3: return l / 8 * 8 + 3;                          /* lane 3 of its segment of 8 */
    case 4: return 31;                                    /* -1 is lane 31 */
    case 5: return l % 8 < 2 ? l : l - 2;                 /* not below its segment */
    case 6: return l % 8 < 5 ? l + 3 : l;                 /* not past its segment */
    case 7: return l < 16 ? l : l ^ 16;                   /* the rule lets it read below */
    case 8: return 0x49249249u;                           /* lanes 0, 3, 6, ... */
    case 9: return 1u | 0u << 1 | 1u << 2;
    case 10: return 0xfu << (l / 4 * 4);
    case 11: return 1;
    case 12: return 31 * 32 / 2;
    case 13: return (unsigned)-5;
    case 14: return 93;
    case 15: return 0xffffffffu ^ 0u ^ 0u;                /* xor of 0..31 is 0 */
    default: return 0xffffffffu;
    }
}

Test(emulator_warp, shuffles_votes_matches_and_reductions_follow_cudas_rules)
{
    unsigned *d = device(32 * sizeof *d), h[32];
    for (int which = 0; which <= 16; which++) {
        launch_shuffles(d, which);
        fetch(h, d, sizeof h);
        for (unsigned l = 0; l < 32; l++)
            cr_expect_eq(h[l], expected(which, l), "case %d, lane %u: got 0x%x, CUDA gives 0x%x",
                         which, l, h[l], expected(which, l));
    }
}

Test(emulator_warp, sixty_four_bit_and_floating_values_move_whole)
{
    double *d = device(32 * sizeof(double)), hd[32];
    long long *ll = device(32 * sizeof(long long)), hll[32];
    unsigned long long *ull = device(32 * sizeof(unsigned long long)), hull[32];
    float *f = device(32 * sizeof(float)), hf[32];
    launch_wide_shuffles(d, ll, ull, f);
    fetch(hd, d, sizeof hd);
    fetch(hll, ll, sizeof hll);
    fetch(hull, ull, sizeof hull);
    fetch(hf, f, sizeof hf);
    for (int l = 0; l < 32; l++) {
        cr_expect_eq(hd[l], 1.0e300 + 5, "lane %d: %g", l, hd[l]);
        cr_expect_eq(hll[l], -((1ll << 40) + (l ^ 1)), "lane %d: %lld", l, hll[l]);
        cr_expect_eq(hull[l], (1ull << 63) + (unsigned long long)(l < 28 ? l + 4 : l), "lane %d", l);
        cr_expect_eq(hf[l], 0.5f + (float)(l < 4 ? l : l - 4), "lane %d: %g", l, hf[l]);
    }
}

Test(emulator_warp, a_shuffle_reduction_sums_each_warp)
{
    float *d = device(64 * sizeof(float)), h[64];
    launch_warp_sum(d, 64);
    fetch(h, d, sizeof h);
    cr_assert_eq(h[0], 496.0f, "lane 0 of warp 0: %g", h[0]);
    cr_assert_eq(h[32], 496.0f, "lane 0 of warp 1: %g", h[32]);
}

Test(emulator_warp, syncwarp_makes_the_lanes_meet)
{
    float *d = device(32 * sizeof(float)), h[32];
    launch_syncwarp_orders_memory(d);
    fetch(h, d, sizeof h);
    for (int l = 0; l < 32; l++)
        cr_expect_eq(h[l], (float)((l + 1) % 32), "lane %d read %g", l, h[l]);
}

Test(emulator_warp, activemask_is_the_lanes_that_come_together)
{
    unsigned *d = device(32 * sizeof(unsigned)), h[32];
    launch_active_lanes(d);
    fetch(h, d, sizeof h);
    for (int l = 0; l < 20; l++)
        cr_expect_eq(h[l], l < 10 ? 0x3ffu : 0xfffffu, "lane %d: 0x%x", l, h[l]);
}

Test(emulator_warp, half_warps_with_masks_of_their_own_meet_apart)
{
    unsigned *d = device(32 * sizeof(unsigned)), h[32];
    launch_half_warps(d);
    fetch(h, d, sizeof h);
    for (int l = 0; l < 32; l++)
        cr_expect_eq(h[l], l < 16 ? 100u : 216u, "lane %d: %u", l, h[l]);
}

Test(emulator_warp, exited_lanes_take_no_part)
{
    unsigned *d = device(32 * sizeof(unsigned)), h[32];
    launch_lane_exits_first(d);
    fetch(h, d, sizeof h);
    cr_assert_eq(h[0], ~(1u << 5), "lane 5 returned: 0x%x", h[0]);
}

/* As the H100 does (plots/data/warps-h100.txt, undefined-shuffles-h100.txt). */
Test(emulator_warp, a_partial_warp_has_only_its_lanes_and_reading_absent_ones_gives_zero)
{
    unsigned *d = device(96 * sizeof(unsigned)), h[96];
    launch_partial_warp(d);
    fetch(h, d, sizeof h);
    cr_expect_eq(h[0], 0xffffffffu);
    cr_expect_eq(h[32], 0x0000ffffu, "a block of 48 threads: 16 lanes in warp 1, got 0x%x", h[32]);
    for (int l = 0; l < 32; l++)
        cr_expect_eq(h[48 + l], l < 24 ? l + 8u : (unsigned)l, "warp 0, lane %d", l);
    for (int l = 0; l < 16; l++)
        cr_expect_eq(h[48 + 32 + l], l < 8 ? l + 8u : 0u, "warp 1, lane %d: 0x%x",
                     l, h[48 + 32 + l]);
}

Test(emulator_warp, reading_an_exited_lane_or_one_outside_the_mask_gives_zero)
{
    unsigned *d = device(64 * sizeof(unsigned)), h[64];
    cr_assert_eq(cudaMemset(d, 0xff, 64 * sizeof(unsigned)), cudaSuccess);
    launch_reads_of_absent_lanes(d);
    fetch(h, d, sizeof h);
    for (int l = 0; l < 32; l++) {
        if (l == 5 || l == 6)
            continue;
        cr_expect_eq(h[l], 0u, "lane %d read exited lane 5: %u", l, h[l]);
        cr_expect_eq(h[32 + l], 0u, "lane %d read a lane outside its mask: %u", l, h[32 + l]);
    }
}

Test(emulator_warp, syncthreads_count_and_or_reduce_over_the_block)
{
    int *d = device(64 * sizeof(int)), h[64];
    launch_count_barrier(d);
    fetch(h, d, sizeof h);
    for (int i = 0; i < 64; i++)
        cr_expect_eq(h[i], 22 * 100 + 10 + 1, "thread %d: %d", i, h[i]);
}

static void expect_warp_error(const char *what)
{
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const char *d = tl_emu_error_detail();
    cr_assert(d && strstr(d, "warp error") && strstr(d, what), "%s", d ? d : "(none)");
}

Test(emulator_warp, a_lane_left_out_of_its_own_mask_is_an_error)
{
    launch_own_lane_left_out(device(32 * sizeof(unsigned)));
    expect_warp_error("leaves out its own lane");
    cr_assert(strstr(tl_emu_error_detail(), "lane 16 (thread (16, 0, 0))"), "%s", tl_emu_error_detail());
}

Test(emulator_warp, a_shuffle_whose_lanes_wait_at_syncthreads_fails_naming_both_lines)
{
    char shfl[64], barrier[64];
    launch_shuffle_beside_barrier(device(32 * sizeof(unsigned)));
    snprintf(shfl, sizeof shfl, "__shfl_sync with mask 0xffffffff at tests/emu_warp_kernels.cu:%d",
             shuffle_beside_barrier_line);
    snprintf(barrier, sizeof barrier, "__syncthreads() of tests/emu_warp_kernels.cu:%d",
             shuffle_beside_barrier_line + 1);
    expect_warp_error(shfl);
    cr_assert(strstr(tl_emu_error_detail(), barrier), "%s", tl_emu_error_detail());
}

Test(emulator_warp, two_collectives_on_one_mask_fail_naming_both_lines)
{
    char vote[80], shfl[80];
    launch_vote_beside_shuffle(device(32 * sizeof(unsigned)));
    snprintf(vote, sizeof vote, "__ballot_sync with mask 0xffffffff at tests/emu_warp_kernels.cu:%d",
             vote_beside_shuffle_line);
    snprintf(shfl, sizeof shfl, "__shfl_sync with mask 0xffffffff at tests/emu_warp_kernels.cu:%d",
             vote_beside_shuffle_line + 2);
    expect_warp_error(vote);
    cr_assert(strstr(tl_emu_error_detail(), shfl), "%s", tl_emu_error_detail());
}
