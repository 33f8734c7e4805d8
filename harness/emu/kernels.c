/*
 * What the emulator knows of each kernel, by the address of its function,
 * and the launch rules that depend on it, as CUDA 13 applies them on the
 * H100 (tests/probes/launch_limits.cu, plots/data/launch-limits-h100.txt):
 *
 *   - more threads a block than the kernel's __launch_bounds__ allow:
 *     cudaErrorInvalidValue;
 *   - more registers than an SM gives a block (ptxas's count a thread,
 *     allocated 256 a warp at a time, against regsPerBlock):
 *     cudaErrorLaunchOutOfResources;
 *   - static and dynamic shared memory past 48 KiB, or past what
 *     cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize)
 *     allowed (at most sharedMemPerBlockOptin, 227 KiB, for both):
 *     cudaErrorInvalidValue.
 *
 * A kernel's registers, static shared bytes and bounds come from its own
 * first line (rewrite inserts TL_EMU_KERNEL_ENTRY there, with ptxas's
 * counts where nvcc is installed), and for a kernel that is not a template
 * also from a registration after its body, so that cudaFuncGetAttributes
 * and cudaLaunchKernel know it before it runs. Which kernel a thread runs
 * comes from the program's symbol table: the function that holds the pc.
 */
#include "cuda_runtime.h"
#include "emulator.h"
#include "launch_attributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- functions */

typedef struct {
    uintptr_t start;
    size_t size;
    char *name; /* its symbol, mangled; NULL where there was no memory for it */
} function;

static function *functions;
static size_t n_functions, cap_functions;
static int sorted;

void tl_emu_found_function(uintptr_t start, size_t size, const char *name)
{
    if (n_functions == cap_functions) {
        size_t cap = cap_functions ? 2 * cap_functions : 1024;
        function *grown = realloc(functions, cap * sizeof *grown);
        if (!grown)
            abort();
        functions = grown, cap_functions = cap;
    }
    functions[n_functions++] = (function){start, size, name ? strdup(name) : NULL};
    sorted = 0;
}

static int by_start(const void *x, const void *y)
{
    const function *a = x, *b = y;
    return (a->start > b->start) - (a->start < b->start);
}

static const function *function_holding(uintptr_t pc)
{
    tl_emu_load_statics();
    if (!sorted) {
        qsort(functions, n_functions, sizeof *functions, by_start);
        sorted = 1;
    }
    size_t lo = 0, hi = n_functions;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (functions[mid].start <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && pc - functions[lo - 1].start < functions[lo - 1].size ? &functions[lo - 1] : NULL;
}

uintptr_t tl_emu_function_at(uintptr_t pc)
{
    const function *f = function_holding(pc);
    return f ? f->start : 0;
}

const char *tl_emu_function_name(uintptr_t pc)
{
    const function *f = function_holding(pc);
    return f && f->name ? f->name : "";
}

/* ---------------------------------------------------------------- kernels */

static tl_emu_kernel *kernels;
static size_t n_kernels, cap_kernels;

tl_emu_kernel *tl_emu_kernel_at(uintptr_t fn)
{
    if (!fn)
        return NULL;
    for (size_t i = 0; i < n_kernels; i++)
        if (kernels[i].fn == fn)
            return &kernels[i];
    if (n_kernels == cap_kernels) {
        size_t cap = cap_kernels ? 2 * cap_kernels : 32;
        tl_emu_kernel *grown = realloc(kernels, cap * sizeof *grown);
        if (!grown)
            abort();
        kernels = grown, cap_kernels = cap;
    }
    kernels[n_kernels] = (tl_emu_kernel){.fn = fn, .regs = -1, .smem = -1, .max_threads = -1,
                                         .max_dynamic = -1};
    return &kernels[n_kernels++];
}

/* What a kernel's own line or registration says of it. */
static void learn(tl_emu_kernel *k, int regs, int smem, int max_threads)
{
    if (regs >= 0)
        k->regs = regs;
    if (smem >= 0)
        k->smem = smem;
    if (max_threads >= 0)
        k->max_threads = max_threads;
}

void tl_emu_cuda_register_kernel(const void *fn, const char *name, int regs, int smem,
                                 int max_threads, tl_emu_argv_launch launch)
{
    tl_emu_kernel *k = tl_emu_kernel_at((uintptr_t)fn);
    if (!k)
        return;
    k->name = name;
    k->launch = launch;
    learn(k, regs, smem, max_threads);
}

const char *tl_emu_cuda_kernel_name(const void *fn)
{
    for (size_t i = 0; i < n_kernels; i++)
        if (kernels[i].fn == (uintptr_t)fn)
            return kernels[i].name;
    return NULL;
}

void tl_emu_kernel_learn(tl_emu_kernel *k, int regs, int smem, int max_threads)
{
    learn(k, regs, smem, max_threads);
}

/* Registers a block of threads takes: whole warps, each 256 at a time (8 a thread). */
static long registers_of(int regs, unsigned threads)
{
    long warps = (threads + 31) / 32, per_warp = (regs * 32 + 255) / 256 * 256;
    return warps * per_warp;
}

/* The most threads a block of k may have: its bounds, its registers, the device's. */
static int max_threads_of(const tl_emu_kernel *k, const struct cudaDeviceProp *p)
{
    int n = p->maxThreadsPerBlock;
    if (k && k->max_threads > 0 && k->max_threads < n)
        n = k->max_threads;
    if (k && k->regs > 0)
        while (n > 0 && registers_of(k->regs, (unsigned)n) > p->regsPerBlock)
            n -= 32;
    return n;
}

/* The dynamic shared memory a launch of k may ask for. */
static size_t max_dynamic_of(const tl_emu_kernel *k, const struct cudaDeviceProp *p)
{
    size_t smem = k && k->smem > 0 ? (size_t)k->smem : 0;
    if (k && k->max_dynamic >= 0)
        return (size_t)k->max_dynamic;
    return p->sharedMemPerBlock > smem ? p->sharedMemPerBlock - smem : 0;
}

cudaError_t tl_emu_kernel_refusal(const tl_emu_kernel *k, unsigned threads, size_t dynamic,
                                  char *why, size_t len)
{
    struct cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    size_t smem = k && k->smem > 0 ? (size_t)k->smem : 0;
    if (k && k->max_threads > 0 && threads > (unsigned)k->max_threads) {
        snprintf(why, len, "%u threads per block, more than the kernel's __launch_bounds__(%d) "
                 "allows", threads, k->max_threads);
        return cudaErrorInvalidValue;
    }
    if (k && k->regs > 0 && registers_of(k->regs, threads) > p.regsPerBlock) {
        snprintf(why, len, "%u threads of %d registers each (ptxas's count) take %ld registers, "
                 "more than the %d an SM has for a block: too many resources requested for "
                 "launch. Launch fewer threads per block, or declare __launch_bounds__(%u) so "
                 "that ptxas keeps each thread to %d registers or fewer",
                 threads, k->regs, registers_of(k->regs, threads), p.regsPerBlock, threads,
                 p.regsPerBlock / (int)((threads + 31) / 32 * 32) / 8 * 8);
        return cudaErrorLaunchOutOfResources;
    }
    if (smem + dynamic > p.sharedMemPerBlockOptin) {
        snprintf(why, len, "%zu bytes of dynamic shared memory%s, more than the %zu bytes of "
                 "shared memory a block may have", dynamic, smem ? " beside the kernel's static "
                 "__shared__ arrays" : "", p.sharedMemPerBlockOptin);
        return cudaErrorInvalidValue;
    }
    if (dynamic > max_dynamic_of(k, &p)) {
        if (k && k->max_dynamic >= 0)
            snprintf(why, len, "%zu bytes of dynamic shared memory, more than the %d that "
                     "cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, %d) "
                     "allowed", dynamic, k->max_dynamic, k->max_dynamic);
        else
            snprintf(why, len, "%zu bytes of dynamic shared memory%s: more than the %zu bytes a "
                     "block gets without asking. Above that, call cudaFuncSetAttribute(kernel, "
                     "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) before the launch "
                     "(up to %zu bytes, static arrays included)", dynamic,
                     smem ? " beside the kernel's static __shared__ arrays" : "",
                     p.sharedMemPerBlock, p.sharedMemPerBlockOptin);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* ------------------------------------------------------ the runtime's calls */

/* The kernel a pointer names, or NULL (with CUDA's error) where it names no function. */
static tl_emu_kernel *kernel_named(const void *fn, const char *call)
{
    tl_emu_kernel *k = tl_emu_function_at((uintptr_t)fn) == (uintptr_t)fn ? tl_emu_kernel_at((uintptr_t)fn) : NULL;
    if (!k)
        tl_emu_fail(cudaErrorInvalidResourceHandle, "%s: %p is not a kernel", call, fn);
    return k;
}

cudaError_t cudaFuncSetAttribute(const void *fn, enum cudaFuncAttribute attr, int value)
{
    struct cudaDeviceProp p;
    tl_emu_kernel *k = kernel_named(fn, "cudaFuncSetAttribute");
    if (!k)
        return cudaErrorInvalidResourceHandle;
    cudaGetDeviceProperties(&p, 0);
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        if (value < 0 || (size_t)value + (k->smem > 0 ? (size_t)k->smem : 0) > p.sharedMemPerBlockOptin)
            return tl_emu_fail(cudaErrorInvalidValue, "cudaFuncSetAttribute: %d bytes of dynamic "
                               "shared memory: a block may have at most %zu, static arrays "
                               "included", value, p.sharedMemPerBlockOptin);
        k->max_dynamic = value;
        return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        if (value < -1 || value > 100)
            return tl_emu_fail(cudaErrorInvalidValue, "cudaFuncSetAttribute: a carveout of %d "
                               "(a percentage, or -1)", value);
        return cudaSuccess; /* a preference: the emulator has no L1 to share */
    default:
        return cudaSuccess;
    }
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *fn)
{
    struct cudaDeviceProp p;
    if (!attr)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaFuncGetAttributes: the pointer to the "
                           "result is NULL");
    tl_emu_kernel *k = kernel_named(fn, "cudaFuncGetAttributes");
    if (!k)
        return cudaErrorInvalidResourceHandle;
    cudaGetDeviceProperties(&p, 0);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = k->smem > 0 ? (size_t)k->smem : 0;
    attr->maxThreadsPerBlock = max_threads_of(k, &p);
    attr->numRegs = k->regs > 0 ? k->regs : 0;
    attr->ptxVersion = attr->binaryVersion = p.major * 10 + p.minor;
    attr->maxDynamicSharedSizeBytes = (int)max_dynamic_of(k, &p);
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *fn, enum cudaFuncCache config)
{
    (void)config; /* a preference: the emulator has no L1 to share */
    return kernel_named(fn, "cudaFuncSetCacheConfig") ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaFuncSetSharedMemConfig(const void *fn, enum cudaSharedMemConfig config)
{
    (void)config;
    return kernel_named(fn, "cudaFuncSetSharedMemConfig") ? cudaSuccess
                                                          : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream)
{
    tl_emu_kernel *k = tl_emu_kernel_at((uintptr_t)fn);
    if (!k || !k->launch)
        return tl_emu_fail(cudaErrorNotSupported,
                           "cudaLaunchKernel: the tilelab CPU emulator launches a kernel from "
                           "an array of argument pointers only where it knows the kernel's "
                           "parameters: a __global__ function that is not a template, or "
                           "cudaLaunchKernel(kernel, ...) with the kernel itself rather than a "
                           "void pointer to it. Launch it with <<< >>>, or run this lab on a GPU");
    return k->launch(fn, grid, block, args, shared, stream, k->name);
}

/* A launch's attributes (cudaLaunchKernelEx), as launch_attributes.h takes them: those the
 * emulator, running one block after another, cannot give are cudaErrorNotSupported. */
cudaError_t tl_emu_cuda_launch_attributes(const cudaLaunchConfig_t *config)
{
    if (!config)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaLaunchKernelEx: a null configuration");
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const char *what = tl_launch_attribute_refused(&config->attrs[i]);
        if (what)
            return tl_emu_fail(cudaErrorNotSupported,
                               "cudaLaunchKernelEx: %s is not supported by the tilelab CPU "
                               "emulator, which runs one block after another: launch without "
                               "it, or run this lab on a GPU", what);
    }
    return cudaSuccess;
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *fn, void **args)
{
    cudaError_t refused = tl_emu_cuda_launch_attributes(config);
    if (refused)
        return refused;
    return cudaLaunchKernel(fn, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                            config->stream);
}

/* Blocks of block_size threads an SM holds, by the H100's limits and what is known of k. */
int tl_emu_blocks_per_sm(const tl_emu_kernel *k, int block_size, size_t dynamic)
{
    struct cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    if (block_size > max_threads_of(k, &p) || dynamic > max_dynamic_of(k, &p))
        return 0;
    int warps = (block_size + p.warpSize - 1) / p.warpSize;
    int n = p.maxThreadsPerMultiProcessor / p.warpSize / warps;
    size_t shared = dynamic + (k && k->smem > 0 ? (size_t)k->smem : 0) + p.reservedSharedMemPerBlock;
    if (n > p.maxBlocksPerMultiProcessor)
        n = p.maxBlocksPerMultiProcessor;
    if ((size_t)n * shared > p.sharedMemPerMultiprocessor)
        n = (int)(p.sharedMemPerMultiprocessor / shared);
    if (k && k->regs > 0 && (long)n * registers_of(k->regs, (unsigned)block_size) > p.regsPerMultiprocessor)
        n = (int)(p.regsPerMultiprocessor / registers_of(k->regs, (unsigned)block_size));
    return n;
}
