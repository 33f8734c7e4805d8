/*
 * Cooperative groups and asynchronous copies on the emulator: the block,
 * tiles (static and dynamic, of the block and of tiles), coalesced groups,
 * cg::reduce and scans, cg::memcpy_async, cuda_pipeline.h's copies that
 * land only when waited for, and a tile whose threads never meet.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "emu.h"
#include "gpu.h"
#include "matrix.h"

void launch_block_group(int *out);
void launch_tiles_of_32(int *out);
void launch_tiles_of_8(unsigned *out);
void launch_dynamic_tiles(unsigned *out);
void launch_reductions(float *out);
void launch_coalesced(unsigned *out);
void launch_partitions(unsigned *out);
void launch_group_copy(float *out, const float *in);
void launch_pipelined(float *out, const float *in);
void launch_read_before_wait(float *out, const float *in);
void launch_read_own_piece_before_wait(float *out, const float *in);
void launch_grid_coordinates(unsigned *out);
void launch_split_tile(int *out);
void launch_grid_sync(unsigned *out);
extern const int split_tile_line, grid_sync_line;

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

static float *floats_in(int n)
{
    float *d = device(n * sizeof(float)), h[1024];
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    cr_assert_eq(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

Test(emulator_cg, the_block_group)
{
    int *d = device(128 * sizeof(int)), h[128];
    launch_block_group(d);
    fetch(h, d, sizeof h);
    for (int b = 0; b < 2; b++)
        for (int r = 0; r < 64; r++)
            cr_expect_eq(h[b * 64 + r], (r + 1) % 64 * 1000 + 640 + r / 32, "block %d, rank %d: %d", b, r,
                         h[b * 64 + r]);
}

Test(emulator_cg, tiles_of_a_warp)
{
    int *d = device(96 * sizeof(int)), h[96];
    launch_tiles_of_32(d);
    fetch(h, d, sizeof h);
    for (int t = 0; t < 3; t++) {
        int first = 32 * t, sum = 32 * first + 31 * 32 / 2;
        cr_expect_eq(h[first], sum, "tile %d's sum: %d", t, h[first]);
        cr_expect_eq(h[first + 5], t * 10 + 3, "tile %d: meta group rank and size: %d", t, h[first + 5]);
    }
}

Test(emulator_cg, tiles_of_eight_vote_and_shuffle_within_the_tile)
{
    unsigned *d = device(64 * sizeof(unsigned)), h[64];
    launch_tiles_of_8(d);
    fetch(h, d, sizeof h);
    for (unsigned r = 0; r < 64; r++) {
        unsigned want = 0x55u | (r / 8 * 8) << 8 | (unsigned)(r / 8 == 7) << 16 | (unsigned)(r / 8 < 7) << 17 |
                        (r / 8) << 20 | (r % 32 / 16) << 24 | 2u << 26;
        cr_expect_eq(h[r], want, "rank %u: 0x%x, CUDA gives 0x%x", r, h[r], want);
    }
}

Test(emulator_cg, tiles_of_a_size_known_when_it_runs)
{
    unsigned *d = device(32 * sizeof(unsigned)), h[32];
    launch_dynamic_tiles(d);
    fetch(h, d, sizeof h);
    for (unsigned r = 0; r < 32; r++)
        cr_expect_eq(h[r], r % 4 | 4u << 8, "rank %u: 0x%x", r, h[r]);
}

Test(emulator_cg, reduce_scans_and_shuffles_of_structures)
{
    float *d = device(96 * sizeof(float)), h[96];
    launch_reductions(d);
    fetch(h, d, sizeof h);
    for (int r = 0; r < 32; r++) {
        cr_expect_eq(h[r], 496.0f * 1000 + 31, "rank %d: %g", r, h[r]);
        cr_expect_eq(h[32 + r], (float)((r % 8 + 1) * 100 + 2 * (r % 8)), "rank %d's scans: %g", r, h[32 + r]);
        cr_expect_eq(h[64 + r], 30.0f, "rank 5's triple: %g", h[64 + r]);
    }
}

Test(emulator_cg, coalesced_threads_are_those_that_take_the_branch)
{
    unsigned *d = device(32 * sizeof(unsigned)), h[32];
    launch_coalesced(d);
    fetch(h, d, sizeof h);
    for (unsigned l = 0; l < 32; l += 3) {
        unsigned want = 11u | (l / 3) << 8 | 100u << 16 | 0x7e0u << 24; /* ranks 5..10 are lanes 15..30 */
        cr_expect_eq(h[l], want, "lane %u: 0x%x, CUDA gives 0x%x", l, h[l], want);
    }
}

/* CUDA's rule (cooperative_groups/details/partitioning.h): a binary partition's part of the
 * threads that hold the predicate is the second of two; labeled parts are ranked by their first
 * lanes; invoke_one_broadcast's value is the one its rank 0 returned. */
Test(emulator_cg, partitions_split_a_warp_by_predicate_and_label)
{
    unsigned *d = device(64 * sizeof(unsigned)), h[64];
    launch_partitions(d);
    fetch(h, d, sizeof h);
    for (unsigned l = 0; l < 32; l++) {
        unsigned odd = l % 3 == 0, size = odd ? 11 : 21, rank = odd ? l / 3 : l - l / 3 - 1;
        unsigned want = size | rank << 6 | odd << 12 | 2u << 14;
        cr_expect_eq(h[l], want, "binary, lane %u: 0x%x, CUDA gives 0x%x", l, h[l], want);
        unsigned part = l / 5;
        want = (part == 6 ? 2u : 5u) | l % 5 << 6 | part << 12 | 7u << 18 | part * 5 << 24;
        cr_expect_eq(h[32 + l], want, "labeled, lane %u: 0x%x, CUDA gives 0x%x", l, h[32 + l], want);
    }
}

Test(emulator_cg, a_groups_async_copy_is_there_after_wait_and_counted)
{
    float *in = floats_in(256), *out = device(256 * sizeof(float)), h[256];
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_group_copy(out, in);
    tl_emu_profile(0);
    fetch(h, out, sizeof h);
    for (int i = 0; i < 256; i++)
        cr_expect_eq(h[i], (float)(255 - i));
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_expect_eq(s->global_load_bytes, 1024, "the copy's reads: %llu", s->global_load_bytes);
    cr_expect_eq(s->shared_store_requests, 2, "64 threads copy a float4 each, 2 warps: %llu",
                 s->shared_store_requests);
}

Test(emulator_cg, a_pipeline_copy_lands_when_waited_for)
{
    float *in = floats_in(128), *out = device(64 * sizeof(float)), h[64];
    launch_pipelined(out, in);
    fetch(h, out, sizeof h);
    cr_expect_eq(tl_float_bits(h[3]), TL_SHARED_POISON_BITS, "read before the wait: %g", h[3]);
    cr_expect_eq(h[32 + 3], 13.0f, "after it: %g", h[32 + 3]);
}

Test(emulator_cg, the_grids_coordinates)
{
    unsigned *d = device(8 * sizeof(unsigned)), h[8];
    launch_grid_coordinates(d);
    fetch(h, d, sizeof h);
    for (unsigned i = 0; i < 8; i++)
        cr_expect_eq(h[i], 8u << 16 | (i / 4) << 8 | i, "0x%x", h[i]);
}

/* this_grid().sync() in a launch with <<< >>> (a lab's never is cooperative): the H200 fails
 * the kernel there, unspecified launch failure, even a grid of one block. */
Test(emulator_cg, a_grids_sync_outside_a_cooperative_launch_fails_the_kernel)
{
    char where[80];
    launch_grid_sync(device(32 * sizeof(unsigned)));
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure, "%s", tl_emu_error_detail());
    snprintf(where, sizeof where, "this_grid().sync() at tests/emu_cg_kernels.cu:%d", grid_sync_line);
    cr_assert(strstr(tl_emu_error_detail(), where), "%s", tl_emu_error_detail());
    cr_assert(strstr(tl_emu_error_detail(), "cooperative launch"), "%s", tl_emu_error_detail());
}

Test(emulator_cg, a_tile_whose_threads_never_meet_fails_naming_both_lines)
{
    char where[80];
    launch_split_tile(device(32 * sizeof(int)));
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    snprintf(where, sizeof where, "__syncwarp with mask 0xffffffff at tests/emu_cg_kernels.cu:%d", split_tile_line);
    cr_assert(strstr(tl_emu_error_detail(), where), "%s", tl_emu_error_detail());
    snprintf(where, sizeof where, "__syncthreads() of tests/emu_cg_kernels.cu:%d", split_tile_line + 1);
    cr_assert(strstr(tl_emu_error_detail(), where), "%s", tl_emu_error_detail());
}

/* Reading the destination of a group's copy before cg::wait: the part another thread copies
 * is a race (the emulator's copy is made as it is called, by the threads of the group). */
Test(emulator_cg, reading_a_group_copy_before_the_wait_is_a_race)
{
    float *in = floats_in(32), *out = device(32 * sizeof(float));
    launch_read_before_wait(out, in);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const char *d = tl_emu_error_detail();
    cr_assert(d && strstr(d, "a race on shared memory") && strstr(d, "thread (1, 0, 0)") &&
              strstr(d, "which thread (0, 0, 0) wrote"), "%s", d ? d : "(none)");
}

/* ---- known limits (harness/emu/README.md) */

/* cg::memcpy_async copies as it is called: a thread that reads, before cg::wait, the part
 * of the destination it copies itself reads the copy (no other thread is involved: no race). */
Test(emulator_limits, a_group_copy_is_there_before_the_wait)
{
    float *in = floats_in(32), *out = device(8 * sizeof(float)), h[8];
    launch_read_own_piece_before_wait(out, in);
    fetch(h, out, sizeof h);
    cr_assert_eq(h[7], 28.0f, "a GPU may not have copied it yet; the emulator has: %g", h[7]);
}
