/*
 * Kernels of the CUDA surface the emulator gives a program besides its
 * execution model (tests/emu_cuda_test.c): intrinsics, vector types,
 * cache-hint loads and stores, __constant__ and __device__ variables,
 * memcpy in device code, __trap(). Launchers have C linkage.
 */
#include <math_constants.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#include "emu_simd.cuh"
#include "lab.h"

/* One thread: each integer intrinsic's result in turn (their values: CUDA's, on the H100). */
__global__ void integer_intrinsics(unsigned *out)
{
    int k = 0;
    out[k++] = __brev(1u);
    out[k++] = (unsigned)(__brevll(1ull) >> 32);
    out[k++] = __byte_perm(0x03020100u, 0x07060504u, 0x7531u);
    out[k++] = (unsigned)__clz(0) * 100 + (unsigned)__clz(1);
    out[k++] = (unsigned)__clzll(1ll);
    out[k++] = (unsigned)__ffs(0) * 100 + (unsigned)__ffs(8);
    out[k++] = (unsigned)__ffsll(1ll << 40);
    out[k++] = (unsigned)__popc(0xffu) * 100 + (unsigned)__popcll(~0ull);
    out[k++] = __funnelshift_l(0x80000000u, 1u, 1u);
    out[k++] = __funnelshift_lc(5u, 7u, 40u);
    out[k++] = __funnelshift_r(1u, 1u, 1u);
    out[k++] = __funnelshift_rc(5u, 7u, 40u);
    out[k++] = (unsigned)__hadd(-3, -4);
    out[k++] = (unsigned)__rhadd(3, 4);
    out[k++] = __uhadd(0xffffffffu, 1u);
    out[k++] = (unsigned)__mul24(0x01000003, 2);
    out[k++] = __umul24(0xff000002u, 3u);
    out[k++] = (unsigned)__mulhi(0x40000000, 8);
    out[k++] = __umulhi(0x80000000u, 4u);
    out[k++] = (unsigned)__umul64hi(1ull << 63, 4ull);
    out[k++] = (unsigned)__mul64hi(-(1ll << 62), 8ll);
    out[k++] = __sad(1, 5, 10u);
    out[k++] = __usad(9u, 5u, 1u);
    out[k++] = (unsigned)__dp4a(0x01020304, 0x01010101, 10);
    out[k++] = __fns(0xf0u, 0u, 2);
    out[k++] = __fns(0xf0u, 7u, -3);
    out[k++] = (unsigned)__mul24(-2, 3);
}

/* One thread: the DPX functions of sm_90 (__vimax3_s32, __viaddmax_u16x2, __vibmin_s32, ...),
 * on ints and on pairs of shorts, with wrapping adds and predicates. */
__global__ void dpx_intrinsics(unsigned *out)
{
    int k = 0;
    bool p = false, q = false;
    out[k++] = (unsigned)__vimax3_s32(-5, 7, 3);
    out[k++] = __vimax3_u32(5u, 0xfffffff0u, 3u);
    out[k++] = __vimax3_s16x2(0xfffb0002u, 0x00070001u, 0x8000fff0u);
    out[k++] = __vimax3_u16x2(0xfffb0002u, 0x00070001u, 0x8000fff0u);
    out[k++] = (unsigned)__vimin3_s32(-5, 7, 3);
    out[k++] = __vimin3_u16x2(0xfffb0002u, 0x00070001u, 0x8000fff0u);
    out[k++] = (unsigned)__vimax3_s32_relu(-5, -7, -3);
    out[k++] = __vimin3_s16x2_relu(0xfffb0002u, 0x00070001u, 0x8000fff0u);
    out[k++] = (unsigned)__viaddmax_s32(0x7fffffff, 1, -3);
    out[k++] = __viaddmax_u32(0xffffffffu, 2u, 0u);
    out[k++] = __viaddmax_s16x2(0x7fff0001u, 0x00010002u, 0x00000005u);
    out[k++] = __viaddmin_u16x2(0xffff0001u, 0x00020002u, 0x00050002u);
    out[k++] = (unsigned)__viaddmin_s32_relu(-5, 2, 1);
    out[k++] = __viaddmax_s16x2_relu(0xfff00003u, 0x00010004u, 0xffff0000u);
    out[k++] = (unsigned)__vimax_s32_relu(-5, -2);
    out[k++] = __vimin_s16x2_relu(0x0003fff0u, 0x00050001u);
    out[k++] = (unsigned)__vibmax_s32(-5, -5, &p) * 10 + p;
    out[k++] = __vibmin_u32(3u, 9u, &p) * 10 + p;
    out[k++] = __vibmax_s16x2(0xfff00003u, 0x00010003u, &p, &q) ^ (unsigned)p << 31 ^ (unsigned)q << 30;
    out[k++] = __vibmin_u16x2(0xfff00003u, 0x00010004u, &p, &q) ^ (unsigned)p << 31 ^ (unsigned)q << 30;
}

/* One thread: each SIMD intrinsic on each pair of operands (emu_simd.cuh's order, pair by
 * pair); then a shared and a global address through __cvta_* and back, and __isGridConstant;
 * then erfcxf, cyl_bessel_i0f and cyl_bessel_i1f of each of in[0..n), normf and rnormf of
 * in[0..k) for each k to n, and those of rnorm3df and rnorm4df of in[0..3) and in[0..4). */
__global__ void simd_and_more(unsigned *out, const unsigned *pairs, float *fout, const float *in, int n)
{
    __shared__ float tile[32];
    int k = 0;
    for (int p = 0; p < TL_SIMD_PAIR_COUNT; p++) {
        unsigned a = pairs[2 * p], b = pairs[2 * p + 1];
#define UNARY(name, bits, s, kind) out[k++] = name(a);
#define BINARY(name, bits, s, kind) out[k++] = name(a, b);
        TL_SIMD_UNARY(UNARY)
        TL_SIMD_BINARY(BINARY)
#undef UNARY
#undef BINARY
    }
    unsigned s0 = (unsigned)__cvta_generic_to_shared(&tile[0]), s5 = (unsigned)__cvta_generic_to_shared(&tile[5]);
    float *back = (float *)__cvta_shared_to_generic(s5);
    *back = 7.0f;
    out[k++] = s5 - s0;
    out[k++] = tile[5] == 7.0f && __isShared(back);
    out[k++] = (float *)__cvta_global_to_generic(__cvta_generic_to_global(fout + 3)) == fout + 3;
    out[k++] = __isGridConstant(&s0) + __isGridConstant(out);
    int j = 0;
    for (int i = 0; i < n; i++) {
        fout[j++] = erfcxf(in[i]);
        fout[j++] = cyl_bessel_i0f(in[i]);
        fout[j++] = cyl_bessel_i1f(in[i]);
        fout[j++] = normf(i + 1, in);
        fout[j++] = rnormf(i + 1, in);
    }
    fout[j++] = rnorm3df(in[0], in[1], in[2]);
    fout[j++] = rnorm4df(in[0], in[1], in[2], in[3]);
}

/* One thread: floating-point intrinsics' and conversions' results, as bits. */
__global__ void float_intrinsics(unsigned *out)
{
    int k = 0;
    out[k++] = __float_as_uint(__fadd_rd(1.0f, 1e-8f));
    out[k++] = __float_as_uint(__fadd_ru(1.0f, 1e-8f));
    out[k++] = __float_as_uint(__fmul_ru(1.0f + 1.1920929e-7f, 1.0f - 5.9604645e-8f));
    out[k++] = __float_as_uint(__fdiv_rn(1.0f, 3.0f));
    out[k++] = __float_as_uint(__fsqrt_rd(2.0f));
    out[k++] = __float_as_uint(__fsqrt_ru(2.0f));
    out[k++] = (unsigned)__float2int_rn(2.5f);
    out[k++] = (unsigned)__float2int_rn(3.5f);
    out[k++] = (unsigned)__float2int_rd(-1.5f);
    out[k++] = (unsigned)__float2int_ru(1.2f);
    out[k++] = (unsigned)__float2int_rz(-1.7f);
    out[k++] = (unsigned)__float2int_rn(1e10f);
    out[k++] = __float2uint_rn(-3.0f);
    out[k++] = (unsigned)__float2int_rn(CUDART_NAN_F);
    out[k++] = __float_as_uint(__int2float_rd(16777217));
    out[k++] = __float_as_uint(__int2float_ru(16777217));
    out[k++] = __float_as_uint(__double2float_rd(1.0 + 1e-12));
    out[k++] = __float_as_uint(__double2float_ru(1.0 + 1e-12));
    out[k++] = (unsigned)__double2hiint(1.0);
    out[k++] = __float_as_uint((float)__hiloint2double(0x3ff00000, 0));
    out[k++] = __float_as_uint(__saturatef(2.0f)) ^ __float_as_uint(__saturatef(-1.0f));
    out[k++] = __float_as_uint(rsqrtf(4.0f));
    out[k++] = (unsigned)__double2ll_rz(-7.9);
    out[k++] = __float_as_uint(__dadd_rd(1.0, 1e-30) == 1.0 ? 1.0f : 0.0f);
}

/* The vector types: each make_ function's fields, and the sizes and alignments the host sees. */
__global__ void vectors(int *out)
{
    int2 a = make_int2(1, 2);
    uchar4 b = make_uchar4(3, 4, 5, 6);
    double2 c = make_double2(7.0, 8.0);
    longlong2 d = make_longlong2(9, 10);
    float3 e = make_float3(11.0f, 12.0f, 13.0f);
    short4 f = make_short4(14, 15, 16, 17);
    ulonglong4_32a g = make_ulonglong4_32a(18, 19, 20, 21);
    out[0] = a.x + a.y + b.x + b.w + (int)c.y + (int)d.y + (int)e.z + f.w + (int)g.w;
}

/* A copy with cache hints: plain loads and stores to the emulator, counted as any. */
__global__ void hinted_copy(float4 *out, const float4 *in)
{
    float4 v = __ldcs(&in[threadIdx.x]);
    __stcs(&out[threadIdx.x], v);
    float w = __ldg(&in[threadIdx.x].x) + __ldcg(&in[threadIdx.x].y) + __ldca(&in[threadIdx.x].z) +
              __ldlu(&in[threadIdx.x].w) + __ldcv(&in[threadIdx.x].x);
    __stwt(&out[32 + threadIdx.x].x, w);
    __stwb(&out[32 + threadIdx.x].y, w);
    __stcg(&out[32 + threadIdx.x].z, w);
}

/* The emulator's clock (streams.c): an n x n matrix copied along its rows (a warp's 32 floats
 * of a row: 4 sectors a request) or down its columns (32 rows apart: 32 sectors a request). */
__global__ void copy_rows(float *out, const float *in, int n)
{
    for (int c = threadIdx.x; c < n; c += blockDim.x)
        out[(size_t)blockIdx.x * n + c] = in[(size_t)blockIdx.x * n + c];
}

__global__ void copy_columns(float *out, const float *in, int n)
{
    for (int r = threadIdx.x; r < n; r += blockDim.x)
        out[(size_t)r * n + blockIdx.x] = in[(size_t)r * n + blockIdx.x];
}

__constant__ float weights[8];
__device__ float scratch[64];

/* Reads __constant__ weights, writes and reads a __device__ array. */
__global__ void weighted(float *out)
{
    scratch[threadIdx.x] = weights[threadIdx.x % 8] * 2.0f;
    __syncthreads();
    out[threadIdx.x] = scratch[(threadIdx.x + 1) % 32];
}

/* One __constant__ address for the whole warp (a broadcast), then 8 different ones. (An index
 * g++ knows goes unchecked, as README's limits say of shared variables: i is an argument.) */
__global__ void weight_reads(float *out, int i)
{
    out[threadIdx.x] = weights[i];
    out[32 + threadIdx.x] = weights[threadIdx.x % 8];
}

/* A store made by a function called through a pointer: a __device__ one of the file runs and
 * is counted; a host function (the C library's wmemcpy, passed from the host) fails the
 * kernel, as on a GPU. */
typedef wchar_t *(*store_fn)(wchar_t *, const wchar_t *, size_t);
__device__ wchar_t *store_one(wchar_t *dst, const wchar_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
    return dst;
}
__device__ store_fn store_one_pointer = store_one;
__global__ void store_through(float *out, store_fn f)
{
    float v = (float)threadIdx.x;
    f((wchar_t *)&out[threadIdx.x * 8], (const wchar_t *)&v, 1);
}

/* A thread's row copied with memcpy: in device code, accesses like any other. */
__global__ void row_memcpy(float *out, const float *in, int n)
{
    memcpy(out + threadIdx.x * n, in + threadIdx.x * n, (size_t)n * sizeof(float));
    memset(out + 32 * n + threadIdx.x, 0, sizeof(float));
}

/* The maths functions that store a result through a pointer, in device code: each store an
 * access like any other (in the C library's own code, none would be seen). shift 1 moves
 * modf's whole part off the alignment of a double. */
__global__ void pointer_maths(float *out, int *e, const float *in, int shift)
{
    int i = threadIdx.x;
    float x = in[i];
    out[i] = modff(x, out + 32 + i);
    out[64 + i] = frexpf(x, e + i);
    int quo;
    float rem = remquof(x, 1.0f, &quo);
    out[96 + i] = rem + (float)quo;
    double *whole = (double *)(out + 128 + shift) + i;
    out[192 + i] = (float)modf((double)x, whole);
}

/* printf's %hhn stores a byte, how many characters it printed, through a pointer: CUDA's
 * printf has none, and the emulator stops the kernel there. */
__global__ void count_printed(float *out)
{
    printf("%hhn", (signed char *)out);
}

/* Inline PTX the emulator runs: reads of special registers. */
__global__ void special_registers(unsigned *out)
{
    unsigned lane, warp, lower;
    unsigned long long t0, t1;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lower));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
    out[threadIdx.x] = lane | warp << 8 | (unsigned)__popc(lower) << 16 | (unsigned)(t1 >= t0) << 24;
}

/* The launch's coordinates read as PTX has them (%tid.x, %ctaid.y, ...), each beside what
 * CUDA C says, and the registers of a launch without clusters: one block a cluster. */
__global__ void coordinate_registers(unsigned *out)
{
    unsigned r[16];
    unsigned long long timer;
    asm("mov.u32 %0, %%tid.x;" : "=r"(r[0]));
    asm("mov.u32 %0, %%tid.y;" : "=r"(r[1]));
    asm volatile("mov.u32 %0, %%tid.z;" : "=r"(r[2]));
    asm("mov.u32 %0, %%ntid.x;" : "=r"(r[3]));
    asm("mov.u32 %0, %%ntid.y;" : "=r"(r[4]));
    asm("mov.u32 %0, %%ntid.z;" : "=r"(r[5]));
    asm("mov.u32 %0, %%ctaid.x;" : "=r"(r[6]));
    asm("mov.u32 %0, %%ctaid.y;" : "=r"(r[7]));
    asm("mov.b32 %0, %%ctaid.z;" : "=r"(r[8]));
    asm("mov.u32 %0, %%nctaid.x;" : "=r"(r[9]));
    asm("mov.u32 %0, %%nctaid.y;" : "=r"(r[10]));
    asm("mov.u32 %0, %%nctaid.z;" : "=r"(r[11]));
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r[12]));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(r[13]));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r[14]));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(timer) : : "memory");
    r[15] = timer > 0;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    for (int k = 0; k < 16; k++)
        out[(b * blockDim.x * blockDim.y * blockDim.z + t) * 16 + k] = r[k];
}

#include "half_precision_kernel.cuh"

/* Thread 0 takes a buffer from the device's heap, the block fills and reads it, thread 0
 * frees it; then a request larger than the heap gets NULL. */
__global__ void heap(float *out, size_t too_many)
{
    __shared__ float *buffer;
    if (threadIdx.x == 0)
        buffer = (float *)malloc(32 * sizeof(float));
    __syncthreads();
    buffer[threadIdx.x] = 2.0f * threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buffer[31 - threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        free(buffer);
        out[32] = malloc(too_many) == NULL ? 1.0f : 0.0f;
    }
}

/* An index past a kernel's malloc of a whole 2 MiB: the device's heap maps no page
 * beyond what malloc gave. */
__global__ void heap_past_its_end(float *out)
{
    float *buffer = (float *)malloc((size_t)2 << 20);
    out[0] = buffer[((size_t)2 << 20) / sizeof(float) + 64];
    free(buffer);
}

__global__ void traps(float *out)
{
    if (threadIdx.x == 3)
        __trap();
    out[threadIdx.x] = 1.0f;
}

extern "C" {
void launch_integer_intrinsics(unsigned *out) { integer_intrinsics<<<1, 1>>>(out); }
void launch_float_intrinsics(unsigned *out) { float_intrinsics<<<1, 1>>>(out); }
void launch_dpx_intrinsics(unsigned *out) { dpx_intrinsics<<<1, 1>>>(out); }
void launch_simd_and_more(unsigned *out, const unsigned *pairs, float *fout, const float *in, int n)
{
    simd_and_more<<<1, 1>>>(out, pairs, fout, in, n);
}
void launch_heap_past_its_end(float *out) { heap_past_its_end<<<1, 1>>>(out); }
void launch_vectors(int *out) { vectors<<<1, 1>>>(out); }
void launch_copy(float *out, const float *in, int n, int by_columns)
{
    if (by_columns)
        copy_columns<<<n, 256>>>(out, in, n);
    else
        copy_rows<<<n, 256>>>(out, in, n);
}
void launch_hinted_copy(float *out, const float *in) { hinted_copy<<<1, 32>>>((float4 *)out, (const float4 *)in); }
cudaError_t set_weights(const float *w, size_t bytes, size_t offset)
{
    return cudaMemcpyToSymbol(weights, w, bytes, offset);
}
cudaError_t get_scratch(float *h, size_t bytes, size_t offset)
{
    return cudaMemcpyFromSymbol(h, scratch, bytes, offset);
}
cudaError_t scratch_to_device(float *d) { return cudaMemcpyFromSymbol(d, scratch, 4, 0, cudaMemcpyDeviceToDevice); }
cudaError_t scratch_address(void **p) { return cudaGetSymbolAddress(p, scratch); }
cudaError_t set_not_a_symbol(const float *w)
{
    float local[8] = {0};
    return cudaMemcpyToSymbol(local, w, sizeof local);
}
void launch_weighted(float *out) { weighted<<<1, 32>>>(out); }
void launch_store_through(float *out, int host_function)
{
    store_fn f = host_function ? wmemcpy : NULL;
    if (!host_function)
        cudaMemcpyFromSymbol(&f, store_one_pointer, sizeof f);
    store_through<<<1, 32>>>(out, f);
}
void launch_weight_reads(float *out) { weight_reads<<<1, 32>>>(out, 3); }
cudaError_t set_weights_from_device(const float *d)
{
    return cudaMemcpyToSymbol(weights, d, 8 * sizeof(float), 0, cudaMemcpyDeviceToDevice);
}
void launch_row_memcpy(float *out, const float *in, int n) { row_memcpy<<<1, 32>>>(out, in, n); }
void launch_count_printed(float *out) { count_printed<<<1, 1>>>(out); }
void launch_pointer_maths(float *out, int *e, const float *in, int shift)
{
    pointer_maths<<<1, 32>>>(out, e, in, shift);
}
void launch_traps(float *out) { traps<<<1, 32>>>(out); }
void launch_special_registers(unsigned *out) { special_registers<<<1, 64>>>(out); }
void launch_coordinate_registers(unsigned *out)
{
    coordinate_registers<<<dim3(2, 3, 2), dim3(4, 2, 3), 40>>>(out);
}
void launch_half_precision(unsigned *out) { half_precision<<<1, 1>>>(out); }
void launch_heap(float *out, size_t too_many) { heap<<<1, 32>>>(out, too_many); }
}
