/*
 * The emulator's own tests: a planted race, out-of-bounds writes, bad
 * launch configurations, a host pointer in a kernel, and access patterns
 * whose request, sector and bank-conflict counts are known exactly.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>

#include "emu.h"
#include "gpu.h"
#include "matrix.h"

void launch_race(float *out, const float *in);
void launch_block_work(float *out);
void launch_guarded_fill(float *out);
void launch_synced(float *out, const float *in);
void launch_no_bounds_check(float *out, int blocks, int threads);
void launch_read_and_store_at(float *out, const float *in, size_t from, size_t to);
void launch_shared_off_by_one(float *out);
void launch_too_many_threads(float *out);
void launch_grid_too_tall(float *out);
void launch_pattern(int which, float *out, const float *in);
void launch_copy_float4(float *out, const float *in);
void launch_swap_halves(float *m);
void launch_uneven_then_common(float *out, const float *in);
void launch_shared_float2(float *out);
void launch_four_scalar_stores(float *out);
void launch_shared_float4_reads(float *out);
void launch_quarter_warp_float4_reads(float *out);
void launch_paired_lane_reads(float *out);
void launch_interleaved_row_reads(float *out);
void launch_float4_read_for_one_float(float *out);
extern const int four_scalar_stores_line;
void launch_split_barrier(float *out);
void launch_failing_assert(float *out);
int launch_counting_evaluations(float *out);
void launch_host_stack(float *out);
void launch_race_backwards(float *out);
void launch_template_shared(float *out, int past);
cudaError_t blocks_per_sm(int *blocks, int threads, size_t dynamic_shared);

/* The emulator needs the checker's entry point only when a lab links it. */
void transpose(float *out, const float *in, int rows, int cols)
{
    (void)out, (void)in, (void)rows, (void)cols;
}

static float *device_floats(size_t n)
{
    float *d = NULL;
    cr_assert_eq(cudaMalloc((void **)&d, n * sizeof *d), cudaSuccess);
    float h[1024];
    for (size_t i = 0; i < n && i < 1024; i++)
        h[i] = (float)i;
    cr_assert_eq(cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

static void expect_error(cudaError_t want, const char *detail)
{
    cudaError_t got = cudaDeviceSynchronize();
    if (got == cudaSuccess)
        got = cudaGetLastError();
    cr_assert_eq(got, want, "expected %s, got %s", cudaGetErrorName(want), cudaGetErrorName(got));
    const char *d = tl_emu_error_detail();
    cr_assert(d && strstr(d, detail), "the emulator's detail lacks \"%s\": %s", detail, d ? d : "(none)");
}

Test(emulator, missing_syncthreads_is_a_race_whatever_order_the_threads_ran_in)
{
    float *in = device_floats(32), *out = device_floats(32);
    launch_race(out, in);
    /* Thread 15 read tile[16] before thread 16 wrote it (threads run in order here). */
    expect_error(cudaErrorLaunchFailure, "a race on shared memory");
    const char *d = tl_emu_error_detail();
    cr_assert(strstr(d, "thread (16, 0, 0)") && strstr(d, "which thread (15, 0, 0) read") &&
              strstr(d, "byte 64 of the __shared__ array tile") && strstr(d, "emu_kernels.cu:14") &&
              strstr(d, "emu_kernels.cu:15"), "both threads, the byte and both lines: %s", d);
}

Test(emulator, syncthreads_makes_every_thread_wait)
{
    float *in = device_floats(32), *out = device_floats(32), h[32];
    launch_synced(out, in);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 32; i++)
        cr_assert_eq(h[i], (float)(31 - i));
}

/*
 * A GPU maps device memory in 2 MiB pages (cudaMalloc hands it out from them): an index a
 * little past an allocation reads and writes mapped memory there, and the kernel runs on (a
 * student's load guard tested threadIdx against the sides, reading up to 31 rows past in's
 * end, whose values it never used: an H200 passed it, the emulator faulted, 2026-11-28).
 * What it reads there is the margin's NaN, which says where it came from in a result.
 */
Test(emulator, past_an_allocation_inside_its_gpu_page_runs_on_reading_nan)
{
    float *in = device_floats(100), *out = device_floats(100), h[100];
    launch_read_and_store_at(out, in, 90, 100);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(h[i], (float)(90 + i), "in[%d] is in's own: %g", 90 + i, h[i]);
    for (int i = 10; i < 32; i++)
        cr_assert_eq(tl_float_bits(h[i]), TL_MARGIN_BITS, "in[%d], past in's end, reads the "
                     "margin's NaN: 0x%08x", 90 + i, tl_float_bits(h[i]));
    for (int i = 32; i < 100; i++)
        cr_assert_eq(h[i], (float)i, "what lies past out is out's own: out[%d] is %g", i, h[i]);
    /* Farther, to the end of the page: what was stored there is read back, as on a GPU. */
    launch_read_and_store_at(out, out, 100, (2 << 20) / 4 - 32);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[0], 1.0f, "out[100], stored by the first launch: %g", h[0]);
}

Test(emulator, write_past_an_allocations_gpu_page_is_an_illegal_address)
{
    float *out = device_floats(100);
    launch_no_bounds_check(out, 4, 32);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "out[100] to out[127] lie in its 2 MiB "
                 "page, which a GPU maps: %s", tl_emu_error_detail());
    float *in = device_floats(100);
    launch_read_and_store_at(out, in, 0, (2 << 20) / 4 - 4);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "as on a GPU, the launch itself succeeds: the "
                 "fault shows at the next synchronisation");
    expect_error(cudaErrorIllegalAddress, "thread (4, 0, 0) of block (0, 0, 0)");
    cr_assert(strstr(tl_emu_error_detail(), "wrote 4 bytes at 2096752 bytes past the end of a "
                     "400-byte cudaMalloc allocation (an index out of bounds, past the 2 MiB page a "
                     "GPU maps it in)"),
              "%s", tl_emu_error_detail());
    /* As on a GPU, the error sticks: the next call fails too. */
    float *more;
    cr_assert_eq(cudaMalloc((void **)&more, 4), cudaErrorIllegalAddress);
}

Test(emulator, shared_array_out_of_bounds_is_an_illegal_address)
{
    float *out = device_floats(32);
    launch_shared_off_by_one(out);
    expect_error(cudaErrorIllegalAddress, "thread (31, 0, 0) of block (0, 0, 0)");
    cr_assert(strstr(tl_emu_error_detail(), "__shared__ array"), "%s", tl_emu_error_detail());
}

Test(emulator, host_pointer_in_a_kernel_is_an_illegal_address)
{
    static float host[32];
    launch_no_bounds_check(host, 1, 32);
    expect_error(cudaErrorIllegalAddress, "host pointer");
}

Test(emulator, bad_launch_configurations_are_refused)
{
    float *out = device_floats(32);
    launch_too_many_threads(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue, "CUDA 13 on the H100 says invalid value");
    cr_assert(strstr(tl_emu_error_detail(), "1025 threads per block"), "%s", tl_emu_error_detail());
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "a launch error is not sticky");
    launch_grid_too_tall(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue, "CUDA 13 on the H100 says invalid value");
    cr_assert(strstr(tl_emu_error_detail(), "a grid of (1, 65536, 1) blocks"), "%s", tl_emu_error_detail());
    tl_launch_reset();
    launch_too_many_threads(out);
    cr_assert_eq(tl_launch_count(), 1, "refused launches are still recorded");
    cr_assert_eq(tl_launch_get(0)->block[0], 1025u);
}

static const tl_emu_stats *pattern(int which)
{
    float *in = device_floats(1024), *out = device_floats(1024);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_pattern(which, out, in);
    tl_emu_profile(0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(tl_emu_stats_count(), 1);
    return tl_emu_stats_get(0);
}

Test(emulator, counts_a_coalesced_copy)
{
    const tl_emu_stats *s = pattern(0);
    cr_assert_eq(s->global_load_requests, 32);
    cr_assert_eq(s->global_load_sectors, 32 * 4);
    cr_assert_eq(s->global_store_requests, 32);
    cr_assert_eq(s->global_store_sectors, 32 * 4);
    cr_assert_eq(s->shared_load_requests + s->shared_store_requests, 0);
}

Test(emulator, counts_strided_stores)
{
    const tl_emu_stats *s = pattern(1);
    cr_assert_eq(s->global_load_sectors, 32 * 4);
    cr_assert_eq(s->global_store_requests, 32);
    cr_assert_eq(s->global_store_sectors, 32 * 32, "got %llu", s->global_store_sectors);
}

Test(emulator, counts_bank_conflicts_of_column_reads)
{
    const tl_emu_stats *s = pattern(2);
    cr_assert_eq(s->shared_store_requests, 32);
    cr_assert_eq(s->shared_store_wavefronts, 32, "row writes are conflict-free");
    cr_assert_eq(s->shared_load_requests, 32);
    cr_assert_eq(s->shared_load_wavefronts, 32 * 32, "32-way conflicts: got %llu",
                 s->shared_load_wavefronts);
    cr_assert_eq(s->global_store_sectors, 32 * 4);
}

Test(emulator, padding_removes_the_conflicts)
{
    const tl_emu_stats *s = pattern(3);
    cr_assert_eq(s->shared_load_requests, 32);
    cr_assert_eq(s->shared_load_wavefronts, 32, "got %llu", s->shared_load_wavefronts);
}

Test(emulator, counts_a_float4_as_one_access)
{
    float *in = device_floats(128), *out = device_floats(128);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_copy_float4(out, in);
    tl_emu_profile(0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_assert_eq(s->global_load_requests, 1, "got %llu", s->global_load_requests);
    cr_assert_eq(s->global_load_sectors, 16, "512 bytes: 16 sectors, got %llu", s->global_load_sectors);
    cr_assert_eq(s->global_load_bytes, 512, "every byte of the 16 sectors was asked for: 100 %%");
    cr_assert_eq(s->global_store_requests, 1);
}

/* t = m[a]; m[a] = m[b]; m[b] = t: gcc checks each address once, as a read (asan's table of
 * references checked in straight code), and leaves both stores unchecked. The emulator sees
 * them by the bytes they changed, as in shared memory: counted, and the work that made the
 * output (lab 9's step 1, a swap a thread, once heard "none of your kernels' work reached
 * the output" from its technique check, and its stores cost nothing). */
Test(emulator, counts_the_unchecked_stores_of_a_swap)
{
    float *m = device_floats(64), h[64];
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_swap_halves(m);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    tl_emu_output(m, sizeof h);
    tl_emu_profile(0);
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_assert_eq(s->global_load_requests, 2, "got %llu", s->global_load_requests);
    cr_assert_eq(s->global_store_requests, 2, "the two unchecked stores: got %llu", s->global_store_requests);
    cr_assert_eq(s->global_store_sectors, 8, "two rows of 128 bytes: got %llu", s->global_store_sectors);
    cr_assert_eq(tl_emu_made_count(), 1, "the swap made the output: %d", tl_emu_made_count());
    cr_assert_eq(cudaMemcpy(h, m, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(h[i], (float)((i + 32) % 64), "m[%d] = %g", i, h[i]);
}

Test(emulator, misaligned_float4_is_refused)
{
    float *in = device_floats(160), *out = device_floats(160);
    launch_copy_float4(out, in + 1);
    expect_error(cudaErrorMisalignedAddress, "not a multiple of 16");
}

static const tl_emu_stats *profiled(void (*launch)(float *), float *out)
{
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch(out);
    tl_emu_profile(0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(tl_emu_stats_count(), 1);
    return tl_emu_stats_get(0);
}

Test(emulator, counts_requests_per_instruction)
{
    float *in = device_floats(128), *out = device_floats(32);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_uneven_then_common(out, in);
    tl_emu_profile(0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    const tl_emu_stats *s = tl_emu_stats_get(0);
    /* The loop's load (16 lanes, one float for all) and the common load (32 floats). */
    cr_assert_eq(s->global_load_requests, 2, "got %llu", s->global_load_requests);
    cr_assert_eq(s->global_load_sectors, 1 + 4, "got %llu: the k-th access of each lane is not "
                 "one request", s->global_load_sectors);
    cr_assert_eq(s->global_load_bytes, 4 + 128, "a broadcast asks for its bytes once: got %llu",
                 s->global_load_bytes);
}

/* Blocks whose threads touch no global memory, past the data behind their bounds tests: a grid
 * larger than its work, which the technique checks tell from one thread an element. */
Test(emulator, counts_the_blocks_that_touched_no_global_memory)
{
    float *out = device_floats(40);
    const tl_emu_stats *s = profiled(launch_guarded_fill, out);
    cr_assert_eq(s->blocks, 4);
    cr_assert_eq(s->idle_blocks, 2, "blocks 2 and 3 start past element 40: got %llu", s->idle_blocks);
}

/* Besides memory: each block's two barriers, each warp's shuffle and __syncwarp(), the lane-0
 * stores as divergent requests, and the store of s[t] += 1 (unchecked by gcc, seen by the
 * bytes it changed) among the shared stores. */
Test(emulator, counts_barriers_warp_collectives_and_divergent_requests)
{
    float *out = device_floats(4), h[4];
    const tl_emu_stats *s = profiled(launch_block_work, out);
    cr_assert_eq(s->blocks, 2);
    cr_assert_eq(s->barriers, 4, "two a block: got %llu", s->barriers);
    cr_assert_eq(s->warp_shuffles, 4, "one a warp: got %llu", s->warp_shuffles);
    cr_assert_eq(s->warp_syncs, 4, "one a warp: got %llu", s->warp_syncs);
    cr_assert_eq(s->warp_collectives, 8, "got %llu", s->warp_collectives);
    cr_assert_eq(s->divergent_requests, 4, "lane 0's store of each warp: got %llu", s->divergent_requests);
    cr_assert_eq(s->global_store_requests, 4, "got %llu", s->global_store_requests);
    cr_assert_eq(s->shared_store_requests, 8, "a warp's store and its += 1's, two warps, two blocks: "
                 "got %llu", s->shared_store_requests);
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[1], 33.0f + 49.0f, "warp 1's lane 0: (32 + 1) + (48 + 1): %g", h[1]);
}

Test(emulator, float2_shared_stores_take_two_passes_without_conflict)
{
    const tl_emu_stats *s = profiled(launch_shared_float2, device_floats(32));
    cr_assert_eq(s->shared_store_requests, 1);
    cr_assert_eq(s->shared_store_wavefronts, 2, "got %llu", s->shared_store_wavefronts);
    cr_assert_eq(s->shared_store_ideal, 2, "256 bytes need two passes of 128: efficiency 100 %%");
}

Test(emulator, float4_shared_reads_are_served_a_quarter_warp_at_a_time)
{
    const tl_emu_stats *s = profiled(launch_shared_float4_reads, device_floats(32));
    cr_assert_eq(s->shared_load_requests, 2);
    /* The shared row: one pass a half-warp (2); the 16 float4s, 256 bytes a
     * half-warp: two passes each (4). ncu counts these on the H100 (lab 8). */
    cr_assert_eq(s->shared_load_wavefronts, 2 + 4, "got %llu", s->shared_load_wavefronts);
    cr_assert_eq(s->shared_load_ideal, 2 + 4, "no conflict: efficiency 100 %%, got ideal %llu",
                 s->shared_load_ideal);
}

/* ncu on the H100, per instruction (plots/data/ncu-shared-wavefronts.txt):
 * lab 8's float4 reads where each quarter-warp shares one address (lanes
 * paired) take a pass a half-warp; 8 neighbouring float4s read alike by
 * both quarters of a half-warp (lanes unpaired) take a pass a quarter,
 * though their 128 bytes would fit one. */
Test(emulator, quarters_share_a_pass_only_where_each_reads_one_address)
{
    const tl_emu_stats *s = profiled(launch_quarter_warp_float4_reads, device_floats(32));
    cr_assert_eq(s->shared_load_requests, 2);
    cr_assert_eq(s->shared_load_wavefronts, 2 + 4, "one address a quarter: 1 pass a half-warp (2); "
                 "8 float4s a quarter, repeated: 1 pass a quarter (4); got %llu", s->shared_load_wavefronts);
    cr_assert_eq(s->shared_load_ideal, 2 + 4, "as ncu: all of them needed, got ideal %llu", s->shared_load_ideal);
}

/* ncu on the H100 (plots/data/ncu-lds-pairs-h100/): where lanes go in pairs
 * on one address, a pair takes one lane's registers, and a float4 read is
 * served a half-warp at a time, a float2 read a warp at a time. */
Test(emulator, lanes_paired_on_one_address_are_served_in_groups_twice_as_large)
{
    const tl_emu_stats *s = profiled(launch_paired_lane_reads, device_floats(32));
    cr_assert_eq(s->shared_load_requests, 4);
    cr_assert_eq(s->shared_load_wavefronts, 2 + 2 + 1 + 2,
                 "float4s paired l, l ^ 1: 2 passes; paired l, l ^ 2: 2; float2s paired: 1; "
                 "unpaired: 1 a half-warp, 2; got %llu", s->shared_load_wavefronts);
    cr_assert_eq(s->shared_load_ideal, 2 + 2 + 1 + 2, "no conflict: got ideal %llu", s->shared_load_ideal);
}

/*
 * nvcc makes a thread's four scalar stores to neighbouring floats one
 * STS.128 (its SASS for sm_90, read when emu_kernels.cu was built, says
 * so): ncu counts one request, whose 512 bytes take 4 passes. As written
 * they are 4 requests of stride 16 bytes, 4-way conflicts each.
 */
Test(emulator, neighbouring_scalar_accesses_count_as_the_instruction_nvcc_makes_of_them)
{
    float *out = device_floats(32);
    tl_emu_count_as_written(1);
    const tl_emu_stats *s = profiled(launch_four_scalar_stores, out);
    tl_emu_count_as_written(0);
    cr_assert_eq(s->shared_store_requests, 4, "as written: got %llu", s->shared_store_requests);
    cr_assert_eq(s->shared_store_wavefronts, 4 * 4, "as written, stride 4: 4-way conflicts, got %llu",
                 s->shared_store_wavefronts);
    if (!tl_emu_counts_instructions()) {
        cr_log_warn("built without nvcc and nvdisasm: accesses count as written");
        return;
    }
    unsigned widths = tl_emu_sass_widths(four_scalar_stores_line, 1, 1);
    cr_assert_eq(widths, 16, "nvcc's SASS for line %d of emu_kernels.cu: STS.128 alone, got sizes %#x",
                 four_scalar_stores_line, widths);
    s = profiled(launch_four_scalar_stores, out);
    cr_assert_eq(s->shared_store_requests, 1, "one STS.128: got %llu", s->shared_store_requests);
    cr_assert_eq(s->shared_store_wavefronts, 4, "512 bytes in 4 passes, got %llu", s->shared_store_wavefronts);
    cr_assert_eq(s->shared_store_ideal, 4, "no conflict: efficiency 100 %%");
    cr_assert_eq(s->shared_load_requests, 1, "the load stays a load: got %llu", s->shared_load_requests);
}

Test(emulator, divergent_barriers_are_an_error_naming_both)
{
    float *out = device_floats(32);
    launch_split_barrier(out);
    expect_error(cudaErrorLaunchFailure, "barrier error");
    const char *d = tl_emu_error_detail();
    cr_assert(strstr(d, "emu_kernels.cu:106") && strstr(d, "emu_kernels.cu:108"),
              "both barriers, by line: %s", d);
    cr_assert(strstr(d, "thread (0, 0, 0)") && strstr(d, "thread (1, 0, 0)"), "%s", d);
}

Test(emulator, failed_device_assert_is_cuda_error_assert)
{
    float *out = device_floats(32);
    launch_failing_assert(out);
    expect_error(cudaErrorAssert, "assert(threadIdx.x < 16) failed");
    cr_assert(strstr(tl_emu_error_detail(), "thread (16, 0, 0)"), "%s", tl_emu_error_detail());
}

Test(emulator, launch_arguments_are_evaluated_once_on_the_host)
{
    float *out = device_floats(32), h[32];
    cr_assert_eq(launch_counting_evaluations(out), 1, "once, not once per thread");
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[31], 1.0f);
}

Test(emulator, template_kernels_have_shared_arrays_too)
{
    float *out = device_floats(64), h[32];
    launch_template_shared(out, 0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[0], 32.0f, "thread 0 reads t[31] + u[0] after the barrier: got %g", h[0]);
    /* Far past every static of the program, where no other variable lies to take the access. */
    launch_template_shared(out, 1 << 26);
    expect_error(cudaErrorIllegalAddress, "thread (0, 0, 0)");
}

/* What CUDA 13 answers on the H100 for a kernel of few registers and no
 * __shared__ arrays (plots/data/occupancy-h100-2026-11-24.txt). */
Test(emulator, occupancy_is_an_h100_sms)
{
    static const struct {
        int threads;
        size_t dynamic_shared;
        int blocks;
    } want[] = {{1, 0, 32},          {32, 0, 32},   {33, 0, 32},  {96, 0, 21},
                {256, 0, 8},         {512, 0, 4},   {1024, 0, 2}, {1025, 0, 0},
                {256, 1024, 8},      {256, 48 << 10, 4},          {256, 100 << 10, 0}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        int blocks = -1;
        cr_assert_eq(blocks_per_sm(&blocks, want[i].threads, want[i].dynamic_shared), cudaSuccess);
        cr_expect_eq(blocks, want[i].blocks, "blocks of %d threads and %zu bytes of dynamic shared "
                     "memory: %d an SM, the H100 says %d", want[i].threads, want[i].dynamic_shared,
                     blocks, want[i].blocks);
    }
    int blocks = -1;
    cr_assert_eq(blocks_per_sm(&blocks, 0, 0), cudaErrorInvalidValue, "a block of no threads");
    cr_assert_eq(blocks, -1, "left as it was");
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue, "the error is the last error");
}

Test(emulator, pointer_to_the_host_stack_is_an_illegal_address)
{
    float *out = device_floats(32);
    launch_host_stack(out);
    expect_error(cudaErrorIllegalAddress, "host pointer");
}

Test(emulator, a_race_whose_write_comes_first_is_a_race_too)
{
    float *out = device_floats(32);
    launch_race_backwards(out);
    /* Thread 0 always runs first, so thread 1 reads its value, as a GPU may: still a race. */
    expect_error(cudaErrorLaunchFailure, "a race on shared memory");
    const char *d = tl_emu_error_detail();
    cr_assert(strstr(d, "thread (1, 0, 0)") && strstr(d, "which thread (0, 0, 0) wrote"), "%s", d);
}

/* ---- known limits (harness/emu/README.md): each test shows one, so a fix shows too */

Test(emulator_limits, an_index_past_a_template_kernels_shared_array_into_the_next_goes_unseen)
{
    float *out = device_floats(64);
    launch_template_shared(out, -1); /* t[i + (u - t)]: past t, right into u */
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "a GPU's memcheck would report it; the emulator: %s",
                 tl_emu_error_detail() ? tl_emu_error_detail() : "nothing");
}

Test(emulator_limits, accesses_nvcc_gathers_across_an_unrolled_loop_count_as_they_come)
{
    const tl_emu_stats *s = profiled(launch_interleaved_row_reads, device_floats(32));
    /* On a GPU: 2 LDS.128 a warp (each thread's two rows). The emulator merges a thread's
     * neighbouring accesses only where they come one after another: 8 loads of 4 bytes. */
    cr_assert_eq(s->shared_load_requests, 8, "got %llu", s->shared_load_requests);
}

Test(emulator_limits, a_wide_load_counts_whole_where_nvcc_loads_only_the_part_used)
{
    const tl_emu_stats *s = profiled(launch_float4_read_for_one_float, device_floats(32));
    /* On a GPU, one LDS of 4 bytes a thread, 16 bytes apart: 4 passes where 1 would do (25 %).
     * Here the whole float4, 512 bytes a warp: 4 passes, all needed (100 %). */
    cr_assert_eq(s->shared_load_requests, 1);
    cr_assert_eq(s->shared_load_ideal, 4, "the emulator asks for the 512 bytes of 32 float4s: got %llu",
                 s->shared_load_ideal);
}

/* Device memory is closed to the host between the emulator's own work in
 * it: host code that reaches it by a path the instrumentation does not see
 * (a library function called through a pointer here) faults, as on a GPU,
 * and says so; the emulator's own copies still work. */
static void *(*volatile library_copy)(void *, const void *, size_t) = memcpy;

Test(emulator, host_code_reaching_device_memory_unseen_faults, .signal = SIGABRT)
{
    float *d = device_floats(256), h[256];
    cr_assert_eq(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[255], 255.0f, "cudaMemcpy reads device memory");
    library_copy(h, d, sizeof h); /* SIGSEGV, said and turned into SIGABRT */
    cr_assert_fail("host code read closed device memory through memcpy");
}

/* A lab's own cudaMemcpy between device buffers, and its cudaMemset, move
 * bytes through DRAM on a GPU, as a copy kernel would: the profile counts
 * them, so work done by copies is not free. */
Test(emulator, counts_a_labs_device_copies_and_sets)
{
    float *a = device_floats(1024), *b = device_floats(1024);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    tl_emu_lab_running(1);
    cr_assert_eq(cudaMemcpy(b, a, 1024 * sizeof(float), cudaMemcpyDeviceToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(b + 1, a, sizeof(float), cudaMemcpyDeviceToDevice), cudaSuccess);
    cr_assert_eq(cudaMemset(a, 0, 64), cudaSuccess);
    tl_emu_lab_running(0);
    tl_emu_profile(0);
    cr_assert_eq(tl_emu_stats_count(), 2);
    const tl_emu_stats *copy = tl_emu_stats_get(0), *set = tl_emu_stats_get(1);
    cr_assert_str_eq(copy->kernel, "cudaMemcpy");
    cr_assert_eq(copy->launches, 2);
    cr_assert_eq(copy->global_load_sectors, 128 + 1, "4 KiB read: 128 sectors; one float: 1");
    cr_assert_eq(copy->global_store_sectors, 128 + 1);
    cr_assert_eq(copy->global_load_requests, 32 + 1, "a request a warp's 128 bytes");
    cr_assert_str_eq(set->kernel, "cudaMemset");
    cr_assert_eq(set->global_load_sectors, 0);
    cr_assert_eq(set->global_store_sectors, 2);
}
