/*
 * The emulator's own tests: a planted race, out-of-bounds writes, bad
 * launch configurations, a host pointer in a kernel, and access patterns
 * whose request, sector and bank-conflict counts are known exactly.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "emu.h"
#include "gpu.h"
#include "matrix.h"

void launch_race(float *out, const float *in);
void launch_synced(float *out, const float *in);
void launch_no_bounds_check(float *out, int blocks, int threads);
void launch_shared_off_by_one(float *out);
void launch_too_many_threads(float *out);
void launch_grid_too_tall(float *out);
void launch_pattern(int which, float *out, const float *in);
void launch_copy_float4(float *out, const float *in);

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

Test(emulator, missing_syncthreads_reads_poison_every_time)
{
    float *in = device_floats(32), *out = device_floats(32), h[32];
    for (int run = 0; run < 3; run++) {
        launch_race(out, in);
        cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
        cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
        /* Thread 0 runs to its end before thread 31 has written tile[31]. */
        cr_assert_eq(tl_float_bits(h[0]), TL_SHARED_POISON_BITS, "run %d: out[0] = %g", run, h[0]);
        cr_assert_eq(h[31], 0.0f, "thread 31 runs last and sees every element");
    }
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

Test(emulator, write_past_an_allocation_is_an_illegal_address)
{
    float *out = device_floats(100);
    launch_no_bounds_check(out, 4, 32);
    expect_error(cudaErrorIllegalAddress, "thread (4, 0, 0) of block (3, 0, 0)");
    cr_assert(strstr(tl_emu_error_detail(), "past the end of a 400-byte cudaMalloc allocation"));
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
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    cr_assert(strstr(tl_emu_error_detail(), "1025 threads per block"), "%s", tl_emu_error_detail());
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "a launch error is not sticky");
    launch_grid_too_tall(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
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
    cr_assert_eq(s->global_store_requests, 1);
}

Test(emulator, misaligned_float4_is_refused)
{
    float *in = device_floats(160), *out = device_floats(160);
    launch_copy_float4(out, in + 1);
    expect_error(cudaErrorMisalignedAddress, "not a multiple of 16");
}
