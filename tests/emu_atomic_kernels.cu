/*
 * Kernels of atomic functions and __device__ variables for the emulator's
 * tests (tests/emu_atomic_test.c). Launchers have C linkage.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "lab.h"

/* 4 blocks of 256 threads: bins of a histogram, and sums of every type atomicAdd takes. */
__global__ void histogram(int *bins, float *f, double *d, unsigned long long *u, unsigned *w)
{
    atomicAdd(&bins[threadIdx.x % 8], 1);
    atomicAdd(f, 0.5f);
    atomicAdd(d, 0.25);
    atomicAdd(u, 1ull << 33);
    atomicAdd(w, 3u);
}

/* One thread runs each operation in turn and keeps what each returned: old[i]. */
__global__ void one_of_each(long long *old, int *i32, unsigned *u32, unsigned long long *u64,
                            long long *i64, float *f32, unsigned short *u16)
{
    int k = 0;
    i32[0] = 10;
    old[k++] = atomicSub(i32, 3);          /* 10 -> 7 */
    old[k++] = atomicExch(i32, -4);        /* 7 -> -4 */
    old[k++] = atomicMin(i32, -9);         /* -4 -> -9 */
    old[k++] = atomicMax(i32, 2);          /* -9 -> 2 */
    old[k++] = atomicCAS(i32, 2, 40);      /* 2 -> 40 */
    old[k++] = atomicCAS(i32, 2, 50);      /* stays 40 */
    old[k++] = atomicAnd(i32, 0x38);       /* 40 & 56 = 40 */
    old[k++] = atomicOr(i32, 3);           /* 43 */
    old[k++] = atomicXor(i32, 1);          /* 42 */
    old[k++] = i32[0];
    u32[0] = 2;
    old[k++] = atomicInc(u32, 3);          /* 2 -> 3 */
    old[k++] = atomicInc(u32, 3);          /* 3 >= 3 -> 0 */
    old[k++] = atomicDec(u32, 5);          /* 0 -> 5 */
    old[k++] = atomicDec(u32, 2);          /* 5 > 2 -> 2 */
    old[k++] = atomicDec(u32, 2);          /* 2 -> 1 */
    old[k++] = u32[0];
    u64[0] = 1ull << 40;
    old[k++] = (long long)atomicMax(u64, 1ull << 41);
    old[k++] = (long long)atomicCAS(u64, 1ull << 41, 7ull);
    old[k++] = (long long)u64[0];
    i64[0] = -(1ll << 35);
    old[k++] = atomicMin(i64, -(1ll << 36));
    old[k++] = i64[0];
    f32[0] = 1.5f;
    old[k++] = (long long)atomicExch(f32, 2.5f);
    old[k++] = (long long)(f32[0] * 2);
    u16[0] = 9;
    old[k++] = atomicCAS(u16, (unsigned short)9, (unsigned short)65535);
    old[k++] = u16[1] * 100000 + u16[0];  /* u16[1] untouched: 0 */
}

/* CUDA 12.8's built-in atomics, as one_of_each: one thread, each in turn, old[i]. */
__global__ void builtin_atomics(long long *old, int *i32, unsigned *u32, unsigned long long *u64,
                                long long *i64, float *f32, double *f64, unsigned short *u16)
{
    int k = 0;
    __nv_atomic_store_n(i32, 10, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = __nv_atomic_fetch_sub(i32, 3, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE); /* 10 -> 7 */
    old[k++] = __nv_atomic_exchange_n(i32, -4, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_BLOCK); /* -4 */
    old[k++] = __nv_atomic_fetch_min(i32, -9, __NV_ATOMIC_RELAXED);                            /* -9 */
    old[k++] = __nv_atomic_fetch_max(i32, 2, __NV_ATOMIC_RELAXED);                             /* 2 */
    int want = 2;
    old[k++] = __nv_atomic_compare_exchange_n(i32, &want, 40, false, __NV_ATOMIC_SEQ_CST,
                                              __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);  /* 40 */
    old[k++] = __nv_atomic_compare_exchange_n(i32, &want, 50, true, __NV_ATOMIC_SEQ_CST,
                                              __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);  /* fails */
    old[k++] = want;                                                                          /* 40 */
    __nv_atomic_and(i32, 0x38, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);                 /* 40 */
    __nv_atomic_or(i32, 3, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);                     /* 43 */
    old[k++] = __nv_atomic_fetch_xor(i32, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);   /* 42 */
    old[k++] = __nv_atomic_load_n(i32, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_store_n(u32, 5u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = __nv_atomic_fetch_add(u32, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);   /* 5 -> 6 */
    old[k++] = __nv_atomic_fetch_sub(u32, 7, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);   /* 6 -> 2^32 - 1 */
    old[k++] = __nv_atomic_load_n(u32, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_store_n(u64, 1ull << 40, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_max(u64, 1ull << 41, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = (long long)__nv_atomic_fetch_add(u64, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    unsigned long long u;
    __nv_atomic_load(u64, &u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = (long long)u;                                                                  /* 2^41 + 1 */
    __nv_atomic_store_n(i64, -(1ll << 35), __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = __nv_atomic_fetch_min(i64, -(1ll << 36), __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = __nv_atomic_load_n(i64, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    float f = 1.5f, g;
    __nv_atomic_store(f32, &f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_add(f32, 2.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);                 /* 3.5 */
    old[k++] = (long long)(__nv_atomic_fetch_sub(f32, 0.25f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) * 4);
    f = 8.0f;
    __nv_atomic_exchange(f32, &f, &g, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = (long long)(g * 4);                                                            /* 3.25 * 4 */
    __nv_atomic_load(f32, &g, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = (long long)g;
    f64[0] = 0.5;
    old[k++] = (long long)(__nv_atomic_fetch_add(f64, 0.25, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) * 4);
    old[k++] = (long long)(f64[0] * 4);
    u16[0] = 9;
    unsigned short w16 = 9;
    old[k++] = __nv_atomic_compare_exchange_n(u16, &w16, (unsigned short)65535, false, __NV_ATOMIC_RELAXED,
                                              __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    old[k++] = u16[1] * 100000 + u16[0]; /* u16[1] untouched: 0 */
    __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
}

/* Every thread of a block adds 1 to a shared counter with a built-in atomic and reads it with
 * one, after its add and before the barrier: atomics, no race. */
__global__ void builtin_shared_counter(int *out)
{
    __shared__ int n;
    if (threadIdx.x == 0)
        __nv_atomic_store_n(&n, 0, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    __syncthreads();
    __nv_atomic_fetch_add(&n, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    int seen = __nv_atomic_load_n(&n, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = seen > 0 ? n : -1;
}

/* A counter in shared memory per block; thread 0 writes it out. */
__global__ void shared_counter(int *out)
{
    __shared__ int n;
    if (threadIdx.x == 0)
        n = 0;
    __syncthreads();
    atomicAdd(&n, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = n;
}

/* 32 lanes, each its own counter in a row: one request of 4 sectors. */
__global__ void lanes_add(int *counters)
{
    atomicAdd(&counters[threadIdx.x], 1);
}

__global__ void atomic_past_the_end(int *counters)
{
    atomicAdd(&counters[threadIdx.x + 1], 1);
}

__global__ void atomic_misaligned(int *counters)
{
    atomicAdd((int *)((char *)counters + 2), 1);
}

/* A table in a __device__ variable: its reads are global loads like any. */
__device__ float table[64];
__global__ void device_variable(float *out)
{
    table[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = table[63 - threadIdx.x];
}

__global__ void device_variable_past_end(float *out)
{
    out[threadIdx.x] = table[threadIdx.x + 64];
}

/* Lane i adds v[i] onto out[i] (zeroed), by a float atomicAdd in global memory, in shared memory
 * (copied out after), and a double's in global memory: of each, the sums in out[32 * kind + i]. */
__global__ void subnormal_adds(float *out, const float *v, double *d)
{
    __shared__ float s[32];
    s[threadIdx.x] = 0.0f;
    __syncthreads();
    atomicAdd(&out[threadIdx.x], v[threadIdx.x]);
    atomicAdd(&s[threadIdx.x], v[threadIdx.x]);
    atomicAdd(&d[threadIdx.x], (double)v[threadIdx.x] * 0x1p-1000);
    __syncthreads();
    out[32 + threadIdx.x] = s[threadIdx.x];
}

extern "C" {
/* 64 threads: atomicAdd on a float4, a float2, a __half2 and a __nv_bfloat162 in global
 * memory; the first thread keeps what its adds returned (the values before: 0), the others
 * add 1 to each of the vector's values (a half's 1 + 63 adds are exact). */
__global__ void vector_adds(float4 *f4, float2 *f2, __half2 *h2, __nv_bfloat162 *b2, float *old)
{
    float4 a = atomicAdd_block(f4, make_float4(1.0f, 2.0f, 3.0f, 4.0f));
    float2 b = atomicAdd_system(f2, make_float2(0.5f, -0.5f));
    __half2 c = atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
    __nv_bfloat162 d = atomicAdd(b2, __floats2bfloat162_rn(1.0f, 0.25f));
    __half e = atomicAdd(&h2[1].x, __float2half(0.5f));
    if (threadIdx.x == 0) {
        old[0] = a.x + a.y + a.z + a.w + b.x + b.y;
        old[1] = __low2float(c) + __high2float(c) + __low2float(d) + __high2float(d) + __half2float(e);
    }
}

/* A float4 atomicAdd in shared memory, which a GPU has only for global memory: through a
 * pointer that may be either (out[4] is 0), since ptxas refuses one it knows is shared
 * ("Cannot do vector atomic on shared memory"). */
__global__ void vector_add_in_shared(float *out)
{
    __shared__ float4 sum;
    if (threadIdx.x == 0)
        sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    float4 *to = out[4] == 0.0f ? &sum : (float4 *)out;
    atomicAdd(to, make_float4(1.0f, 1.0f, 1.0f, 1.0f));
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = sum.x;
}

/* A float2 atomicAdd at an address that is not a multiple of 8. */
__global__ void vector_add_misaligned(float *out) { atomicAdd((float2 *)(out + 1), make_float2(1.0f, 1.0f)); }

__device__ float space_device[4];
__constant__ float space_constant[4];

/* One thread: what __isGlobal, __isShared, __isConstant and __isLocal say of each space's
 * memory, a digit a predicate (global, shared, constant, local) a pointer. */
__global__ void address_spaces(int *out, const float *in)
{
    __shared__ float tile[4];
    extern __shared__ float dynamic[];
    float mine[2] = {in[0], in[1]};
    const void *p[] = {in, tile, dynamic, space_device, space_constant, mine};
    for (int i = 0; i < 6; i++)
        out[i] = (int)(__isGlobal(p[i]) * 1000 + __isShared(p[i]) * 100 + __isConstant(p[i]) * 10 +
                       __isLocal(p[i]));
    tile[0] = mine[0];
    dynamic[0] = mine[1];
}

void launch_histogram(int *bins, float *f, double *d, unsigned long long *u, unsigned *w)
{
    histogram<<<4, 256>>>(bins, f, d, u, w);
}
void launch_one_of_each(long long *old, int *i32, unsigned *u32, unsigned long long *u64,
                        long long *i64, float *f32, unsigned short *u16)
{
    one_of_each<<<1, 1>>>(old, i32, u32, u64, i64, f32, u16);
}
void launch_builtin_atomics(long long *old, int *i32, unsigned *u32, unsigned long long *u64,
                            long long *i64, float *f32, double *f64, unsigned short *u16)
{
    builtin_atomics<<<1, 1>>>(old, i32, u32, u64, i64, f32, f64, u16);
}
void launch_builtin_shared_counter(int *out) { builtin_shared_counter<<<3, 96>>>(out); }
void launch_shared_counter(int *out) { shared_counter<<<3, 96>>>(out); }
void launch_lanes_add(int *counters) { lanes_add<<<1, 32>>>(counters); }
void launch_subnormal_adds(float *out, const float *v, double *d) { subnormal_adds<<<1, 32>>>(out, v, d); }
void launch_atomic_past_the_end(int *counters) { atomic_past_the_end<<<1, 32>>>(counters); }
void launch_atomic_misaligned(int *counters) { atomic_misaligned<<<1, 1>>>(counters); }
void launch_device_variable(float *out) { device_variable<<<1, 64>>>(out); }
void launch_device_variable_past_end(float *out) { device_variable_past_end<<<1, 64>>>(out); }
void launch_vector_adds(float *f4, float *f2, void *h2, void *b2, float *old)
{
    vector_adds<<<1, 64>>>((float4 *)f4, (float2 *)f2, (__half2 *)h2, (__nv_bfloat162 *)b2, old);
}
void launch_vector_add_in_shared(float *out) { vector_add_in_shared<<<1, 32>>>(out); }
void launch_vector_add_misaligned(float *out) { vector_add_misaligned<<<1, 1>>>(out); }
void launch_address_spaces(int *out, const float *in) { address_spaces<<<1, 1, 16>>>(out, in); }
}
