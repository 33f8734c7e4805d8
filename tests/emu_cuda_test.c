/*
 * The CUDA a program uses besides the execution model, on the emulator:
 * intrinsics (their values CUDA's on the H100: tests/probes/intrinsics.cu,
 * plots/data/intrinsics-h100.txt), vector types, cache-hint loads and
 * stores, __constant__ and __device__ variables and their runtime calls,
 * memcpy in device code, pitched memory, streams and events, and what the
 * emulator refuses.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu.h"
#include "emu_simd.cuh"
#include "gpu.h"

void launch_integer_intrinsics(unsigned *out);
void launch_float_intrinsics(unsigned *out);
void launch_dpx_intrinsics(unsigned *out);
void launch_simd_and_more(unsigned *out, const unsigned *pairs, float *fout, const float *in, int n);
void launch_vectors(int *out);
void launch_hinted_copy(float *out, const float *in);
void launch_copy(float *out, const float *in, int n, int by_columns);
cudaError_t set_weights(const float *w, size_t bytes, size_t offset);
cudaError_t get_scratch(float *h, size_t bytes, size_t offset);
cudaError_t scratch_to_device(float *d);
cudaError_t scratch_address(void **p);
cudaError_t set_not_a_symbol(const float *w);
void launch_weighted(float *out);
void launch_weight_reads(float *out);
cudaError_t set_weights_from_device(const float *d);
void launch_row_memcpy(float *out, const float *in, int n);
void launch_pointer_maths(float *out, int *e, const float *in, int shift);
void launch_count_printed(float *out);
void launch_traps(float *out);
void launch_store_through(float *out, int host_function);
void launch_special_registers(unsigned *out);
void launch_coordinate_registers(unsigned *out);
void launch_half_precision(unsigned *out);
void launch_heap(float *out, size_t too_many);
void launch_heap_past_its_end(float *out);

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

Test(emulator_cuda, integer_intrinsics_give_cudas_values)
{
    static const unsigned want[] = {0x80000000u, 0x80000000u, 0x07050301u, 3231, 63, 4, 41, 864,
                                    3, 5, 0x80000000u, 7, 0xfffffffcu, 4, 0x80000000u, 6, 6, 2, 2,
                                    2, 0xfffffffeu, 14, 5, 20, 5, 5, 0xfffffffau};
    unsigned *d = device(64 * sizeof(unsigned)), h[64];
    launch_integer_intrinsics(d);
    fetch(h, d, sizeof h);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(h[i], want[i], "result %zu: 0x%x, the H100 gives 0x%x", i, h[i], want[i]);
}

Test(emulator_cuda, dpx_intrinsics_give_cudas_values)
{
    /* CUDA 13's own host versions of these functions give the same (crt/device_functions.hpp,
     * compiled by nvcc for the host); not yet run on an H100. */
    static const unsigned want[] = {0x00000007u, 0xfffffff0u, 0x00070002u, 0xfffbfff0u, 0xfffffffbu,
                                    0x00070001u, 0x00000000u, 0x00000000u, 0xfffffffdu, 0x00000001u,
                                    0x00000005u, 0x00010002u, 0x00000000u, 0x00000007u, 0x00000000u,
                                    0x00030000u, 0xffffffcfu, 0x0000001fu, 0x40010003u, 0x40010003u};
    unsigned *d = device(64 * sizeof(unsigned)), h[64];
    launch_dpx_intrinsics(d);
    fetch(h, d, sizeof h);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(h[i], want[i], "result %zu: 0x%x, CUDA gives 0x%x", i, h[i], want[i]);
}

/* What each part of a SIMD intrinsic's result is, from the Math API's words for it (its
 * examples checked below): x and y are the parts of a and b, read as signed or not. */
enum { SIMD_ABS, SIMD_ABS_SAT, SIMD_NEG, SIMD_NEG_SAT, SIMD_ADD, SIMD_ADD_SAT, SIMD_SUB, SIMD_SUB_SAT,
       SIMD_AVG, SIMD_HADD, SIMD_ABSDIFF, SIMD_MAX, SIMD_MIN, SIMD_CMP_EQ, SIMD_CMP_NE, SIMD_CMP_GE,
       SIMD_CMP_GT, SIMD_CMP_LE, SIMD_CMP_LT, SIMD_SET_EQ, SIMD_SET_NE, SIMD_SET_GE, SIMD_SET_GT,
       SIMD_SET_LE, SIMD_SET_LT, SIMD_SAD };

static long long simd_part(int kind, long long x, long long y, long long lo, long long hi, long long all)
{
    long long v;
    switch (kind) {
    case SIMD_ABS: return llabs(x);
    case SIMD_ABS_SAT: v = llabs(x); break;
    case SIMD_NEG: return -x;
    case SIMD_NEG_SAT: v = -x; break;
    case SIMD_ADD: return x + y;
    case SIMD_ADD_SAT: v = x + y; break;
    case SIMD_SUB: return x - y;
    case SIMD_SUB_SAT: v = x - y; break;
    /* signed: half away from zero (CUDA's comment on __vavgs); unsigned: half up */
    case SIMD_AVG: return x + y < 0 ? -((-(x + y) + 1) / 2) : (x + y + 1) / 2;
    case SIMD_HADD: return (x + y) / 2;
    case SIMD_ABSDIFF: case SIMD_SAD: return llabs(x - y);
    case SIMD_MAX: return x > y ? x : y;
    case SIMD_MIN: return x < y ? x : y;
    case SIMD_CMP_EQ: return x == y ? all : 0;
    case SIMD_CMP_NE: return x != y ? all : 0;
    case SIMD_CMP_GE: return x >= y ? all : 0;
    case SIMD_CMP_GT: return x > y ? all : 0;
    case SIMD_CMP_LE: return x <= y ? all : 0;
    case SIMD_CMP_LT: return x < y ? all : 0;
    case SIMD_SET_EQ: return x == y;
    case SIMD_SET_NE: return x != y;
    case SIMD_SET_GE: return x >= y;
    case SIMD_SET_GT: return x > y;
    case SIMD_SET_LE: return x <= y;
    default: return x < y;
    }
    return v < lo ? lo : v > hi ? hi : v;
}

static unsigned simd_want(int kind, int bits, int is_signed, unsigned a, unsigned b)
{
    unsigned r = 0, sum = 0;
    long long all = (1ll << bits) - 1, lo = is_signed ? -(1ll << (bits - 1)) : 0;
    long long hi = is_signed ? (1ll << (bits - 1)) - 1 : all;
    for (int s = 0; s < 32; s += bits) {
        long long x = a >> s & all, y = b >> s & all;
        if (is_signed && x > hi)
            x -= all + 1;
        if (is_signed && y > hi)
            y -= all + 1;
        long long v = simd_part(kind, x, y, lo, hi, all);
        sum += (unsigned)v;
        r |= (unsigned)(v & all) << s;
    }
    return kind == SIMD_SAD ? sum : r;
}

#define SIMD_ENTRY(name, bits, s, kind) {#name, bits, s, kind},
static const struct simd_function {
    const char *name;
    int bits, is_signed, kind;
} simd_functions[] = {TL_SIMD_UNARY(SIMD_ENTRY) TL_SIMD_BINARY(SIMD_ENTRY)};
#undef SIMD_ENTRY

/* Distance in float's ulps (at the reference's magnitude) of got from the reference. */
static double ulps(float got, long double want)
{
    if (isinf((float)want))
        return got == (float)want ? 0.0 : INFINITY;
    if (want == 0.0L)
        return got == 0.0f ? 0.0 : INFINITY;
    float w = fabsf((float)want);
    return (double)(fabsl((long double)got - want) / (long double)(nextafterf(w, INFINITY) - w));
}

/* References in long double, by other means than the emulator's: exp(x^2) erfc(x) by its
 * definition below 3 and by Laplace's continued fraction from 3; I0 and I1 by their integrals
 * (1/pi) int_0^pi exp(x cos t) cos(nt) dt, the trapezoid rule (exact to long double for a
 * periodic integrand at 4000 points). */
static long double erfcx_reference(long double x)
{
    if (x < 3.0L)
        return expl(x * x) * erfcl(x);
    long double f = x;
    for (int k = 4000; k >= 1; k--)
        f = x + (k / 2.0L) / f;
    return 1.0L / (sqrtl(3.14159265358979323846264338327950288L) * f);
}

static long double bessel_i_reference(int n, long double x)
{
    if (n == 1 && x == 0.0L)
        return 0.0L; /* odd: the sum's rounding would give about 1e-20 */
    const int m = 4000;
    const long double pi = 3.14159265358979323846264338327950288L;
    long double sum = 0.0L;
    for (int i = 0; i <= m; i++) {
        long double t = pi * i / m, w = i == 0 || i == m ? 0.5L : 1.0L;
        sum += w * expl(x * cosl(t)) * (n ? cosl(t) : 1.0L);
    }
    return sum / m;
}

static long double norm_reference(int dim, const float *p, int reciprocal)
{
    long double sum = 0.0L;
    for (int i = 0; i < dim; i++)
        sum += (long double)p[i] * p[i];
    return reciprocal ? 1.0L / sqrtl(sum) : sqrtl(sum);
}

Test(emulator_cuda, simd_intrinsics_and_the_math_apis_special_functions)
{
    static const unsigned pairs[TL_SIMD_PAIR_COUNT][2] = {TL_SIMD_PAIRS};
    static const float in[] = {-9.0f, -2.5f, -0.5f, 0.0f, 1e-3f, 0.7f, 2.5f, 10.0f, 85.0f, 150.0f,
                               1e4f, -20.0f, 3.0f, 15.0f, 50.0f};
    enum { N = sizeof in / sizeof *in, FUNCTIONS = sizeof simd_functions / sizeof *simd_functions };
    unsigned *d = device(1024 * sizeof(unsigned)), *dpairs = device(sizeof pairs), h[1024];
    float *dout = device(8 * N * sizeof(float)), *din = device(sizeof in), fh[8 * N];
    cr_assert_eq(cudaMemcpy(dpairs, pairs, sizeof pairs, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice), cudaSuccess);
    launch_simd_and_more(d, dpairs, dout, din, N);
    fetch(h, d, sizeof h);
    fetch(fh, dout, sizeof fh);

    /* Every SIMD intrinsic on every pair: bit for bit the Math API's definition. */
    int k = 0;
    for (int p = 0; p < TL_SIMD_PAIR_COUNT; p++)
        for (int f = 0; f < FUNCTIONS; f++, k++) {
            const struct simd_function *s = &simd_functions[f];
            unsigned want = simd_want(s->kind, s->bits, s->is_signed, pairs[p][0], pairs[p][1]);
            cr_expect_eq(h[k], want, "%s(0x%08x, 0x%08x): 0x%08x, CUDA's definition gives 0x%08x", s->name,
                         pairs[p][0], pairs[p][1], h[k], want);
        }
    cr_assert_eq(FUNCTIONS, 82, "the Math API has 82 SIMD intrinsics besides the DPX ones");
    /* The Math API's own examples (crt/device_functions.h), on the first pair. */
    static const struct { const char *name; unsigned want; } examples[] = {
        {"__vcmpeq2", 0xffff0000u}, {"__vcmpges2", 0xffff0000u}, {"__vcmpgeu2", 0xffff0000u},
        {"__vcmpgts2", 0}, {"__vcmpgtu2", 0}, {"__vcmples2", 0xffffffffu}, {"__vcmpleu2", 0xffffffffu},
        {"__vcmplts2", 0x0000ffffu}, {"__vcmpltu2", 0x0000ffffu}, {"__vcmpeq4", 0xffffff00u},
        {"__vcmpges4", 0xffffff00u}, {"__vcmpgeu4", 0xffffff00u}, {"__vcmpgts4", 0}, {"__vcmpgtu4", 0},
        {"__vcmples4", 0xffffffffu}, {"__vcmpleu4", 0xffffffffu}, {"__vcmplts4", 0x000000ffu},
        {"__vcmpltu4", 0x000000ffu}};
    for (size_t e = 0; e < sizeof examples / sizeof *examples; e++)
        for (int f = 0; f < FUNCTIONS; f++)
            if (strcmp(simd_functions[f].name, examples[e].name) == 0)
                cr_expect_eq(h[f], examples[e].want, "%s(0x1234aba5, 0x1234aba6): 0x%08x, the Math API says 0x%08x",
                             examples[e].name, h[f], examples[e].want);

    /* A shared address is an offset (tile[5] 20 bytes past tile[0]) that turns back into the
     * same generic address; a global one is the generic one; nothing here is a grid constant. */
    cr_expect_eq(h[k], 20u, "__cvta_generic_to_shared(&tile[5]) - (&tile[0]): %u", h[k]);
    cr_expect_eq(h[k + 1], 1u, "__cvta_shared_to_generic gave another address");
    cr_expect_eq(h[k + 2], 1u, "__cvta_global_to_generic(__cvta_generic_to_global(p)) is not p");
    cr_expect_eq(h[k + 3], 0u, "__isGridConstant of a local and a global address: %u", h[k + 3]);

    /* The float functions: within 1 ulp of a long double reference (CUDA documents more for its
     * own: erfcxf 4 ulps, cyl_bessel_i0f and i1f 6, normf and rnormf a few). */
    int j = 0;
    for (int i = 0; i < N; i++) {
        long double want[5] = {erfcx_reference(in[i]), bessel_i_reference(0, in[i]),
                               bessel_i_reference(1, in[i]), norm_reference(i + 1, in, 0),
                               norm_reference(i + 1, in, 1)};
        static const char *names[5] = {"erfcxf", "cyl_bessel_i0f", "cyl_bessel_i1f", "normf", "rnormf"};
        for (int f = 0; f < 5; f++, j++)
            cr_expect_leq(ulps(fh[j], want[f]), 1.0, "%s(%g) (normf, rnormf: of the first %d): %.9g, not within 1 ulp of %.12Lg",
                          names[f], (double)in[i], i + 1, (double)fh[j], want[f]);
    }
    cr_expect_leq(ulps(fh[j], norm_reference(3, in, 1)), 1.0, "rnorm3df: %.9g", (double)fh[j]);
    cr_expect_leq(ulps(fh[j + 1], norm_reference(4, in, 1)), 1.0, "rnorm4df: %.9g", (double)fh[j + 1]);
}

Test(emulator_cuda, float_intrinsics_round_as_named)
{
    static const unsigned want[] = {0x3f800000u, 0x3f800001u, 0x3f800001u, 0x3eaaaaabu, 0x3fb504f3u,
                                    0x3fb504f4u, 2, 4, 0xfffffffeu, 2, 0xffffffffu, 0x7fffffffu, 0,
                                    0, 0x4b800000u, 0x4b800001u, 0x3f800000u, 0x3f800001u,
                                    0x3ff00000u, 0x3f800000u, 0x3f800000u, 0x3f000000u,
                                    0xfffffff9u, 0x3f800000u};
    unsigned *d = device(64 * sizeof(unsigned)), h[64];
    launch_float_intrinsics(d);
    fetch(h, d, sizeof h);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(h[i], want[i], "result %zu: 0x%x, the H100 gives 0x%x", i, h[i], want[i]);
}

Test(emulator_cuda, vector_types_have_cudas_sizes_and_alignments)
{
    cr_expect_eq(alignof(float4), 16);
    cr_expect_eq(alignof(float2), 8);
    cr_expect(sizeof(float3) == 12 && alignof(float3) == 4);
    cr_expect_eq(alignof(char2), 2);
    cr_expect(sizeof(char3) == 3 && alignof(char3) == 1);
    cr_expect_eq(alignof(uchar4), 4);
    cr_expect_eq(alignof(short4), 8);
    cr_expect_eq(alignof(int2), 8);
    cr_expect_eq(alignof(uint4), 16);
    cr_expect_eq(alignof(long2), 16);
    cr_expect_eq(alignof(double2), 16);
    cr_expect(sizeof(longlong3) == 24 && alignof(longlong3) == 8);
    cr_expect(sizeof(double4_16a) == 32 && alignof(double4_16a) == 16);
    cr_expect_eq(alignof(ulonglong4_32a), 32);
    int *d = device(sizeof(int)), h;
    launch_vectors(d);
    fetch(&h, d, sizeof h);
    cr_assert_eq(h, 1 + 2 + 3 + 6 + 8 + 10 + 13 + 17 + 21, "make_ functions: %d", h);
}

Test(emulator_cuda, cache_hint_loads_and_stores_are_counted_accesses)
{
    float *in = device(128 * sizeof(float)), *out = device(256 * sizeof(float)), h[256];
    float host[128];
    for (int i = 0; i < 128; i++)
        host[i] = (float)i;
    cr_assert_eq(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_hinted_copy(out, in);
    tl_emu_profile(0);
    fetch(h, out, sizeof h);
    cr_expect_eq(h[127], 127.0f);
    cr_expect_eq(h[128 + 4 * 31], 124.0f + 125 + 126 + 127 + 124);
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_expect_eq(s->global_load_requests, 6, "one float4 and five floats a thread: %llu", s->global_load_requests);
    cr_expect_eq(s->global_store_requests, 4, "%llu", s->global_store_requests);
    cr_expect_eq(s->global_load_sectors, 16 + 5 * 16, "%llu", s->global_load_sectors);
}

Test(emulator_cuda, constant_and_device_variables_with_their_symbol_calls)
{
    float w[8] = {1, 2, 3, 4, 5, 6, 7, 8}, h[64];
    cr_assert_eq(set_weights(w, sizeof w, 0), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(set_weights(w, sizeof(float), 7 * sizeof(float)), cudaSuccess);
    float *out = device(32 * sizeof(float));
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_weighted(out);
    tl_emu_profile(0);
    fetch(h, out, 32 * sizeof(float));
    cr_expect_eq(h[0], 4.0f, "weights[1] * 2: %g", h[0]);
    cr_expect_eq(h[6], 2.0f, "weights[7] is now 1, times 2: %g", h[6]);
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_expect_eq(s->constant_load_requests, 1, "%llu", s->constant_load_requests);
    cr_expect_eq(s->constant_load_bytes, 32, "8 distinct floats: %llu", s->constant_load_bytes);
    cr_expect_eq(s->constant_load_passes, 8, "the constant cache serves one address a pass: %llu",
                 s->constant_load_passes);
    cr_expect_eq(s->global_load_requests, 1, "the __device__ array only: %llu", s->global_load_requests);
    cr_assert_eq(get_scratch(h, 4 * sizeof(float), 4 * sizeof(float)), cudaSuccess);
    cr_expect_eq(h[0], 10.0f, "scratch[4] = weights[4] * 2: %g", h[0]);
    cr_assert_eq(set_weights(w, sizeof w, 4), cudaErrorInvalidValue, "past the end of the variable");
    cr_assert_eq(set_not_a_symbol(w), cudaErrorInvalidSymbol);
    void *p = NULL;
    cr_assert_eq(scratch_address(&p), cudaSuccess);
    cr_assert_eq(cudaMemcpy(h, p, 8 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess,
                 "a __device__ variable's address is device memory: %s", tl_emu_error_detail());
    cr_expect_eq(h[7], 2.0f, "%g", h[7]);
}

/* In a lab's call, as a GPU's plan has it (plan_record.c): a variable may be set from the
 * host or the device, and copied out to the device, not to the host. */
Test(emulator_cuda, a_labs_call_copies_into_variables_and_out_of_them_to_the_device_only)
{
    float w[8] = {1, 2, 3, 4, 5, 6, 7, 8}, h[4];
    float *d = device(4 * sizeof(float));
    tl_emu_lab_running(1);
    cr_assert_eq(set_weights(w, sizeof w, 0), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(scratch_to_device(d), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(get_scratch(h, sizeof h, 0), cudaErrorNotSupported);
    const char *said = NULL;
    tl_gpu_lab_error(&said);
    tl_emu_lab_running(0);
    cr_assert(said && strstr(said, "cudaMemcpyFromSymbol to the host"), "%s", said ? said : "(nothing)");
}

static void host_side(void *data) { *(int *)data = 1; }

/* In a lab's call, what a GPU's plan cannot carry (plan_record.c, lab_refusals.h) is refused alike,
 * naming the call: freeing a buffer (the kit's), an allocation of any kind, a host function. */
Test(emulator_cuda, a_labs_call_may_not_free_allocate_or_run_host_functions)
{
    float *d = device(64 * sizeof(float)), *mine = NULL;
    size_t pitch = 0;
    int ran = 0;
    tl_emu_lab_running(1);
    cr_assert_eq(cudaFree(NULL), cudaSuccess, "a NULL frees nothing, as CUDA's");
    cr_assert_eq(cudaFree(d), cudaErrorNotSupported);
    cr_assert(strstr(tl_emu_lab_refusal(), "your code called cudaFree:"), "%s", tl_emu_lab_refusal());
    cr_assert_eq(cudaMallocAsync((void **)&mine, 64, 0), cudaErrorNotSupported);
    cr_assert(!mine && strstr(tl_emu_lab_refusal(), "your code called cudaMallocAsync:"), "%s", tl_emu_lab_refusal());
    cr_assert_eq(cudaMallocPitch((void **)&mine, &pitch, 64, 2), cudaErrorNotSupported);
    cr_assert(!mine && strstr(tl_emu_lab_refusal(), "your code called cudaMallocPitch:"), "%s", tl_emu_lab_refusal());
    cr_assert_eq(cudaLaunchHostFunc(0, host_side, &ran), cudaErrorNotSupported);
    cr_assert(!ran && strstr(tl_emu_lab_refusal(), "your code called cudaLaunchHostFunc:"), "%s",
              tl_emu_lab_refusal());
    tl_emu_lab_running(0);
}

/* The constant cache broadcasts: a warp's read of one address is one pass, of 32 addresses 32
 * (a transposed read through __constant__ costs what lab 3's strided access does). And a
 * lab's cudaMemcpyToSymbol from device memory moves its bytes as cudaMemcpy does. */
Test(emulator_cuda, constant_reads_take_a_pass_an_address_and_symbol_copies_are_counted)
{
    float w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float *out = device(64 * sizeof(float)), *d = device(8 * sizeof(float));
    cr_assert_eq(cudaMemcpy(d, w, sizeof w, cudaMemcpyHostToDevice), cudaSuccess);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    tl_emu_lab_running(1);
    cr_assert_eq(set_weights_from_device(d), cudaSuccess, "%s", tl_emu_error_detail());
    tl_emu_lab_running(0);
    launch_weight_reads(out);
    tl_emu_profile(0);
    cr_assert_eq(tl_emu_stats_count(), 2);
    const tl_emu_stats *copy = tl_emu_stats_get(0), *k = tl_emu_stats_get(1);
    cr_assert_str_eq(copy->kernel, "cudaMemcpyToSymbol");
    cr_expect_eq(copy->global_load_bytes, 32, "%llu", copy->global_load_bytes);
    cr_expect_eq(copy->global_store_bytes, 32, "%llu", copy->global_store_bytes);
    cr_expect(copy->global_load_sectors >= 1 && copy->global_store_sectors >= 1);
    cr_expect_eq(k->constant_load_requests, 2, "%llu", k->constant_load_requests);
    cr_expect_eq(k->constant_load_passes, 1 + 8, "one address for the warp, then 8: %llu",
                 k->constant_load_passes);
}

Test(emulator_cuda, memcpy_and_memset_in_device_code_are_counted_accesses)
{
    enum { N = 16 };
    float *in = device(32 * N * sizeof(float)), *out = device((32 * N + 32) * sizeof(float));
    float host[32 * N], h[32 * N + 32];
    for (int i = 0; i < 32 * N; i++)
        host[i] = (float)i;
    cr_assert_eq(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_row_memcpy(out, in, N);
    tl_emu_profile(0);
    fetch(h, out, sizeof h);
    cr_expect_eq(h[32 * N - 1], (float)(32 * N - 1));
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_expect_eq(s->global_load_bytes, 32 * N * 4, "every byte memcpy read: %llu", s->global_load_bytes);
    cr_expect_eq(s->global_store_bytes, 32 * N * 4 + 32 * 4, "and wrote, memset's too: %llu",
                 s->global_store_bytes);
    /* A copy loop's 16-byte pieces, each lane's row 64 bytes from the next: 4 requests of 32 sectors. */
    cr_expect_eq(s->global_load_requests, 4, "%llu", s->global_load_requests);
    cr_expect_eq(s->global_load_sectors, 4 * 32, "%llu", s->global_load_sectors);
}

/* modf, frexp and the like store through a pointer in the C library's code, which no
 * instrumentation reaches: the emulator makes each store itself, checked and counted (a lab 5
 * file stored its transpose by modf unseen: tests/hostile/lab05-stores-by-modf.cu). */
Test(emulator_cuda, maths_functions_that_store_through_a_pointer_are_counted_accesses)
{
    float *in = device(32 * sizeof(float)), *out = device(225 * sizeof(float)), host[32], h[225];
    int *e = device(32 * sizeof(int)), he[32];
    for (int i = 0; i < 32; i++)
        host[i] = (float)i * 2.25f - 30.0f;
    cr_assert_eq(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_pointer_maths(out, e, in, 0);
    tl_emu_profile(0);
    fetch(h, out, sizeof h);
    fetch(he, e, sizeof he);
    for (int i = 0; i < 32; i++) {
        int exponent, quo;
        float fraction = frexpf(host[i], &exponent), rem = remquof(host[i], 1.0f, &quo);
        double whole;
        memcpy(&whole, h + 128 + 2 * i, sizeof whole);
        cr_expect_eq(h[32 + i], truncf(host[i]), "modff's whole part of %g: %g", host[i], h[32 + i]);
        cr_expect_eq(h[i] + h[32 + i], host[i]);
        cr_expect_eq(he[i], exponent, "frexpf's exponent of %g: %d", host[i], he[i]);
        cr_expect_eq(h[64 + i], fraction);
        cr_expect_eq(h[96 + i], rem + (float)quo);
        cr_expect_eq(whole, trunc((double)host[i]), "modf's whole part of %g: %g", host[i], whole);
    }
    const tl_emu_stats *s = tl_emu_stats_get(0);
    /* out[i], modff's, out[64 + i], frexpf's, out[96 + i], modf's, out[192 + i]: seven
     * stores a thread to global memory (remquof's is to the thread's own variable). */
    cr_expect_eq(s->global_store_requests, 7, "%llu", s->global_store_requests);
    cr_expect_eq(s->global_store_bytes, 32 * (6 * 4 + 8), "%llu", s->global_store_bytes);

    launch_pointer_maths(out, e, in, 1);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorMisalignedAddress, "%s", tl_emu_error_detail());
}

/* printf's %n stores through a pointer in the C library's code, unseen: a kernel that asks for
 * it stops, the emulator's limit (CUDA's printf has no %n), and stores nothing. */
Test(emulator_cuda, printf_in_a_kernel_stores_nothing)
{
    float *d = device(sizeof(float)), h = 1.0f;
    cr_assert_eq(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    launch_count_printed(d);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorNotSupported, "%s", tl_emu_error_detail());
    cr_expect(strstr(tl_emu_error_detail(), "printf with %n"), "%s", tl_emu_error_detail());
    cr_expect(tl_emu_error_is_its_own());
}

Test(emulator_cuda, inline_ptx_reads_special_registers)
{
    unsigned *d = device(64 * sizeof(unsigned)), h[64];
    launch_special_registers(d);
    fetch(h, d, sizeof h);
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(h[i], i % 32 | (i / 32) << 8 | (i % 32) << 16 | 1u << 24, "thread %u: 0x%x", i, h[i]);
}

Test(emulator_cuda, inline_ptx_reads_the_launchs_coordinates)
{
    enum { BLOCKS = 12, THREADS = 24, READS = 16 };
    unsigned *d = device(BLOCKS * THREADS * READS * sizeof(unsigned));
    static unsigned h[BLOCKS * THREADS * READS];
    launch_coordinate_registers(d);
    fetch(h, d, sizeof h);
    for (unsigned b = 0; b < BLOCKS; b++)
        for (unsigned t = 0; t < THREADS; t++) {
            /* grid 2 x 3 x 2, block 4 x 2 x 3, 40 bytes of dynamic shared memory */
            unsigned want[READS] = {t % 4, t / 4 % 2, t / 8, 4, 2, 3, b % 2, b / 2 % 3, b / 6,
                                    2, 3, 2, 40, b / 2 % 3, 1, 1};
            for (unsigned k = 0; k < READS; k++)
                cr_expect_eq(h[(b * THREADS + t) * READS + k], want[k], "block %u thread %u read %u: %u, not %u",
                             b, t, k, h[(b * THREADS + t) * READS + k], want[k]);
        }
}

/* IEEE 754's binary16 and bfloat16, rounded to nearest even unless named otherwise: the
 * values tests/half_precision_kernel.cuh's comments give. */
Test(emulator_cuda, half_and_bfloat16_round_as_cuda_does)
{
    static const unsigned want[] = {0x3c00, 0x3c02, 0x7bff, 0x7c00, 0x7bff, 0x0000, 0x0001, 0x7fff,
                                    0x3c01, 0xbc01, 0x3c00, 0x33800000, 0x6800, 0x6800, 0x3c04, 0x6800,
                                    0x4200c400, 11, (unsigned)-2, 0x3f80, 0x3f82, 0x3ffe, 0x40400000,
                                    0x4380};
    unsigned *d = device(sizeof want), h[sizeof want / sizeof *want];
    launch_half_precision(d);
    fetch(h, d, sizeof h);
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        cr_expect_eq(h[k], want[k], "result %zu: 0x%x, not 0x%x", k, h[k], want[k]);
}

Test(emulator_cuda, malloc_in_a_kernel_is_device_memory_from_the_heap)
{
    float *d = device(33 * sizeof(float)), h[33];
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_heap(d, (size_t)1 << 30);
    tl_emu_profile(0);
    fetch(h, d, sizeof h);
    cr_expect_eq(h[0], 62.0f, "%g", h[0]);
    cr_expect_eq(h[32], 1.0f, "1 GiB is more than the 8 MiB heap: malloc gives NULL");
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_expect_eq(s->global_store_bytes, 32 * 4 + 32 * 4 + 4, "the buffer's stores count: %llu", s->global_store_bytes);
}

Test(emulator_cuda, an_index_past_a_kernel_malloc_names_it)
{
    launch_heap_past_its_end(device(sizeof(float)));
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    const char *why = tl_emu_error_detail();
    cr_expect(strstr(why, "past the end of a 2097152-byte kernel malloc allocation"), "%s", why);
    cr_expect(!strstr(why, "cudaMalloc") && !strstr(why, "2 MiB page"),
              "a kernel's malloc is no cudaMalloc and has no page past it: %s", why);
}

Test(emulator_cuda, trap_stops_the_kernel)
{
    launch_traps(device(32 * sizeof(float)));
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(strstr(tl_emu_error_detail(), "__trap()"), "%s", tl_emu_error_detail());
}

/* A kernel calls only device code, through a pointer as directly: a __device__ function's
 * pointer runs, its store counted; a host function's address (the C library's wmemcpy, which
 * the emulator would otherwise run unchecked and uncounted) fails the kernel, as on a GPU. */
Test(emulator_cuda, a_kernel_calls_through_a_pointer_only_device_functions_of_the_file)
{
    float *out = device(32 * 8 * sizeof(float)), h[32 * 8];
    tl_emu_stats_reset();
    tl_emu_profile(1);
    launch_store_through(out, 0);
    tl_emu_profile(0);
    fetch(h, out, sizeof h);
    cr_expect_eq(h[8 * 31], 31.0f, "%g", h[8 * 31]);
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_assert(s && !strcmp(s->kernel, "store_through"), "%s", s ? s->kernel : "no kernel counted");
    cr_expect_eq(s->global_store_requests, 1, "%llu", s->global_store_requests);
    cr_expect_eq(s->global_store_sectors, 32, "a float every 32 bytes: %llu", s->global_store_sectors);

    launch_store_through(out, 1);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorInvalidPc, "%s", tl_emu_error_detail());
    const char *said = tl_emu_error_detail();
    cr_assert(strstr(said, "the host function wmemcpy") && strstr(said, "not a __device__ function of your file") &&
                  strstr(said, "store_through"),
              "%s", said);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidPc);
    cudaDeviceReset();
}

Test(emulator_cuda, pitched_memory_and_two_d_copies)
{
    float *d = NULL, host[3][5], back[3][5];
    size_t pitch = 0;
    cr_assert_eq(cudaMallocPitch((void **)&d, &pitch, 5 * sizeof(float), 3), cudaSuccess);
    cr_assert(pitch >= 5 * sizeof(float) && pitch % 512 == 0, "pitch %zu", pitch);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 5; c++)
            host[r][c] = (float)(10 * r + c);
    cr_assert_eq(cudaMemset2D(d, pitch, 0, 5 * sizeof(float), 3), cudaSuccess);
    cr_assert_eq(cudaMemcpy2D(d, pitch, host, sizeof host[0], sizeof host[0], 3, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy2D(back, sizeof back[0], d, pitch, sizeof back[0], 3, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(memcmp(host, back, sizeof host), 0);
    cr_assert_eq(cudaMemcpy2D(back, 4, d, pitch, 8, 3, cudaMemcpyDeviceToHost), cudaErrorInvalidPitchValue);
    cr_assert_eq(cudaMemcpy2D(back, sizeof back[0], d, pitch, sizeof back[0], 600, cudaMemcpyDeviceToHost),
                 cudaErrorInvalidValue, "past the allocation");
}

static int host_function_ran;
static void host_function(void *data) { host_function_ran = *(int *)data; }

Test(emulator_cuda, streams_and_events)
{
    cudaStream_t s;
    unsigned int flags = 7;
    int priority = 1, least, greatest, value = 42;
    cr_assert_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    cr_assert_eq(cudaStreamGetFlags(s, &flags), cudaSuccess);
    cr_expect_eq(flags, cudaStreamNonBlocking);
    cr_assert_eq(cudaStreamQuery(s), cudaSuccess, "the emulator's streams are always done");
    cr_assert_eq(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
    cudaStream_t p;
    cr_assert_eq(cudaStreamCreateWithPriority(&p, cudaStreamDefault, greatest - 3), cudaSuccess);
    cr_assert_eq(cudaStreamGetPriority(p, &priority), cudaSuccess);
    cr_expect_eq(priority, greatest, "clamped to the greatest: %d", priority);
    cudaEvent_t a, b, untimed;
    cr_assert_eq(cudaEventCreate(&a), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
    cr_assert_eq(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming), cudaSuccess);
    cr_assert_eq(cudaEventRecord(a, s), cudaSuccess);
    cr_assert_eq(cudaStreamWaitEvent(p, a, 0), cudaSuccess);
    cr_assert_eq(cudaLaunchHostFunc(p, host_function, &value), cudaSuccess);
    cr_expect_eq(host_function_ran, 42);
    cr_assert_eq(cudaEventRecord(b, p), cudaSuccess);
    cr_assert_eq(cudaEventRecord(untimed, p), cudaSuccess);
    cr_assert_eq(cudaEventQuery(b), cudaSuccess);
    float ms = -1;
    cr_assert_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    cr_expect_geq(ms, 0.0f);
    cr_assert_eq(cudaEventElapsedTime(&ms, a, untimed), cudaErrorInvalidResourceHandle);
    cr_assert_eq(cudaStreamDestroy(s), cudaSuccess);
    cr_assert_eq(cudaStreamDestroy(p), cudaSuccess);
}

/* Milliseconds a launch of launch_copy took by the emulator's events. */
static float copy_ms(float *out, const float *in, int n, int by_columns)
{
    cudaEvent_t a, b;
    float ms = -1;
    cr_assert_eq(cudaEventCreate(&a), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
    cr_assert_eq(cudaEventRecord(a, 0), cudaSuccess);
    launch_copy(out, in, n, by_columns);
    cr_assert_eq(cudaEventRecord(b, 0), cudaSuccess);
    cr_assert_eq(cudaEventSynchronize(b), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    cr_assert_eq(cudaEventDestroy(a), cudaSuccess);
    cr_assert_eq(cudaEventDestroy(b), cudaSuccess);
    return ms;
}

/* What the GPU would spend: 2 microseconds a launch, and the sectors the launch moved at the
 * GPU's bandwidth (bytes a nanosecond), in milliseconds. */
static double model_ms(double sectors, double bandwidth)
{
    return (2000.0 + sectors * 32 / bandwidth) / 1e6;
}

/* The events read the emulator's clock of the GPU, not the host's: a copy down the columns
 * takes 8 times the sectors of one along the rows and longer by them, the same every time,
 * at an H100's 3.35 TB/s; and a launch timed leaves no counts behind where counting is off. */
Test(emulator_cuda, events_read_a_clock_of_what_the_gpu_would_spend)
{
    const int n = 512;
    float *in = device((size_t)n * n * sizeof(float)), *out = device((size_t)n * n * sizeof(float));
    long profiled = tl_emu_profiled_launches();
    int kernels = tl_emu_stats_count();
    double sectors = 2.0 * n * n * sizeof(float) / 32;
    float rows = copy_ms(out, in, n, 0), columns = copy_ms(out, in, n, 1);
    cr_expect_float_eq(rows, model_ms(sectors, 3350), 1e-6, "along the rows: %g ms, not %g", rows,
                       model_ms(sectors, 3350));
    cr_expect_float_eq(columns, model_ms(8 * sectors, 3350), 1e-6,
                       "down the columns (32 sectors a request): %g ms, not %g", columns, model_ms(8 * sectors, 3350));
    cr_expect_eq(copy_ms(out, in, n, 1), columns, "timed again, the same launch took another time");
    cr_expect_eq(tl_emu_profiled_launches(), profiled, "the launches timed were left counted");
    cr_expect_eq(tl_emu_stats_count(), kernels, "the kernels timed were left counted");
    cudaEvent_t a, b;
    float ms = -1;
    cr_assert_eq(cudaEventCreate(&a), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
    cr_assert_eq(cudaEventRecord(a, 0), cudaSuccess);
    cr_assert_eq(cudaEventRecord(b, 0), cudaSuccess);
    cr_assert_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    cr_expect_eq(ms, 0.0f, "no work between two events: %g ms", ms);
    cr_assert_eq(cudaMemcpy(out, in, (size_t)n * n * sizeof(float), cudaMemcpyDeviceToDevice), cudaSuccess);
    cr_assert_eq(cudaEventRecord(b, 0), cudaSuccess);
    cr_assert_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    cr_expect_float_eq(ms, model_ms(sectors, 3350), 1e-6, "a copy in device memory: %g ms", ms);
}

/* A grid of fewer blocks than the GPU has SMs reads and writes through only as many of them:
 * a copy of 64 rows, a block a row, takes the SMs' count over 64 times as long for its memory
 * as it would on all of them, and its sectors are those of 64 rows. */
Test(emulator_cuda, a_grid_smaller_than_the_gpu_moves_memory_through_fewer_sms)
{
    const int n = 64;
    int sms = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    cr_assert_gt(sms, n, "the emulator's GPU has %d SMs, not more than the test's %d blocks", sms, n);
    float *in = device((size_t)n * n * sizeof(float)), *out = device((size_t)n * n * sizeof(float));
    double sectors = 2.0 * n * n * sizeof(float) / 32;
    float rows = copy_ms(out, in, n, 0);
    cr_expect_float_eq(rows, model_ms(sectors * sms / n, 3350), 1e-6, "%d blocks on %d SMs: %g ms, not %g",
                       n, sms, rows, model_ms(sectors * sms / n, 3350));
}

/* A launch counted for the clock alone follows no words of device memory (made.c): its counts
 * are dropped, and the tables for fresh allocations would pile up in the kit's pages until the
 * next profile, each block's bookkeeping opening and closing them all (4097 x 4097 timed
 * transposes took twice the CPU time of the same launches timed with these tables left alone). */
Test(emulator_cuda, a_launch_timed_follows_no_words)
{
    const int n = 512;
    float *in = device((size_t)n * n * sizeof(float)), *out = device((size_t)n * n * sizeof(float));
    size_t tables = tl_emu_counts_bytes();
    float ms = copy_ms(out, in, n, 0);
    cr_expect_gt(ms, 0.0f, "the launch timed took no time");
    cr_expect_eq(tl_emu_counts_bytes(), tables, "timing a launch took %zu bytes of the counts' tables "
                 "for the words it wrote and read", tl_emu_counts_bytes() - tables);
}

/* An event or stream destroyed is no longer CUDA's: each call with it is
 * cudaErrorInvalidResourceHandle, the same every time, and destroying it again is too. */
Test(emulator_cuda, a_destroyed_event_or_stream_is_an_invalid_handle)
{
    cudaEvent_t a, b;
    cudaStream_t s;
    float ms = -1;
    unsigned flags;
    cr_assert_eq(cudaEventCreate(&a), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
    cr_assert_eq(cudaEventRecord(a, 0), cudaSuccess);
    cr_assert_eq(cudaEventRecord(b, 0), cudaSuccess);
    cr_assert_eq(cudaEventDestroy(b), cudaSuccess);
    for (int i = 0; i < 2; i++)
        cr_expect_eq(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle,
                     "the time to an event destroyed, asked the %s time", i ? "second" : "first");
    cr_expect_eq(ms, -1.0f, "a time was given to an event destroyed: %g ms", ms);
    cr_expect_eq(cudaEventRecord(b, 0), cudaErrorInvalidResourceHandle, "an event destroyed was recorded");
    cr_expect_eq(cudaEventQuery(b), cudaErrorInvalidResourceHandle);
    cr_expect_eq(cudaEventSynchronize(b), cudaErrorInvalidResourceHandle);
    cr_expect_eq(cudaStreamWaitEvent(0, b, 0), cudaErrorInvalidResourceHandle);
    cr_expect_eq(cudaEventDestroy(b), cudaErrorInvalidResourceHandle, "an event was destroyed twice");
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    cr_expect_eq(cudaEventElapsedTime(&ms, a, a), cudaSuccess, "%s", tl_emu_error_detail());
    cr_expect_eq(cudaEventDestroy(a), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cr_assert_eq(cudaStreamDestroy(s), cudaSuccess);
    cr_expect_eq(cudaStreamGetFlags(s, &flags), cudaErrorInvalidResourceHandle);
    cr_expect_eq(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle, "a stream was destroyed twice");
    cudaGetLastError();
}

/* Inside a lab's call the events see no work, as the kit's GPU path answers there (its plan's
 * launches run after the call: plan_record.c, and the H200's record of two autotuners,
 * plots/data/session15-h200-2026-11-28/autotuners-on-the-gpu.txt): 0 ms, and no launch counted
 * for the clock. */
Test(emulator_cuda, inside_a_labs_call_events_see_no_work_as_on_the_gpu_path)
{
    const int n = 512;
    float *in = device((size_t)n * n * sizeof(float)), *out = device((size_t)n * n * sizeof(float));
    tl_emu_lab_running(1);
    float ms = copy_ms(out, in, n, 1);
    tl_emu_lab_running(0);
    cr_expect_eq(ms, 0.0f, "a launch between two events in a lab's call: %g ms", ms);
    cr_expect_gt(copy_ms(out, in, n, 1), 0.0f, "outside a lab's call the clock runs");
}

/* Where a GPU grades, the clock runs at that GPU's bandwidth: its memory clock (both edges)
 * and bus width, as TILELAB_EMU_DEVICE gives them (device.c). The emulator reads it as the
 * program starts, so the test runs itself again with one: 1000 MHz and 1024 bits. */
#define MADE_UP_GPU "name A made-up GPU;attr 36 1000000;attr 37 1024;"
Test(emulator_cuda, the_clock_runs_at_the_grading_gpus_bandwidth)
{
    const char *given = getenv("TILELAB_EMU_DEVICE"); /* (env -i: nothing of Criterion's own) */
    if (!given || strcmp(given, MADE_UP_GPU)) {
        char command[512];
        snprintf(command, sizeof command,
                 "env -i TILELAB_EMU_DEVICE='%s' /proc/%d/exe --filter "
                 "'emulator_cuda/the_clock_runs_at_the_grading_gpus_bandwidth' >/dev/null 2>&1",
                 MADE_UP_GPU, (int)getpid());
        cr_expect_eq(system(command), 0, "run with a made-up GPU of 256 bytes a nanosecond, the clock did not "
                     "follow it (run %s alone to see)", command);
        return;
    }
    const int n = 512;
    float *in = device((size_t)n * n * sizeof(float)), *out = device((size_t)n * n * sizeof(float));
    double sectors = 2.0 * n * n * sizeof(float) / 32; /* 256 bytes a nanosecond */
    float rows = copy_ms(out, in, n, 0);
    cr_expect_float_eq(rows, model_ms(sectors, 256), 1e-6, "%g ms, not %g", rows, model_ms(sectors, 256));
}

Test(emulator_cuda, host_memory_and_what_the_emulator_refuses)
{
    float *pinned = NULL, *managed = (float *)1;
    cr_assert_eq(cudaMallocHost((void **)&pinned, 64), cudaSuccess);
    pinned[15] = 1.0f;
    cr_assert_eq(cudaFreeHost(pinned), cudaSuccess);
    cr_assert_eq(cudaMallocManaged((void **)&managed, 64, cudaMemAttachGlobal), cudaErrorNotSupported);
    cr_assert_null(managed);
    cr_assert(strstr(tl_emu_error_detail(), "not supported by the tilelab CPU emulator") &&
              strstr(tl_emu_error_detail(), "on a GPU"), "%s", tl_emu_error_detail());
}

Test(emulator_cuda, the_device_is_an_h100)
{
    struct cudaDeviceProp p;
    int v = 0;
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_expect(p.major == 9 && p.minor == 0, "compute capability %d.%d", p.major, p.minor);
    cr_expect_eq(p.regsPerBlock, 65536);
    cr_expect_eq(p.sharedMemPerBlockOptin, 232448);
    cr_expect_eq(p.totalConstMem, 65536);
    /* Its SMs too: a grid of one wave (SMs x blocks an SM) is an H100's, so that what goes
     * wrong only past some number of blocks (a second pass of one block, one thread a
     * partial) goes wrong here as there (tests/emu_corpus/lab10-second-pass-of-one-wave.cu). */
    cr_expect_eq(p.multiProcessorCount, 132);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    cr_expect_eq(v, 132);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
    cr_expect_eq(v, 232448);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMaxRegistersPerBlock, 0), cudaSuccess);
    cr_expect_eq(v, 65536);
    cr_expect_str_eq(cudaGetErrorName(cudaErrorInvalidPitchValue), "cudaErrorInvalidPitchValue");
    cr_expect_str_eq(cudaGetErrorString(cudaErrorInvalidSymbol), "invalid device symbol");
}
