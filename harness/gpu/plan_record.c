/*
 * The recording side of a launch plan (plan.h), linked into the lab
 * process of a GPU lab. It stands in front of the CUDA runtime: between
 * tl_plan_record_begin() and tl_plan_record_end(), each launch, memset,
 * device-to-device copy and copy into or out of a __constant__ or
 * __device__ variable (cudaMemcpyToSymbol: by its name, which the kit's
 * process finds in the device code it loaded) the lab's code asks for
 * becomes a step of the plan and nothing reaches the GPU; a call a lab's function has no business
 * making (an allocation, a copy from or to the host) is refused, with why.
 * Outside a recording every call goes on to the runtime unchanged.
 *
 * A launch CUDA would refuse is refused here as CUDA refuses it, by the
 * limits the table brings from the loaded code (its block, registers and
 * shared memory against the kernel's and the GPU's), with CUDA's error:
 * the launch returns it, and cudaGetLastError() and cudaPeekAtLastError()
 * see it, so code that checks and falls back (a block of 32 x 64 threads,
 * then of 32 x 8) does on a GPU what it does here. What the call left of
 * the last error goes to the kit with the plan (plan->error).
 *
 * nvcc turns kernel<<<grid, block, shared, stream>>>(args) into a call of
 * __cudaLaunchKernel (CUDA 13; cudaLaunchKernel before) with the kernel's
 * handle and an array of pointers to its arguments; the kernel's name comes
 * from __cudaRegisterFunction, which the lab's code calls when it loads, and
 * the size of each argument from the table the request brought.
 */
#define _GNU_SOURCE
#include "plan_record.h"

#include "gpu.h"
#include "lab_refusals.h"
#include "launch_attributes.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const tl_plan_table *table;
static tl_plan *plan;
/* CUDA's last error, as the lab's code sees it while it is recorded. */
static cudaError_t last_error;
/* Each kernel's most dynamic shared memory, as the lab's cudaFuncSetAttribute calls set it. */
static unsigned max_dynamic[TL_PLAN_KERNELS];

/* Each kernel the lab's code registered: its host-side handle, its name. */
#define MAX_REGISTERED 256
typedef struct {
    const void *host;
    cudaKernel_t handle;
    const char *name;
} kernel_name;
static kernel_name registered[MAX_REGISTERED];
static int n_registered;

static void announce_addresses(void);

/* real_NAME: the runtime's own NAME, behind this one. */
#define REAL(name, ret, params)                                                                   \
    typedef ret(*name##_fn) params;                                                               \
    static name##_fn real_##name;                                                                 \
    if (!real_##name)                                                                             \
        real_##name = (name##_fn)dlsym(RTLD_NEXT, #name);

void tl_plan_record_begin(const tl_plan_table *t, tl_plan *p)
{
    memset(p, 0, sizeof *p);
    table = t;
    plan = p;
    last_error = cudaSuccess;
    for (int i = 0; i < t->kernels && i < TL_PLAN_KERNELS; i++)
        max_dynamic[i] = t->kernel[i].max_dynamic_shared;
    announce_addresses();
}

void tl_plan_record_end(void)
{
    plan->error = last_error;
    table = NULL;
    plan = NULL;
}

/* An error of the kind CUDA keeps for cudaGetLastError(), returned by the call that made it. */
static cudaError_t failed(cudaError_t err)
{
    last_error = err;
    return err;
}

/* Says once why the plan is refused; the first reason is the one kept. */
static cudaError_t refuse(const char *fmt, ...)
{
    if (!plan->refused[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(plan->refused, sizeof plan->refused, fmt, ap);
        va_end(ap);
    }
    return cudaErrorNotSupported;
}

/* Appends a step: cudaSuccess, or the refusal when the plan is full. */
static cudaError_t add(tl_plan_step step)
{
    if (plan->steps == TL_PLAN_STEPS)
        return refuse("your code asked for more than %d launches, memsets and copies in one call: a lab's "
                      "function launches a few kernels, each over the whole matrix, not one per row",
                      TL_PLAN_STEPS);
    plan->step[plan->steps++] = step;
    return cudaSuccess;
}

/* ---------------------------------------------------------------- kernels */

void __cudaRegisterFunction(void **module, const char *host, char *device, const char *name,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *block, dim3 *grid,
                            int *warp_size);
void __cudaRegisterFunction(void **module, const char *host, char *device, const char *name,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *block, dim3 *grid,
                            int *warp_size)
{
    REAL(__cudaRegisterFunction, void, (void **, const char *, char *, const char *, int,
                                          uint3 *, uint3 *, dim3 *, dim3 *, int *));
    if (n_registered < MAX_REGISTERED)
        registered[n_registered++] = (kernel_name){host, NULL, name};
    if (real___cudaRegisterFunction)
        real___cudaRegisterFunction(module, host, device, name, thread_limit, tid, bid, block, grid,
                                    warp_size);
}

/* The stub asks once for its kernel's handle. Without a GPU the runtime has
 * none to give: the host function's own address then stands for it. */
cudaError_t __cudaGetKernel(cudaKernel_t *handle, const void *host);
cudaError_t __cudaGetKernel(cudaKernel_t *handle, const void *host)
{
    REAL(__cudaGetKernel, cudaError_t, (cudaKernel_t *, const void *));
    if (!real___cudaGetKernel || real___cudaGetKernel(handle, host) != cudaSuccess)
        *handle = (cudaKernel_t)(uintptr_t)host;
    for (int i = 0; i < n_registered; i++)
        if (registered[i].host == host)
            registered[i].handle = *handle;
    return cudaSuccess;
}

static const char *name_of(const void *host, cudaKernel_t handle)
{
    for (int i = 0; i < n_registered; i++)
        if ((host && registered[i].host == host) || (handle && registered[i].handle == handle))
            return registered[i].name;
    return NULL;
}

/* The kernel's index in the request's table, or -1. */
static int kernel_index(const char *name)
{
    for (int i = 0; name && i < table->kernels; i++)
        if (!strcmp(table->kernel[i].name, name))
            return i;
    return -1;
}

/*
 * What CUDA 13 on an H100 says of launching kernel k so (probed there,
 * driver 580): a block or a grid out of range (a side of 0, a grid's y or
 * z past 65535), more threads than its __launch_bounds__ allow, or more
 * dynamic shared memory than it may have: invalid value; more registers
 * than a block has: out of resources. CUDA before 13 said invalid
 * configuration of a block or grid out of range. Limits of 0 are not
 * known and refuse nothing.
 */
static cudaError_t refusal(int k, dim3 grid, dim3 block, size_t shared)
{
    const tl_plan_kernel *kernel = &table->kernel[k];
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    cudaError_t refused = tl_launch_refusal(grid, block);
    if (refused)
        return refused;
    /* Registers go to a warp in steps of 8 a thread: 32 x 8 = 256 at a time. */
    unsigned long long per_warp = (kernel->registers + 7ull) / 8 * 8 * 32;
    unsigned long long warps = (threads + 31) / 32;
    if (kernel->registers && table->registers_per_block && warps * per_warp > table->registers_per_block)
        return cudaErrorLaunchOutOfResources;
    if (kernel->max_threads && threads > kernel->max_threads)
        return cudaErrorInvalidValue;
    if (kernel->max_threads && shared > max_dynamic[k])
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

static cudaError_t record_launch(const char *name, dim3 grid, dim3 block, void **args, size_t shared)
{
    int k = kernel_index(name);
    if (k < 0)
        return refuse("your code launched %s, which is not a kernel of your lab file's own device "
                      "code: launch your own __global__ functions with <<<grid, block>>>",
                      name ? name : "a function");
    const tl_plan_kernel *kernel = &table->kernel[k];
    cudaError_t refused = refusal(k, grid, block, shared);
    if (refused) { /* in the plan to be logged, its arguments left out: it never runs */
        cudaError_t full = add((tl_plan_step){.kind = TL_STEP_LAUNCH, .kernel = k, .refused = refused,
                                              .grid = {grid.x, grid.y, grid.z},
                                              .block = {block.x, block.y, block.z},
                                              .shared_bytes = (unsigned)shared});
        return full ? full : failed(refused);
    }
    size_t at = plan->arena_used;
    if (at + kernel->bytes > TL_PLAN_ARENA)
        return refuse("your kernels' arguments take more than %d bytes in one call", TL_PLAN_ARENA);
    cudaError_t err = add((tl_plan_step){.kind = TL_STEP_LAUNCH, .kernel = k,
                                         .grid = {grid.x, grid.y, grid.z},
                                         .block = {block.x, block.y, block.z},
                                         .shared_bytes = (unsigned)shared, .params = at});
    if (err)
        return err;
    for (int i = 0; i < kernel->params; i++)
        memcpy(plan->arena + at + kernel->offset[i], args[i], kernel->size[i]);
    plan->arena_used += (kernel->bytes + 15) & ~15u;
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t handle, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t stream);
cudaError_t __cudaLaunchKernel(cudaKernel_t handle, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t stream)
{
    if (plan)
        return record_launch(name_of(NULL, handle), grid, block, args, shared);
    REAL(__cudaLaunchKernel, cudaError_t, (cudaKernel_t, dim3, dim3, void **, size_t, cudaStream_t));
    return real___cudaLaunchKernel(handle, grid, block, args, shared, stream);
}

/* What nvcc before CUDA 13 calls, and what a lab may call itself. */
cudaError_t cudaLaunchKernel(const void *host, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream)
{
    if (plan)
        return record_launch(name_of(host, NULL), grid, block, args, shared);
    REAL(cudaLaunchKernel, cudaError_t, (const void *, dim3, dim3, void **, size_t, cudaStream_t));
    return real_cudaLaunchKernel(host, grid, block, args, shared, stream);
}

/*
 * What cudaLaunchKernelEx (cuda_runtime.h's template, and the C API) calls: a launch with a
 * configuration and attributes, which went on to the runtime unrecorded, so that nothing
 * of it ran (the corpus's lab10-launch-kernel-ex: a sum of 0 on the GPU). It is a step of the
 * plan as <<< >>> is, its attributes taken as launch_attributes.h takes them: one the kit
 * cannot run is cudaErrorNotSupported, as on the emulator, so that a file runs alike on both.
 */
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (plan) {
        if (!config)
            return failed(cudaErrorInvalidValue);
        for (unsigned i = 0; i < config->numAttrs; i++)
            if (tl_launch_attribute_refused(&config->attrs[i]))
                return failed(cudaErrorNotSupported);
        return record_launch(name_of(func, NULL), config->gridDim, config->blockDim, args,
                             config->dynamicSmemBytes);
    }
    REAL(cudaLaunchKernelExC, cudaError_t, (const cudaLaunchConfig_t *, const void *, void **));
    return real_cudaLaunchKernelExC(config, func, args);
}

cudaError_t cudaFuncSetAttribute(const void *host, enum cudaFuncAttribute attr, int value)
{
    if (plan) {
        int k = kernel_index(name_of(host, NULL));
        if (k < 0)
            return refuse("cudaFuncSetAttribute was given something that is not a kernel of your "
                          "lab file");
        /* More dynamic shared memory than the GPU lets a block opt in to, beside the static. */
        if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize && table->shared_optin) {
            if (value < 0 || (unsigned)value + table->kernel[k].static_shared > table->shared_optin)
                return failed(cudaErrorInvalidValue);
            max_dynamic[k] = (unsigned)value;
        }
        return add((tl_plan_step){.kind = TL_STEP_ATTRIBUTE, .kernel = k, .attribute = attr, .value = value});
    }
    REAL(cudaFuncSetAttribute, cudaError_t, (const void *, enum cudaFuncAttribute, int));
    return real_cudaFuncSetAttribute(host, attr, value);
}

/* ---------------------------------------------------------------- memory */

static cudaError_t record_memset(void *dst, int value, size_t bytes)
{
    return add((tl_plan_step){.kind = TL_STEP_MEMSET, .dst = (uintptr_t)dst, .bytes = bytes, .value = value & 0xff});
}

static cudaError_t record_copy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return refuse(TL_REFUSED_HOST_COPY("cudaMemcpy"));
    return add((tl_plan_step){.kind = TL_STEP_COPY, .dst = (uintptr_t)dst, .src = (uintptr_t)src, .bytes = bytes});
}

/* Rows of width bytes, pitch bytes apart (cudaMemset2D, cudaMemcpy2D): one step, as the emulator
 * takes them, with CUDA's errors for a row wider than its pitch; nothing where either side is 0. */
static cudaError_t record_memset_rows(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch)
        return failed(cudaErrorInvalidPitchValue);
    if (!width || !height)
        return cudaSuccess;
    return add((tl_plan_step){.kind = TL_STEP_MEMSET, .dst = (uintptr_t)dst, .bytes = width, .rows = height,
                              .dpitch = pitch, .value = value & 0xff});
}

static cudaError_t record_copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t height, enum cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch)
        return failed(cudaErrorInvalidPitchValue);
    if (!width || !height)
        return cudaSuccess;
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return refuse(TL_REFUSED_HOST_COPY("cudaMemcpy2D"));
    return add((tl_plan_step){.kind = TL_STEP_COPY, .dst = (uintptr_t)dst, .src = (uintptr_t)src, .bytes = width,
                              .rows = height, .dpitch = dpitch, .spitch = spitch});
}

cudaError_t cudaMemset(void *dst, int value, size_t bytes)
{
    if (plan)
        return record_memset(dst, value, bytes);
    REAL(cudaMemset, cudaError_t, (void *, int, size_t));
    return real_cudaMemset(dst, value, bytes);
}

cudaError_t cudaMemsetAsync(void *dst, int value, size_t bytes, cudaStream_t stream)
{
    if (plan)
        return record_memset(dst, value, bytes);
    REAL(cudaMemsetAsync, cudaError_t, (void *, int, size_t, cudaStream_t));
    return real_cudaMemsetAsync(dst, value, bytes, stream);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    if (plan)
        return record_copy(dst, src, bytes, kind);
    REAL(cudaMemcpy, cudaError_t, (void *, const void *, size_t, enum cudaMemcpyKind));
    return real_cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    if (plan)
        return record_copy(dst, src, bytes, kind);
    REAL(cudaMemcpyAsync, cudaError_t, (void *, const void *, size_t, enum cudaMemcpyKind, cudaStream_t));
    return real_cudaMemcpyAsync(dst, src, bytes, kind, stream);
}

cudaError_t cudaMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    if (plan)
        return record_memset_rows(dst, pitch, value, width, height);
    REAL(cudaMemset2D, cudaError_t, (void *, size_t, int, size_t, size_t));
    return real_cudaMemset2D(dst, pitch, value, width, height);
}

cudaError_t cudaMemset2DAsync(void *dst, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream)
{
    if (plan)
        return record_memset_rows(dst, pitch, value, width, height);
    REAL(cudaMemset2DAsync, cudaError_t, (void *, size_t, int, size_t, size_t, cudaStream_t));
    return real_cudaMemset2DAsync(dst, pitch, value, width, height, stream);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    if (plan)
        return record_copy_rows(dst, dpitch, src, spitch, width, height, kind);
    REAL(cudaMemcpy2D, cudaError_t, (void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind));
    return real_cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (plan)
        return record_copy_rows(dst, dpitch, src, spitch, width, height, kind);
    REAL(cudaMemcpy2DAsync, cudaError_t,
         (void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind, cudaStream_t));
    return real_cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}

/* ---------------------------------------------------------------- what a plan cannot carry */

/*
 * Whatever else a lab's function asks the runtime for while it is recorded would be done at
 * once, in the lab process, on its own: before the launches the plan runs later, and where the
 * kit's buffers are another process's memory. A call that would allocate or free device
 * memory, or make an object kernels read (a texture or surface object), or launch work the
 * plan cannot hold, is refused with why, as the emulator refuses it inside a lab's call or
 * cannot run it at all: a file then fails alike, saying so, on both. (What only asks, the
 * device's properties, an occupancy, a kernel's attributes, goes on to the runtime.)
 */
#define REFUSED_IN_PLAN(name, params, args, clear, ...)                                           \
    cudaError_t name params                                                                       \
    {                                                                                             \
        if (plan) {                                                                               \
            clear;                                                                                \
            return refuse(__VA_ARGS__);                                                           \
        }                                                                                         \
        REAL(name, cudaError_t, params);                                                          \
        return real_##name args;                                                                  \
    }

/* Memory of its own a lab's function may not take: the kit runs the plan where it was never allocated. */
REFUSED_IN_PLAN(cudaMalloc, (void **p, size_t bytes), (p, bytes), *p = NULL, TL_REFUSED_ALLOCATION("cudaMalloc"))
REFUSED_IN_PLAN(cudaMallocAsync, (void **p, size_t bytes, cudaStream_t s), (p, bytes, s), *p = NULL,
                TL_REFUSED_ALLOCATION("cudaMallocAsync"))
REFUSED_IN_PLAN(cudaMallocPitch, (void **p, size_t *pitch, size_t width, size_t height), (p, pitch, width, height),
                *p = NULL, TL_REFUSED_ALLOCATION("cudaMallocPitch"))
REFUSED_IN_PLAN(cudaMallocManaged, (void **p, size_t bytes, unsigned flags), (p, bytes, flags), *p = NULL,
                TL_REFUSED_ALLOCATION("cudaMallocManaged"))
/* Nor free what it was given (a NULL, what a refused cudaMalloc left, frees nothing, as CUDA's does). */
cudaError_t cudaFree(void *p)
{
    if (plan)
        return p ? refuse(TL_REFUSED_FREE("cudaFree")) : cudaSuccess;
    REAL(cudaFree, cudaError_t, (void *));
    return real_cudaFree(p);
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    if (plan)
        return p ? refuse(TL_REFUSED_FREE("cudaFreeAsync")) : cudaSuccess;
    REAL(cudaFreeAsync, cudaError_t, (void *, cudaStream_t));
    return real_cudaFreeAsync(p, s);
}

REFUSED_IN_PLAN(cudaCreateTextureObject,
                (cudaTextureObject_t *t, const struct cudaResourceDesc *r, const struct cudaTextureDesc *d,
                 const struct cudaResourceViewDesc *v),
                (t, r, d, v), *t = 0, TL_REFUSED_OBJECT("cudaCreateTextureObject"))
REFUSED_IN_PLAN(cudaCreateSurfaceObject, (cudaSurfaceObject_t *o, const struct cudaResourceDesc *r), (o, r),
                *o = 0, TL_REFUSED_OBJECT("cudaCreateSurfaceObject"))
REFUSED_IN_PLAN(cudaLaunchCooperativeKernel,
                (const void *f, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s),
                (f, grid, block, args, shared, s), (void)0, TL_REFUSED_LAUNCH("cudaLaunchCooperativeKernel"))
REFUSED_IN_PLAN(cudaLaunchHostFunc, (cudaStream_t s, cudaHostFn_t fn, void *data), (s, fn, data), (void)0,
                TL_REFUSED_LAUNCH("cudaLaunchHostFunc"))
REFUSED_IN_PLAN(cudaStreamBeginCapture, (cudaStream_t s, enum cudaStreamCaptureMode mode), (s, mode), (void)0,
                TL_REFUSED_LAUNCH("cudaStreamBeginCapture"))
REFUSED_IN_PLAN(cudaGraphLaunch, (cudaGraphExec_t g, cudaStream_t s), (g, s), (void)0,
                TL_REFUSED_LAUNCH("cudaGraphLaunch"))

/* ---------------------------------------------------------------- variables */

/* Each __device__ or __constant__ variable the lab's code registered: its host-side
 * address (what cudaMemcpyToSymbol is given), its name in the device code, its size. */
#define MAX_VARIABLES 256
typedef struct {
    const void *host;
    const char *name;
    size_t size;
} variable;
static variable variables[MAX_VARIABLES];
static int n_variables;

void __cudaRegisterVar(void **module, char *host, char *device, const char *name, int ext, size_t size,
                       int constant, int global);
void __cudaRegisterVar(void **module, char *host, char *device, const char *name, int ext, size_t size,
                       int constant, int global)
{
    REAL(__cudaRegisterVar, void, (void **, char *, char *, const char *, int, size_t, int, int));
    if (n_variables < MAX_VARIABLES)
        variables[n_variables++] = (variable){host, name, size};
    if (real___cudaRegisterVar)
        real___cudaRegisterVar(module, host, device, name, ext, size, constant, global);
}

size_t tl_plan_variable_bytes(void)
{
    size_t bytes = 0;
    for (int i = 0; i < n_variables; i++)
        bytes += variables[i].size;
    return bytes;
}

/* The variable whose host-side address is symbol, or NULL. */
static const variable *variable_at(const void *symbol)
{
    for (int i = 0; i < n_variables; i++)
        if (variables[i].host == symbol)
            return &variables[i];
    return NULL;
}

/* A name into the arena, 16-byte aligned: where it starts, or (size_t)-1 when the arena is full. */
static size_t arena_name(const char *name)
{
    size_t at = plan->arena_used, need = (strlen(name) + 16) & ~(size_t)15;
    if (at + need > TL_PLAN_ARENA)
        return (size_t)-1;
    memcpy(plan->arena + at, name, strlen(name) + 1);
    plan->arena_used += need;
    return at;
}

/* The variables whose stand-in addresses the lab's code was given (plan.h), in this process's
 * life: a pointer kept from one call (a static) is used in the next. */
static unsigned char handed_out[MAX_VARIABLES];

static void announce(int i)
{
    size_t name = arena_name(variables[i].name);
    if (name == (size_t)-1) {
        refuse("your kernels' arguments and your variables' names take more than %d bytes in one "
               "call", TL_PLAN_ARENA);
        return;
    }
    add((tl_plan_step){.kind = TL_STEP_ADDRESS, .symbol = name,
                       .src = TL_PLAN_SYMBOL_BASE + (unsigned long long)i * TL_PLAN_SYMBOL_SPAN,
                       .bytes = variables[i].size});
}

static void announce_addresses(void)
{
    for (int i = 0; i < n_variables; i++)
        if (handed_out[i])
            announce(i);
}

/*
 * The address of a __device__ variable, for a kernel's argument: its stand-in
 * (plan.h), in a recording or not: this process's own address would be
 * nothing where the plan runs. A variable too large for its span is refused.
 */
cudaError_t cudaGetSymbolAddress(void **address, const void *symbol)
{
    const variable *v = variable_at(symbol);
    if (!v || !address)
        return v ? cudaErrorInvalidValue : (plan ? failed(cudaErrorInvalidSymbol) : cudaErrorInvalidSymbol);
    int i = (int)(v - variables);
    if (v->size >= TL_PLAN_SYMBOL_SPAN)
        return plan ? failed(cudaErrorInvalidValue) : cudaErrorInvalidValue;
    *address = (void *)(uintptr_t)(TL_PLAN_SYMBOL_BASE + (unsigned long long)i * TL_PLAN_SYMBOL_SPAN);
    if (!handed_out[i]) {
        handed_out[i] = 1;
        if (plan)
            announce(i);
    }
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    const variable *v = variable_at(symbol);
    if (!v || !size)
        return v ? cudaErrorInvalidValue : (plan ? failed(cudaErrorInvalidSymbol) : cudaErrorInvalidSymbol);
    *size = v->size;
    return cudaSuccess;
}

/*
 * A copy into (to_symbol) or out of the variable at symbol: into it from the host
 * (the bytes go into the plan) or from device memory, out of it to device memory.
 * Out of it to the host is refused: nothing has run while a lab's function is recorded.
 */
static cudaError_t record_symbol(const void *symbol, void *buf, size_t bytes, size_t offset,
                                 enum cudaMemcpyKind kind, int to_symbol)
{
    const variable *v = variable_at(symbol);
    if (!to_symbol && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return refuse("your code called cudaMemcpyFromSymbol to the host: a lab's function "
                      "launches its work and returns, and the kit copies the results (lab.h)");
    if (!v)
        return failed(cudaErrorInvalidSymbol);
    if (offset > v->size || bytes > v->size - offset)
        return failed(cudaErrorInvalidValue);
    int from_host = to_symbol && kind != cudaMemcpyDeviceToDevice;
    size_t at = plan->arena_used, name = (strlen(v->name) + 16) & ~(size_t)15;
    size_t need = name + (from_host ? (bytes + 15) & ~(size_t)15 : 0);
    if (at + need > TL_PLAN_ARENA)
        return refuse("your kernels' arguments and the bytes your code copied into variables take "
                      "more than %d bytes in one call", TL_PLAN_ARENA);
    tl_plan_step step = {.kind = TL_STEP_SYMBOL, .symbol = at, .params = at + name, .bytes = bytes,
                         .offset = offset,
                         .value = from_host ? TL_SYMBOL_FROM_HOST : to_symbol ? TL_SYMBOL_FROM_DEVICE
                                                                              : TL_SYMBOL_TO_DEVICE};
    if (to_symbol)
        step.src = from_host ? 0 : (uintptr_t)buf;
    else
        step.dst = (uintptr_t)buf;
    cudaError_t err = add(step);
    if (err)
        return err;
    memcpy(plan->arena + at, v->name, strlen(v->name) + 1);
    if (from_host)
        memcpy(plan->arena + at + name, buf, bytes);
    plan->arena_used += need;
    return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t bytes, size_t offset,
                               enum cudaMemcpyKind kind)
{
    if (plan)
        return record_symbol(symbol, (void *)src, bytes, offset, kind, 1);
    REAL(cudaMemcpyToSymbol, cudaError_t, (const void *, const void *, size_t, size_t, enum cudaMemcpyKind));
    return real_cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t bytes, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (plan)
        return record_symbol(symbol, (void *)src, bytes, offset, kind, 1);
    REAL(cudaMemcpyToSymbolAsync, cudaError_t,
         (const void *, const void *, size_t, size_t, enum cudaMemcpyKind, cudaStream_t));
    return real_cudaMemcpyToSymbolAsync(symbol, src, bytes, offset, kind, stream);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t bytes, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    if (plan)
        return record_symbol(symbol, dst, bytes, offset, kind, 0);
    REAL(cudaMemcpyFromSymbol, cudaError_t, (void *, const void *, size_t, size_t, enum cudaMemcpyKind));
    return real_cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t bytes, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (plan)
        return record_symbol(symbol, dst, bytes, offset, kind, 0);
    REAL(cudaMemcpyFromSymbolAsync, cudaError_t,
         (void *, const void *, size_t, size_t, enum cudaMemcpyKind, cudaStream_t));
    return real_cudaMemcpyFromSymbolAsync(dst, symbol, bytes, offset, kind, stream);
}

/* ---------------------------------------------------------------- what a plan makes moot */

/*
 * Streams, events and waits: the plan's steps run one after another on the
 * default stream, which is what a lab's function must allow anyway (lab.h:
 * the harness waits for the work). A stream or an event is a token here.
 */
static char token;

#define PASS_OR(name, params, args, recorded)                                                     \
    cudaError_t name params                                                                       \
    {                                                                                             \
        if (plan) {                                                                               \
            recorded;                                                                             \
            return cudaSuccess;                                                                   \
        }                                                                                         \
        REAL(name, cudaError_t, params);                                                           \
        return real_##name args;                                                                  \
    }

PASS_OR(cudaStreamCreate, (cudaStream_t *s), (s), *s = (cudaStream_t)&token)
PASS_OR(cudaStreamCreateWithFlags, (cudaStream_t *s, unsigned flags), (s, flags), *s = (cudaStream_t)&token)
PASS_OR(cudaStreamDestroy, (cudaStream_t s), (s), (void)s)
PASS_OR(cudaStreamSynchronize, (cudaStream_t s), (s), (void)s)
PASS_OR(cudaEventCreate, (cudaEvent_t *e), (e), *e = (cudaEvent_t)&token)
PASS_OR(cudaEventCreateWithFlags, (cudaEvent_t *e, unsigned flags), (e, flags), *e = (cudaEvent_t)&token)
PASS_OR(cudaEventRecord, (cudaEvent_t e, cudaStream_t s), (e, s), (void)e)
PASS_OR(cudaEventSynchronize, (cudaEvent_t e), (e), (void)e)
PASS_OR(cudaEventDestroy, (cudaEvent_t e), (e), (void)e)
PASS_OR(cudaEventElapsedTime, (float *ms, cudaEvent_t a, cudaEvent_t b), (ms, a, b), *ms = 0)
/* What orders one stream after another, or asks whether work is done: in a plan, all of it is. */
PASS_OR(cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned flags), (s, e, flags), (void)s)
PASS_OR(cudaStreamCreateWithPriority, (cudaStream_t *s, unsigned flags, int priority), (s, flags, priority),
        *s = (cudaStream_t)&token)
PASS_OR(cudaEventRecordWithFlags, (cudaEvent_t e, cudaStream_t s, unsigned flags), (e, s, flags), (void)e)
PASS_OR(cudaEventQuery, (cudaEvent_t e), (e), (void)e)
PASS_OR(cudaStreamQuery, (cudaStream_t s), (s), (void)s)
PASS_OR(cudaDeviceSynchronize, (void), (), (void)0)

/* The last error as the recording keeps it: taken (and cleared), or looked at. */
cudaError_t cudaGetLastError(void)
{
    if (plan) {
        cudaError_t err = last_error;
        last_error = cudaSuccess;
        return err;
    }
    REAL(cudaGetLastError, cudaError_t, (void));
    return real_cudaGetLastError();
}

cudaError_t cudaPeekAtLastError(void)
{
    if (plan)
        return last_error;
    REAL(cudaPeekAtLastError, cudaError_t, (void));
    return real_cudaPeekAtLastError();
}
