/*
 * Runs launch plans (plan_run.h) through the CUDA driver, which the runtime
 * has already loaded: its entry points are asked of the runtime, so nothing
 * links libcuda and a machine without a driver still builds and starts.
 */
#include "plan_run.h"

#include <cuda.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

/* The driver's functions this file calls, as of CUDA 12.4 (the parameter queries). */
#define DRIVER_VERSION 12040
#define DRIVER_CALLS(X)                                                                           \
    X(cuModuleLoad)                                                                               \
    X(cuModuleGetFunctionCount)                                                                   \
    X(cuModuleEnumerateFunctions)                                                                 \
    X(cuFuncGetName)                                                                              \
    X(cuFuncGetParamInfo)                                                                         \
    X(cuFuncGetAttribute)                                                                         \
    X(cuFuncSetAttribute)                                                                         \
    X(cuLaunchKernel)                                                                             \
    X(cuModuleGetGlobal)                                                                          \
    X(cuPointerGetAttribute)

#define DRIVER_POINTER(name) __typeof__(&name) name;
static struct {
    DRIVER_CALLS(DRIVER_POINTER)
} drv;
#undef DRIVER_POINTER

struct tl_plan_module {
    CUmodule module;
    CUfunction fn[TL_PLAN_KERNELS];
    tl_plan_table table;
};

static int say(char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    return -1;
}

static int find_driver(char *why, size_t why_len)
{
    enum cudaDriverEntryPointQueryResult found;
#define DRIVER_FIND(name)                                                                         \
    if (!drv.name &&                                                                              \
        (cudaGetDriverEntryPointByVersion(#name, (void **)&drv.name, DRIVER_VERSION,              \
                                          cudaEnableDefault, &found) != cudaSuccess ||            \
         found != cudaDriverEntryPointSuccess)) {                                                 \
        drv.name = NULL;                                                                          \
        return say(why, why_len, "the CUDA driver has no %s: it is older than CUDA 12.4", #name); \
    }
    DRIVER_CALLS(DRIVER_FIND)
#undef DRIVER_FIND
    return 0;
}

/* What the loaded code allows a launch of f now (the lab's cudaFuncSetAttribute steps change
 * its dynamic shared memory): 0 where the driver does not say. */
static void limits(tl_plan_kernel *k, CUfunction f)
{
    int v[4] = {0, 0, 0, 0};
    static const CUfunction_attribute asked[4] = {
        CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, CU_FUNC_ATTRIBUTE_NUM_REGS,
        CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES};
    for (int i = 0; i < 4; i++)
        if (drv.cuFuncGetAttribute(&v[i], asked[i], f) != CUDA_SUCCESS || v[i] < 0)
            v[i] = 0;
    k->max_threads = (unsigned)v[0];
    k->registers = (unsigned)v[1];
    k->static_shared = (unsigned)v[2];
    k->max_dynamic_shared = (unsigned)v[3];
}

static int describe(tl_plan_kernel *k, CUfunction f, char *why, size_t why_len)
{
    const char *name = NULL;
    if (drv.cuFuncGetName(&name, f) != CUDA_SUCCESS || !name)
        return say(why, why_len, "cuFuncGetName failed");
    snprintf(k->name, sizeof k->name, "%s", name);
    size_t offset, size;
    for (k->params = 0; drv.cuFuncGetParamInfo(f, (size_t)k->params, &offset, &size) == CUDA_SUCCESS;
         k->params++) {
        if (k->params == TL_PLAN_PARAMS)
            return say(why, why_len, "your kernel %s takes more than %d parameters", name, TL_PLAN_PARAMS);
        k->offset[k->params] = (unsigned)offset;
        k->size[k->params] = (unsigned)size;
        if (offset + size > k->bytes)
            k->bytes = (unsigned)(offset + size);
    }
    return 0;
}

tl_plan_module *tl_plan_load(const char *path, char *why, size_t why_len)
{
    cudaError_t err = cudaFree(NULL); /* the runtime's primary context, current */
    if (err) {
        tl_gpu_explain(err, why, why_len);
        return NULL;
    }
    if (find_driver(why, why_len) != 0)
        return NULL;
    tl_plan_module *m = calloc(1, sizeof *m);
    unsigned count = 0;
    CUresult res;
    if (!m) {
        say(why, why_len, "out of host memory");
        return NULL;
    }
    if ((res = drv.cuModuleLoad(&m->module, path)) != CUDA_SUCCESS) {
        tl_gpu_explain((cudaError_t)res, why, why_len);
        tl_appendf(why, why_len, " (loading the lab's device code, %s)", path);
        free(m);
        return NULL;
    }
    if (drv.cuModuleGetFunctionCount(&count, m->module) != CUDA_SUCCESS || count > TL_PLAN_KERNELS ||
        drv.cuModuleEnumerateFunctions(m->fn, count, m->module) != CUDA_SUCCESS) {
        say(why, why_len, "the lab's device code defines more than %d kernels, or cannot be listed",
            TL_PLAN_KERNELS);
        free(m);
        return NULL;
    }
    m->table.kernels = (int)count;
    int dev = 0, regs = 0, optin = 0;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&regs, cudaDevAttrMaxRegistersPerBlock, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) == cudaSuccess) {
        m->table.registers_per_block = (unsigned)regs;
        m->table.shared_optin = (unsigned)optin;
    }
    cudaGetLastError();
    for (unsigned i = 0; i < count; i++)
        if (describe(&m->table.kernel[i], m->fn[i], why, why_len) != 0) {
            free(m);
            return NULL;
        }
    return m;
}

const tl_plan_table *tl_plan_kernels(tl_plan_module *m)
{
    for (int i = 0; i < m->table.kernels; i++)
        limits(&m->table.kernel[i], m->fn[i]);
    return &m->table;
}

/* 0 when [at, at + bytes) lies in one device allocation of this context. */
static int device_range(unsigned long long at, unsigned long long bytes)
{
    unsigned type = 0;
    CUdeviceptr start = 0;
    size_t size = 0;
    if (drv.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)at) ||
        type != CU_MEMORYTYPE_DEVICE ||
        drv.cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, (CUdeviceptr)at) ||
        drv.cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, (CUdeviceptr)at))
        return -1;
    return bytes <= size && at - start <= size - bytes ? 0 : -1;
}

/*
 * The stand-in addresses a plan's lab code was given for its variables (plan.h), each with
 * the variable's address and size in the device code loaded here.
 */
#define MAX_ADDRESSES 64
typedef struct {
    unsigned long long stand_in, real, size;
} address_of;
static address_of addresses[MAX_ADDRESSES];
static int n_addresses;

static cudaError_t find_addresses(const tl_plan_module *m, const tl_plan *p, char *why, size_t why_len)
{
    n_addresses = 0;
    for (int i = 0; i < p->steps; i++) {
        const tl_plan_step *s = &p->step[i];
        if (s->kind != TL_STEP_ADDRESS)
            continue;
        const char *name = (const char *)p->arena + s->symbol;
        CUdeviceptr var = 0;
        size_t size = 0;
        if (n_addresses == MAX_ADDRESSES || s->symbol >= sizeof p->arena ||
            !memchr(name, '\0', sizeof p->arena - s->symbol) || s->src < TL_PLAN_SYMBOL_BASE ||
            (s->src - TL_PLAN_SYMBOL_BASE) % TL_PLAN_SYMBOL_SPAN) {
            say(why, why_len, "tilelab: the lab process sent a variable's address that is not in its plan");
            return cudaErrorInvalidValue;
        }
        if (drv.cuModuleGetGlobal(&var, &size, m->module, name) != CUDA_SUCCESS || size != s->bytes) {
            say(why, why_len, "your code took the address of %s, which is not a __device__ variable of "
                              "your lab file's device code", name);
            return cudaErrorInvalidSymbol;
        }
        addresses[n_addresses++] = (address_of){s->src, var, size};
    }
    return cudaSuccess;
}

/* The address here of *at, where it is a variable's stand-in or an address inside one: 1 when
 * it was (and [*at, *at + bytes) must then lie in the variable: -1 where not), 0 when not. */
static int translate(unsigned long long *at, unsigned long long bytes)
{
    for (int i = 0; i < n_addresses; i++) {
        unsigned long long off = *at - addresses[i].stand_in;
        if (*at >= addresses[i].stand_in && off < TL_PLAN_SYMBOL_SPAN) {
            if (off > addresses[i].size || bytes > addresses[i].size - off)
                return -1;
            *at = addresses[i].real + off;
            return 1;
        }
    }
    return 0;
}

/* A memset's or a copy's device range: in a variable (its stand-in) or in one allocation. */
static int device_or_variable(unsigned long long *at, unsigned long long bytes)
{
    int t = translate(at, bytes);
    return t ? (t > 0 ? 0 : -1) : device_range(*at, bytes);
}

static cudaError_t launch(const tl_plan_module *m, const tl_plan *p, const tl_plan_step *s)
{
    const tl_plan_kernel *k = &m->table.kernel[s->kernel];
    dim3 grid = {s->grid[0], s->grid[1], s->grid[2]}, block = {s->block[0], s->block[1], s->block[2]};
    tl_launch_record(grid, block, s->shared_bytes, k->name);
    tl_launch_symbol(k->name); /* the loaded code's name: mangled, as the emulator's (launch_compare.h) */
    /* Refused when it was recorded, as CUDA refuses it: the lab's code had the error then, and
     * the plan's error says whether it was left for the kit. Logged, not run. */
    if (s->refused)
        return cudaSuccess;
    /* What the runtime would have said of this configuration, as the lab's own launch would get it. */
    cudaError_t refused = tl_launch_refusal(grid, block);
    if (refused)
        return refused;
    size_t bytes = k->bytes;
    const unsigned char *params = p->arena + s->params;
    static unsigned char translated[TL_PLAN_ARENA];
    if (n_addresses) { /* each 8-byte word of each parameter that holds a stand-in */
        memcpy(translated, params, bytes);
        for (int i = 0; i < k->params; i++)
            for (unsigned o = k->offset[i]; o + 8 <= k->offset[i] + k->size[i]; o += 8) {
                unsigned long long word;
                memcpy(&word, translated + o, 8);
                if (translate(&word, 0) > 0)
                    memcpy(translated + o, &word, 8);
            }
        params = translated;
    }
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, (void *)params,
                     CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes, CU_LAUNCH_PARAM_END};
    return (cudaError_t)drv.cuLaunchKernel(m->fn[s->kernel], grid.x, grid.y, grid.z, block.x, block.y,
                                           block.z, s->shared_bytes, NULL, NULL, bytes ? extra : NULL);
}

/* A copy into or out of a variable of the lab's device code, found by its name. */
static cudaError_t symbol_copy(const tl_plan_module *m, const tl_plan *p, const tl_plan_step *s,
                               char *why, size_t why_len)
{
    const char *name = (const char *)p->arena + s->symbol;
    CUdeviceptr var = 0;
    size_t size = 0;
    if (s->symbol >= sizeof p->arena || !memchr(name, '\0', sizeof p->arena - s->symbol) ||
        (s->value == TL_SYMBOL_FROM_HOST && (s->params > sizeof p->arena || s->bytes > sizeof p->arena - s->params))) {
        say(why, why_len, "tilelab: the lab process sent a copy into a variable that is not in its plan");
        return cudaErrorInvalidValue;
    }
    if (drv.cuModuleGetGlobal(&var, &size, m->module, name) != CUDA_SUCCESS) {
        say(why, why_len, "your code copied into or out of %s, which is not a __device__ or __constant__ "
                          "variable of your lab file's device code", name);
        return cudaErrorInvalidSymbol;
    }
    if (s->offset > size || s->bytes > size - s->offset)
        return cudaErrorInvalidValue;
    void *at = (void *)(uintptr_t)(var + s->offset);
    unsigned long long other = s->value == TL_SYMBOL_TO_DEVICE ? s->dst : s->src;
    if (s->value != TL_SYMBOL_FROM_HOST && device_or_variable(&other, s->bytes) != 0) {
        say(why, why_len, "your code copied %llu bytes between %s and %#llx, which are not all in the "
                          "matrices' device buffers or one variable", s->bytes, name,
            s->value == TL_SYMBOL_TO_DEVICE ? s->dst : s->src);
        return cudaErrorInvalidValue;
    }
    const void *device = (const void *)(uintptr_t)other;
    switch (s->value) {
    case TL_SYMBOL_FROM_HOST:
        return cudaMemcpyAsync(at, p->arena + s->params, s->bytes, cudaMemcpyHostToDevice, 0);
    case TL_SYMBOL_FROM_DEVICE:
        return cudaMemcpyAsync(at, device, s->bytes, cudaMemcpyDeviceToDevice, 0);
    case TL_SYMBOL_TO_DEVICE:
        return cudaMemcpyAsync((void *)device, at, s->bytes, cudaMemcpyDeviceToDevice, 0);
    }
    say(why, why_len, "tilelab: the lab process sent a copy of direction %d", s->value);
    return cudaErrorInvalidValue;
}

/* The bytes from the first a MEMSET or COPY step reaches to its last: rows of width bytes,
 * pitch apart (rows 0: one run of width bytes). */
static unsigned long long rows_span(unsigned long long rows, unsigned long long pitch, unsigned long long width)
{
    return rows ? pitch * (rows - 1) + width : width;
}

static cudaError_t step(const tl_plan_module *m, const tl_plan *p, const tl_plan_step *s, char *why,
                        size_t why_len)
{
    switch (s->kind) {
    case TL_STEP_LAUNCH:
        if (s->kernel < 0 || s->kernel >= m->table.kernels ||
            s->params + m->table.kernel[s->kernel].bytes > sizeof p->arena)
            break;
        return launch(m, p, s);
    case TL_STEP_ATTRIBUTE:
        if (s->kernel < 0 || s->kernel >= m->table.kernels)
            break;
        return (cudaError_t)drv.cuFuncSetAttribute(m->fn[s->kernel], (CUfunction_attribute)s->attribute,
                                                   s->value);
    case TL_STEP_MEMSET: {
        /* rows > 0: rows of bytes each, dpitch apart (cudaMemset2D) */
        unsigned long long dst = s->dst, span = rows_span(s->rows, s->dpitch, s->bytes);
        if (device_or_variable(&dst, span) != 0) {
            say(why, why_len, "your code set %llu bytes at %#llx, which are not all in one of the "
                              "matrices' device buffers or one variable", span, s->dst);
            return cudaErrorInvalidValue;
        }
        if (s->rows)
            return cudaMemset2DAsync((void *)(uintptr_t)dst, s->dpitch, s->value, s->bytes, s->rows, 0);
        return cudaMemsetAsync((void *)(uintptr_t)dst, s->value, s->bytes, 0);
    }
    case TL_STEP_COPY: {
        /* rows > 0: rows of bytes each, dpitch apart at dst and spitch at src (cudaMemcpy2D) */
        unsigned long long dst = s->dst, src = s->src, dspan = rows_span(s->rows, s->dpitch, s->bytes),
                           sspan = rows_span(s->rows, s->spitch, s->bytes);
        if (device_or_variable(&dst, dspan) != 0 || device_or_variable(&src, sspan) != 0) {
            say(why, why_len, "your code copied %llu bytes from %#llx to %#llx, which are not all "
                              "in the matrices' device buffers or one variable", dspan, s->src, s->dst);
            return cudaErrorInvalidValue;
        }
        if (s->rows)
            return cudaMemcpy2DAsync((void *)(uintptr_t)dst, s->dpitch, (const void *)(uintptr_t)src, s->spitch,
                                     s->bytes, s->rows, cudaMemcpyDeviceToDevice, 0);
        return cudaMemcpyAsync((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, s->bytes,
                               cudaMemcpyDeviceToDevice, 0);
    }
    case TL_STEP_SYMBOL:
        return symbol_copy(m, p, s, why, why_len);
    case TL_STEP_ADDRESS: /* found before the first step ran */
        return cudaSuccess;
    }
    say(why, why_len, "tilelab: the lab process sent a plan that names no kernel of the lab's "
                      "device code (step of kind %d)", s->kind);
    return cudaErrorInvalidValue;
}

cudaError_t tl_plan_run(const tl_plan_module *m, const tl_plan *p, char *why, size_t why_len)
{
    if (p->steps < 0 || p->steps > TL_PLAN_STEPS) {
        say(why, why_len, "tilelab: the lab process sent a plan of %d steps", p->steps);
        return cudaErrorInvalidValue;
    }
    cudaError_t found = find_addresses(m, p, why, why_len);
    if (found)
        return found;
    for (int i = 0; i < p->steps; i++) {
        cudaError_t err = step(m, p, &p->step[i], why, why_len);
        if (err)
            return err;
    }
    return (cudaError_t)p->error;
}
