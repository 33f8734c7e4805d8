/*
 * The emulator's atomic functions (each operation and type of CUDA's
 * table), their checks and counts, and __device__ variables, whose
 * accesses are checked and counted as global memory's.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "emu.h"
#include "matrix.h"
#include "gpu.h"

void launch_histogram(int *bins, float *f, double *d, unsigned long long *u, unsigned *w);
void launch_one_of_each(long long *old, int *i32, unsigned *u32, unsigned long long *u64,
                        long long *i64, float *f32, unsigned short *u16);
void launch_builtin_atomics(long long *old, int *i32, unsigned *u32, unsigned long long *u64,
                            long long *i64, float *f32, double *f64, unsigned short *u16);
void launch_builtin_shared_counter(int *out);
void launch_shared_counter(int *out);
void launch_lanes_add(int *counters);
void launch_subnormal_adds(float *out, const float *v, double *d);
void launch_atomic_past_the_end(int *counters);
void launch_atomic_misaligned(int *counters);
void launch_device_variable(float *out);
void launch_device_variable_past_end(float *out);
void launch_vector_adds(float *f4, float *f2, void *h2, void *b2, float *old);
void launch_vector_add_in_shared(float *out);
void launch_vector_add_misaligned(float *out);
void launch_address_spaces(int *out, const float *in);

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

Test(emulator_atomics, atomic_add_of_every_type_counts_every_thread)
{
    int *bins = device(8 * sizeof(int)), hb[8];
    float *f = device(sizeof(float)), hf;
    double *d = device(sizeof(double)), hd;
    unsigned long long *u = device(sizeof *u), hu;
    unsigned *w = device(sizeof *w), hw;
    launch_histogram(bins, f, d, u, w);
    fetch(hb, bins, sizeof hb);
    fetch(&hf, f, sizeof hf);
    fetch(&hd, d, sizeof hd);
    fetch(&hu, u, sizeof hu);
    fetch(&hw, w, sizeof hw);
    for (int i = 0; i < 8; i++)
        cr_expect_eq(hb[i], 128, "bin %d: %d", i, hb[i]);
    cr_expect_eq(hf, 512.0f, "%g", hf);
    cr_expect_eq(hd, 256.0, "%g", hd);
    cr_expect_eq(hu, 1024ull << 33, "%llu", hu);
    cr_expect_eq(hw, 3072u, "%u", hw);
}

/*
 * The PTX ISA: a float atomicAdd on global memory (atom/red.global.add.f32) flushes subnormal
 * inputs and results to sign-preserving zero; on shared memory it keeps them, and so does the
 * double add. A copy by atomicAdd onto a zeroed out lost every subnormal of in on an H200
 * (tests/emu_corpus/lab03-atomicadd-onto-memset.cu), where the emulator kept them.
 */
Test(emulator_atomics, a_float_add_in_global_memory_flushes_subnormals_as_ptx_says)
{
    float h[32], *v = device(sizeof h), *out = device(2 * sizeof h), got[64];
    double *d = device(32 * sizeof(double)), hd[32];
    for (int i = 0; i < 32; i++)
        h[i] = i % 4 == 0 ? 0x1p-140f * (float)(i + 1) : i % 4 == 1 ? -0x1p-130f : i % 4 == 2 ? 1.5f : -0.0f;
    cr_assert_eq(cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    launch_subnormal_adds(out, v, d);
    fetch(got, out, sizeof got);
    fetch(hd, d, sizeof hd);
    for (int i = 0; i < 32; i++) {
        float global = fpclassify(h[i]) == FP_SUBNORMAL ? 0.0f : 0.0f + h[i];
        cr_expect_eq(tl_float_bits(got[i]), tl_float_bits(global), "global: 0 + %a is %a, got %a",
                     (double)h[i], (double)global, (double)got[i]);
        cr_expect_eq(tl_float_bits(got[32 + i]), tl_float_bits(0.0f + h[i]), "shared: 0 + %a "
                     "keeps it, got %a", (double)h[i], (double)got[32 + i]);
        cr_expect_eq(hd[i], (double)h[i] * 0x1p-1000, "double: %a", hd[i]);
    }
}

Test(emulator_atomics, each_operation_returns_the_old_value_and_stores_cudas_result)
{
    long long *old = device(32 * sizeof(long long)), h[32];
    launch_one_of_each(old, device(4), device(4), device(8), device(8), device(4), device(4));
    fetch(h, old, sizeof h);
    static const long long want[] = {10, 7, -4, -9, 2, 40, 40, 40, 43, 42,
                                     2, 3, 0, 5, 2, 1,
                                     1ll << 40, 1ll << 41, 7,
                                     -(1ll << 35), -(1ll << 36),
                                     1, 5,
                                     9, 65535};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(h[i], want[i], "step %zu: %lld, CUDA gives %lld", i, h[i], want[i]);
}

/* CUDA 12.8's built-in atomics (__nv_atomic_fetch_add and the like, with an order and a
 * scope): the values the Programming Guide gives, on each type it allows. */
Test(emulator_atomics, builtin_atomics_return_the_old_value_and_store_cudas_result)
{
    long long *old = device(32 * sizeof(long long)), h[32];
    launch_builtin_atomics(old, device(4), device(4), device(8), device(8), device(4), device(8), device(4));
    fetch(h, old, sizeof h);
    static const long long want[] = {10, 7, -4, -9, 1, 0, 40, 43, 42,
                                     5, 6, 4294967295ll,
                                     1ll << 41, (1ll << 41) + 1,
                                     -(1ll << 35), -(1ll << 36),
                                     14, 13, 8,
                                     2, 3,
                                     1, 65535};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(h[i], want[i], "step %zu: %lld, CUDA gives %lld", i, h[i], want[i]);
}

Test(emulator_atomics, builtin_atomics_in_shared_memory_do_not_race)
{
    int *out = device(3 * sizeof(int)), h[3];
    launch_builtin_shared_counter(out);
    fetch(h, out, sizeof h);
    for (int b = 0; b < 3; b++)
        cr_expect_eq(h[b], 96, "block %d: %d", b, h[b]);
}

Test(emulator_atomics, shared_memory_atomics_count_each_thread_of_a_block)
{
    int *out = device(3 * sizeof(int)), h[3];
    launch_shared_counter(out);
    fetch(h, out, sizeof h);
    for (int b = 0; b < 3; b++)
        cr_expect_eq(h[b], 96, "block %d: %d", b, h[b]);
}

/* Counted as atomics, and as the read and the write each one is: a kernel that moves its data
 * through atomics (atomicExch for a store, atomicOr(p, 0) for a load) is charged what it moves,
 * in the counts its technique and its performance are judged from. */
Test(emulator_atomics, atomics_are_counted_as_atomics_and_as_the_loads_and_stores_they_are)
{
    int *c = device(32 * sizeof(int)), *out = device(3 * sizeof(int));
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_lanes_add(c);
    launch_shared_counter(out);
    tl_emu_profile(0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(tl_emu_stats_count(), 2);
    const tl_emu_stats *g = tl_emu_stats_get(0), *s = tl_emu_stats_get(1);
    cr_expect_eq(g->global_atomic_requests, 1, "a warp's one atomicAdd: %llu", g->global_atomic_requests);
    cr_expect_eq(g->global_atomic_sectors, 4, "128 bytes in a row: %llu", g->global_atomic_sectors);
    cr_expect_eq(g->global_atomic_bytes, 128);
    cr_expect_eq(g->global_load_requests, 1, "an atomic reads: %llu", g->global_load_requests);
    cr_expect_eq(g->global_store_requests, 1, "and writes: %llu", g->global_store_requests);
    cr_expect_eq(g->global_load_sectors, 4, "its 4 sectors: %llu", g->global_load_sectors);
    cr_expect_eq(g->global_store_sectors, 4, "its 4 sectors: %llu", g->global_store_sectors);
    cr_expect_eq(s->shared_atomic_requests, 3 * 3, "3 warps of 3 blocks: %llu", s->shared_atomic_requests);
    cr_expect_geq(s->shared_load_requests, s->shared_atomic_requests, "each a shared read: %llu",
                  s->shared_load_requests);
    cr_expect_geq(s->shared_store_requests, s->shared_atomic_requests, "and a shared write: %llu",
                  s->shared_store_requests);
    cr_expect_geq(s->shared_load_wavefronts, s->shared_load_requests, "each at least one pass");
    cr_expect_eq(s->global_atomic_requests, 0);
}

/* Past the end but inside the 2 MiB page a GPU maps the allocation in, an atomic runs on, as
 * there; past the page it faults. */
Test(emulator_atomics, an_atomic_past_an_allocations_gpu_page_is_an_illegal_address)
{
    int *counters = device(32 * sizeof(int));
    launch_atomic_past_the_end(counters);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", tl_emu_error_detail());
    launch_atomic_past_the_end(counters + (2 << 20) / sizeof(int) - 32);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(strstr(tl_emu_error_detail(), "atomically updated 4 bytes at 2097024 bytes past the end "
                     "of a 128-byte cudaMalloc allocation"),
              "%s", tl_emu_error_detail());
}

Test(emulator_atomics, a_misaligned_atomic_is_a_misaligned_address)
{
    launch_atomic_misaligned(device(32 * sizeof(int)));
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorMisalignedAddress, "%s", tl_emu_error_detail());
}

Test(emulator_atomics, device_variables_are_global_memory_checked_and_counted)
{
    float *out = device(64 * sizeof(float)), h[64];
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_device_variable(out);
    tl_emu_profile(0);
    fetch(h, out, sizeof h);
    cr_expect_eq(h[0], 63.0f);
    const tl_emu_stats *k = tl_emu_stats_get(0);
    cr_expect_eq(k->global_load_requests, 2, "two warps read the table: %llu", k->global_load_requests);
    cr_expect_eq(k->global_store_requests, 4, "two write it, two write out: %llu", k->global_store_requests);
    cr_expect_eq(k->global_load_bytes, 256);
    launch_device_variable_past_end(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(strstr(tl_emu_error_detail(), "the variable table at byte 256, past its end (256 bytes)"),
              "%s", tl_emu_error_detail());
}

/* atomicAdd on float4 and float2 (compute capability 9.x), __half2, __half and
 * __nv_bfloat162: each value of the vector added on its own, the old vector returned; one
 * atomic request of the vector's bytes a warp's instruction. */
Test(emulator_atomics, vector_atomic_adds_add_each_value)
{
    float *f4 = device(4 * sizeof(float)), *f2 = device(2 * sizeof(float)), *old = device(2 * sizeof(float));
    unsigned short *h2 = device(4 * sizeof(short)), *b2 = device(2 * sizeof(short));
    float hf4[4], hf2[2], hold[2];
    unsigned short hh2[4], hb2[2];
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_vector_adds(f4, f2, h2, b2, old);
    tl_emu_profile(0);
    fetch(hf4, f4, sizeof hf4);
    fetch(hf2, f2, sizeof hf2);
    fetch(hh2, h2, sizeof hh2);
    fetch(hb2, b2, sizeof hb2);
    fetch(hold, old, sizeof hold);
    cr_expect(hf4[0] == 64.0f && hf4[1] == 128.0f && hf4[2] == 192.0f && hf4[3] == 256.0f,
              "float4: %g %g %g %g", hf4[0], hf4[1], hf4[2], hf4[3]);
    cr_expect(hf2[0] == 32.0f && hf2[1] == -32.0f, "float2: %g %g", hf2[0], hf2[1]);
    /* 64 and 128 as halves; 32 (64 halves of 0.5) in the next __half; 64 and 16 as bfloat16s. */
    cr_expect(hh2[0] == 0x5400 && hh2[1] == 0x5800 && hh2[2] == 0x5000, "__half2: 0x%x 0x%x, __half: 0x%x",
              hh2[0], hh2[1], hh2[2]);
    cr_expect(hb2[0] == 0x4280 && hb2[1] == 0x4180, "__nv_bfloat162: 0x%x 0x%x", hb2[0], hb2[1]);
    cr_expect(hold[0] == 0.0f && hold[1] == 0.0f, "the first thread's old values: %g %g", hold[0], hold[1]);
    const tl_emu_stats *k = tl_emu_stats_get(0);
    cr_expect_eq(k->global_atomic_requests, 10, "five atomics, two warps: %llu", k->global_atomic_requests);
}

/* The PTX ISA has the float vector adds for global memory only: on a shared address an H100
 * fails the kernel (unspecified launch failure). */
Test(emulator_atomics, a_vector_atomic_add_in_shared_memory_fails_the_kernel)
{
    launch_vector_add_in_shared(device(8 * sizeof(float)));
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure, "%s", tl_emu_error_detail());
    cr_assert(strstr(tl_emu_error_detail(), "atomicAdd on a float4 in shared memory"), "%s",
              tl_emu_error_detail());
}

Test(emulator_atomics, a_vector_atomic_add_is_aligned_to_its_size)
{
    launch_vector_add_misaligned(device(4 * sizeof(float)));
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorMisalignedAddress, "%s", tl_emu_error_detail());
}

/* __isGlobal, __isShared, __isConstant, __isLocal: device memory and __device__ variables are
 * global, __shared__ arrays and the dynamic shared memory shared, __constant__ variables
 * constant, a thread's own array local. */
Test(emulator_atomics, address_space_predicates_name_each_space)
{
    static const int want[] = {1000, 100, 100, 1000, 10, 1};
    int *out = device(6 * sizeof(int)), h[6];
    float *in = device(2 * sizeof(float));
    launch_address_spaces(out, in);
    fetch(h, out, sizeof h);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(h[i], want[i], "pointer %d: %04d, where a GPU says %04d", i, h[i], want[i]);
}
