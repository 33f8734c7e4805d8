/*
 * tilelab's CPU emulator: the part of the CUDA runtime and of CUDA C that
 * the labs use, for machines without an NVIDIA GPU.
 *
 * A lab's .cu file is compiled by g++ with this header forced in first
 * (-include) and with its <<<grid, block>>> launches rewritten to
 * TL_LAUNCH(kernel, (grid, block), (args)) by harness/emu/rewrite.c. The
 * harness's own C files include it instead of the toolkit's header.
 *
 * Names, numbers and behaviour follow the CUDA runtime: error codes keep
 * their values, launch limits are the hardware's, errors are sticky where
 * the real ones are. Anything outside this subset fails to compile with a
 * message that says the emulator does not support it.
 */
#ifndef TILELAB_EMU_CUDA_RUNTIME_H
#define TILELAB_EMU_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

typedef struct uint3 {
    unsigned int x, y, z;
} uint3;

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
#else
typedef struct dim3 {
    unsigned int x, y, z;
} dim3;
#endif

typedef struct __attribute__((aligned(8))) float2 { float x, y; } float2;
typedef struct __attribute__((aligned(16))) float4 { float x, y, z, w; } float4;
typedef struct __attribute__((aligned(8))) int2 { int x, y; } int2;
typedef struct __attribute__((aligned(16))) int4 { int x, y, z, w; } int4;

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int major, minor;
    int multiProcessorCount;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    size_t reservedSharedMemPerBlock;
};

cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t err);
const char *cudaGetErrorName(cudaError_t err);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *kernel,
                                                          int block_size, size_t dynamic_shared);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);

/* ---- what device code sees */

/* threadIdx and friends, in one place the emulator lets every thread read. */
struct tl_emu_builtins {
    uint3 threadIdx, blockIdx, blockDim, gridDim;
};
extern struct tl_emu_builtins tl_emu_builtin;
/* __syncthreads() at file:line; the emulator checks that a block's threads all wait at one. */
void tl_emu_syncthreads_at(const char *file, int line);

/*
 * What the emulator's device headers call; a lab file may call these
 * (harness/lab/isolate-symbols.sh lets it: tl_emu_cuda_*), the rest of the
 * kit's code it may not.
 */
/* __syncthreads() and the ones that also count, AND or OR a predicate over the block. */
enum { TL_SYNC_PLAIN, TL_SYNC_COUNT, TL_SYNC_AND, TL_SYNC_OR };
int tl_emu_cuda_syncthreads(int op, int predicate, const char *file, int line);
/* The warp collectives (sm_30_intrinsics.h). */
enum {
    TL_WARP_SHFL_IDX, TL_WARP_SHFL_UP, TL_WARP_SHFL_DOWN, TL_WARP_SHFL_XOR,
    TL_WARP_BALLOT, TL_WARP_ANY, TL_WARP_ALL, TL_WARP_SYNC, TL_WARP_ACTIVEMASK,
    TL_WARP_MATCH_ANY, TL_WARP_MATCH_ALL,
    TL_WARP_REDUCE_ADD, TL_WARP_REDUCE_MIN, TL_WARP_REDUCE_MAX, TL_WARP_REDUCE_UMIN,
    TL_WARP_REDUCE_UMAX, TL_WARP_REDUCE_AND, TL_WARP_REDUCE_OR, TL_WARP_REDUCE_XOR,
    TL_WARP_OPS
};
/* The running thread's part in warp collective op: it waits until every lane of its warp
 * that mask names (and that has not exited) has come to one with the same op, mask and size
 * of value, and returns what it gets (size bytes of value: a shuffle's; b and c: the
 * shuffle's lane and packed width; *pred: __match_all_sync's). */
unsigned long long tl_emu_cuda_warp(int op, unsigned mask, unsigned long long value, unsigned size,
                                    int b, int c, int *pred, const char *file, int line);
/* The atomic functions (device_atomic_functions.h): op on the type at p, with v (and, for
 * atomicCAS, compare) as bits; returns the old value's bits. */
enum {
    TL_ATOMIC_ADD, TL_ATOMIC_SUB, TL_ATOMIC_EXCH, TL_ATOMIC_MIN, TL_ATOMIC_MAX, TL_ATOMIC_INC,
    TL_ATOMIC_DEC, TL_ATOMIC_CAS, TL_ATOMIC_AND, TL_ATOMIC_OR, TL_ATOMIC_XOR
};
enum { TL_ATOMIC_I32, TL_ATOMIC_U32, TL_ATOMIC_I64, TL_ATOMIC_U64, TL_ATOMIC_U16, TL_ATOMIC_F32,
       TL_ATOMIC_F64 };
unsigned long long tl_emu_cuda_atomic(int op, int type, void *p, unsigned long long v,
                                      unsigned long long compare);

typedef void (*tl_emu_body)(void *args);
/* Runs body once per thread of the grid, on the launch's arguments (args_bytes of them at args). */
void tl_emu_launch(dim3 grid, dim3 block, size_t dynamic_shared, cudaStream_t stream,
                   const char *kernel, const char *file, int line, tl_emu_body body, void *args,
                   size_t args_bytes);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus

/* ---- CUDA C as the lab files write it (they are compiled as C++) */

/*
 * What nvcc's cuda_runtime.h brings in for host code, so a lab file needs
 * the same includes here as there: math functions without <math.h>, but
 * printf and assert only with <stdio.h> and <assert.h>.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmath>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

#define threadIdx (tl_emu_builtin.threadIdx)
#define blockIdx (tl_emu_builtin.blockIdx)
#define blockDim (static_cast<const dim3>(tl_emu_builtin.blockDim))
#define gridDim (static_cast<const dim3>(tl_emu_builtin.gridDim))
/* Where each thread waits tells a barrier from another: see tl_emu_syncthreads_at. */
#define __syncthreads() tl_emu_syncthreads_at(__FILE__, __LINE__)
static const int warpSize = 32;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
/* One copy per kernel, shared by the threads of the block that is running:
 * the emulator runs one block at a time and poisons these before each. The
 * section tells them from other statics (emu-compile.sh has the
 * instrumentation guard it with -fsanitize-sections). */
#define __shared__ static __attribute__((section("tl_shared")))
#define __constant__ tilelab_emulator_does_not_support___constant__memory

/* The stream argument CUDA gives a default. */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream = 0);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);

struct tl_emu_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
};
static inline tl_emu_config tl_emu_configure(dim3 grid, dim3 block, size_t shared = 0,
                                             cudaStream_t stream = 0)
{
    tl_emu_config c = {grid, block, shared, stream};
    return c;
}

/*
 * A launch's arguments, evaluated once on the host as CUDA does, and
 * copied into each thread's parameters: the threads read them from this
 * pack, the one piece of host memory a kernel may touch.
 */
template <class... T> struct tl_emu_pack;
template <> struct tl_emu_pack<> {
    template <class F, class... D> void call(F f, D &...d) { f(d...); }
};
template <class H, class... T> struct tl_emu_pack<H, T...> {
    H head;
    tl_emu_pack<T...> tail;
    template <class F, class... D> void call(F f, D &...d) { tail.call(f, d..., head); }
};
static inline tl_emu_pack<> tl_emu_pack_args() { return {}; }
template <class H, class... T>
static inline tl_emu_pack<typename std::decay<H>::type, typename std::decay<T>::type...>
tl_emu_pack_args(H &&h, T &&...t)
{
    return {static_cast<H &&>(h), tl_emu_pack_args(static_cast<T &&>(t)...)};
}

/* name<<<config>>>(args) is rewritten to TL_LAUNCH("name", (name), (config), (args)). */
#define TL_LAUNCH(name, kernel, config, args)                                              \
    do {                                                                                   \
        tl_emu_config tl_cfg_ = tl_emu_configure config;                                   \
        auto tl_args_ = tl_emu_pack_args args;                                             \
        tl_emu_launch(tl_cfg_.grid, tl_cfg_.block, tl_cfg_.shared, tl_cfg_.stream, name,    \
                      __FILE__, __LINE__,                                                  \
                      [](void *p) {                                                        \
                          (*(decltype(tl_args_) *)p).call([](auto &...a) { kernel(a...); }); \
                      },                                                                   \
                      &tl_args_, sizeof tl_args_);                                         \
    } while (0)

/* CUDA's C++ form takes the kernel itself; the emulator's answer does not depend on it. */
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F *kernel,
                                                                        int block_size,
                                                                        size_t dynamic_shared = 0)
{
    (void)kernel;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)0, block_size,
                                                         dynamic_shared);
}

template <class T> static inline cudaError_t cudaMalloc(T **ptr, size_t bytes)
{
    return cudaMalloc((void **)ptr, bytes);
}

/* min and max with CUDA's overloads (crt/math_functions.hpp): mixed signedness gives unsigned. */
#define TL_EMU_MINMAX(R, A, B)                                                \
    static inline R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; } \
    static inline R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }
TL_EMU_MINMAX(int, int, int)
TL_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
TL_EMU_MINMAX(unsigned int, int, unsigned int)
TL_EMU_MINMAX(unsigned int, unsigned int, int)
TL_EMU_MINMAX(long int, long int, long int)
TL_EMU_MINMAX(unsigned long int, unsigned long int, unsigned long int)
TL_EMU_MINMAX(unsigned long int, long int, unsigned long int)
TL_EMU_MINMAX(unsigned long int, unsigned long int, long int)
TL_EMU_MINMAX(long long int, long long int, long long int)
TL_EMU_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
TL_EMU_MINMAX(unsigned long long int, long long int, unsigned long long int)
TL_EMU_MINMAX(unsigned long long int, unsigned long long int, long long int)
#undef TL_EMU_MINMAX
/* The floating-point ones are fmin and fmax: a NaN loses to a number. */
static inline float min(const float a, const float b) { return fminf(a, b); }
static inline float max(const float a, const float b) { return fmaxf(a, b); }
static inline double min(const double a, const double b) { return fmin(a, b); }
static inline double max(const double a, const double b) { return fmax(a, b); }
static inline double min(const float a, const double b) { return fmin(a, b); }
static inline double max(const float a, const double b) { return fmax(a, b); }
static inline double min(const double a, const float b) { return fmin(a, b); }
static inline double max(const double a, const float b) { return fmax(a, b); }

template <class T> static inline T __ldg(const T *p) { return *p; }

/* The single-precision intrinsics a kernel may use (glibc has __expf, __logf, __sinf, __cosf,
 * __powf); exact here, where a GPU may round them. */
static inline float __fdividef(float a, float b) { return a / b; }
static inline float fdividef(float a, float b) { return a / b; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float rsqrtf(float a) { return 1.0f / sqrtf(a); }
static inline float __saturatef(float a) { return a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a != a ? 0.0f : a; }
static inline int __float_as_int(float a) { int i; memcpy(&i, &a, sizeof i); return i; }
static inline float __int_as_float(int i) { float a; memcpy(&a, &i, sizeof a); return a; }
static inline float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
static inline float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }

/* What the emulator cannot run fails to build, saying so (its call, where g++ keeps one). */
#define TL_EMU_UNSUPPORTED(what) \
    __attribute__((error(what " is not supported by the tilelab CPU emulator: run this lab on a GPU")))

#include "sm_30_intrinsics.h"
#include "device_atomic_functions.h"

#endif /* __cplusplus */

#endif
