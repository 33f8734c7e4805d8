/*
 * The emulator's CUDA runtime calls: errors as the runtime reports them,
 * device memory, the device and its events. A kernel's fault waits, as on a
 * GPU, for the next call that synchronises (tl_emu_fault_later).
 */
#define _GNU_SOURCE
#include "cuda_runtime.h"
#include "emulator.h"
#include "gpu.h"
#include "sysinfo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ errors */

static cudaError_t last_error, sticky_error;
/* A kernel's fault, as on a GPU, shows at the next call that waits for the kernel. */
static cudaError_t pending_error;
static char detail[1024];

/* A call that waits for the device: a fault of the kernels before it becomes its error. */
static cudaError_t settle(void)
{
    if (pending_error) {
        sticky_error = last_error = pending_error;
        pending_error = cudaSuccess;
    }
    return sticky_error;
}

cudaError_t tl_emu_fail(cudaError_t err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    last_error = err;
    return err;
}

/* What a GPU's launch plan refuses in a lab's function (plan_record.c), refused alike: the
 * call fails with why, and nothing after it runs. */
static char refusal[512];

static cudaError_t refused_in_lab(const char *why)
{
    snprintf(detail, sizeof detail, "%s", why);
    snprintf(refusal, sizeof refusal, "%s", why);
    return sticky_error = last_error = cudaErrorNotSupported;
}

/* The error a lab's call left, and, for a refusal, why: worded as on a GPU (lab_plans.c). */
cudaError_t tl_gpu_lab_error(const char **said)
{
    if (said)
        *said = refusal[0] ? refusal : NULL;
    return cudaGetLastError();
}

void tl_emu_fault_later(cudaError_t err, const char *fmt, va_list ap)
{
    vsnprintf(detail, sizeof detail, fmt, ap);
    pending_error = err;
}

int tl_emu_context_lost(void)
{
    return sticky_error || pending_error;
}

const char tl_gpu_runtime_name[32] = "CPU emulator of a GPU";

/* The thread and access behind the last error (gpu.h). */
const char *tl_gpu_error_detail(void)
{
    return detail[0] ? detail : NULL;
}

static const struct {
    cudaError_t err;
    const char *name, *text;
} errors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const char *cudaGetErrorName(cudaError_t err)
{
    for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
        if (errors[i].err == err)
            return errors[i].name;
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t err)
{
    for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
        if (errors[i].err == err)
            return errors[i].text;
    return "unrecognized error code";
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t err = sticky_error ? sticky_error : last_error;
    last_error = cudaSuccess;
    return err;
}

cudaError_t cudaPeekAtLastError(void)
{
    return sticky_error ? sticky_error : last_error;
}

/* ------------------------------------------------------------ device memory */

/*
 * Device memory is one large reserved range, handed out in order with a
 * gap between allocations, so that any address can be told apart as
 * device memory, and an index that runs off an allocation lands in a gap.
 */
#define ARENA_BYTES ((size_t)64 << 30)
#define GAP ((size_t)64 << 10)

static uintptr_t arena;
static size_t arena_used;
static int arena_open;
static tl_emu_allocation *allocs;
static size_t n_allocs, cap_allocs;

/*
 * Between the emulator's own work in it (a kernel, a cudaMemcpy, a
 * cudaMemset), device memory is closed to the host, as a GPU's is: host
 * code that reaches it faults, through a path the instrumentation does not
 * see too (a library function, inline assembly, a read() into it), where
 * its accesses would go uncounted and a result the GPU never computed
 * would pass.
 */
void tl_emu_device_memory(int open)
{
    if (!arena || open == arena_open)
        return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), used = (arena_used + page - 1) / page * page;
    if (mprotect((void *)arena, used, open ? PROT_READ | PROT_WRITE : PROT_NONE) != 0)
        abort();
    arena_open = open;
}

/* A fault in closed device memory, said as the instrumentation says it. */
static void closed_device_memory(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)context;
    if (!arena_open && tl_emu_in_arena((uintptr_t)info->si_addr)) {
        static const char say[] =
            "tilelab emulator: host code touched device memory, by a path the emulator does not "
            "instrument (a library function, inline assembly, a system call).\nA pointer from "
            "cudaMalloc can only be used inside a kernel or with cudaMemcpy; on a GPU this "
            "crashes too.\n";
        (void)!write(2, say, sizeof say - 1);
        abort();
    }
    /* Not ours: SA_RESETHAND left the default action, which the fault now meets again. */
}

int tl_emu_open_arena(void)
{
    if (arena)
        return 0;
    void *p = mmap(NULL, ARENA_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    arena = (uintptr_t)p;
    arena_used = GAP;
    struct sigaction sa = {.sa_sigaction = closed_device_memory, .sa_flags = SA_SIGINFO | SA_RESETHAND};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    return 0;
}

int tl_emu_has_arena(void)
{
    return arena != 0;
}

int tl_emu_in_arena(uintptr_t a)
{
    return a - arena < ARENA_BYTES;
}

/* The allocation holding a, or the one just below it; NULL when none is below. */
const tl_emu_allocation *tl_emu_allocation_near(uintptr_t a)
{
    size_t lo = 0, hi = n_allocs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (allocs[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &allocs[lo - 1] : NULL;
}

const tl_emu_allocation *tl_emu_allocation_of(uintptr_t a, size_t bytes)
{
    const tl_emu_allocation *al = tl_emu_allocation_near(a);
    return al && !al->freed && a + bytes <= al->base + al->size ? al : NULL;
}

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    if (settle())
        return sticky_error;
    if (!ptr)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaMalloc: the pointer to the result is NULL");
    *ptr = NULL;
    if (tl_gpu_in_lab)
        return refused_in_lab("your code called cudaMalloc: a lab's function works in the device "
                              "buffers it is given and allocates none (lab.h)");
    if (bytes == 0)
        return cudaSuccess;
    size_t rounded = (bytes + 255) & ~(size_t)255;
    if (tl_emu_open_arena() || arena_used + rounded + GAP > ARENA_BYTES)
        return tl_emu_fail(cudaErrorMemoryAllocation, "cudaMalloc of %zu bytes: the emulator's device "
                    "memory is used up", bytes);
    if (n_allocs == cap_allocs) {
        size_t cap = cap_allocs ? 2 * cap_allocs : 64;
        tl_emu_allocation *grown = realloc(allocs, cap * sizeof *grown);
        if (!grown)
            return tl_emu_fail(cudaErrorMemoryAllocation, "cudaMalloc: out of host memory");
        allocs = grown;
        cap_allocs = cap;
    }
    tl_emu_allocation *al = &allocs[n_allocs++];
    al->base = arena + arena_used;
    al->size = bytes;
    al->freed = 0;
    arena_used += rounded + GAP; /* its pages closed, as mapped */
    *ptr = (void *)al->base;
    return cudaSuccess;
}

cudaError_t cudaFree(void *ptr)
{
    if (settle())
        return sticky_error;
    if (!ptr)
        return cudaSuccess;
    tl_emu_allocation *al = (tl_emu_allocation *)tl_emu_allocation_near((uintptr_t)ptr);
    if (!al || al->base != (uintptr_t)ptr || al->freed)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaFree(%p): not a pointer cudaMalloc returned, or "
                    "freed already", ptr);
    al->freed = 1;
    /* Give the pages back; the range stays reserved, so a late access is still caught. */
    madvise((void *)(al->base & ~(uintptr_t)4095), al->size, MADV_DONTNEED);
    return sticky_error;
}

static cudaError_t check_range(const void *p, size_t bytes, int device, const char *call,
                               const char *which)
{
    uintptr_t a = (uintptr_t)p;
    if (!device) {
        if (tl_emu_in_arena(a))
            return tl_emu_fail(cudaErrorInvalidValue, "%s: the %s pointer is device memory where host "
                        "memory was expected", call, which);
        return cudaSuccess;
    }
    if (!tl_emu_in_arena(a) || !tl_emu_allocation_of(a, 0))
        return tl_emu_fail(cudaErrorInvalidValue, "%s: the %s pointer %p is not device memory from "
                    "cudaMalloc (a host pointer?)", call, which, p);
    if (!tl_emu_allocation_of(a, bytes))
        return tl_emu_fail(cudaErrorInvalidValue, "%s: %zu bytes from %p run past the end of the "
                    "allocation", call, bytes, p);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    if (settle())
        return sticky_error;
    if (kind == cudaMemcpyDefault)
        kind = (enum cudaMemcpyKind)((tl_emu_in_arena((uintptr_t)src) ? 2 : 0) |
                                     (tl_emu_in_arena((uintptr_t)dst) ? 1 : 0));
    if ((unsigned)kind > cudaMemcpyDeviceToDevice)
        return tl_emu_fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy: unknown direction %d", (int)kind);
    if (tl_gpu_in_lab && kind != cudaMemcpyDeviceToDevice)
        return refused_in_lab("your code called cudaMemcpy to or from the host: a lab's function works "
                              "on the device buffers it is given, and the kit copies the matrices (lab.h)");
    cudaError_t err;
    if ((err = check_range(src, bytes, kind & 2, "cudaMemcpy", "source")) ||
        (err = check_range(dst, bytes, kind & 1, "cudaMemcpy", "destination")))
        return err;
    tl_emu_device_memory(1);
    memmove(dst, src, bytes);
    tl_emu_device_memory(0);
    if (kind == cudaMemcpyDeviceToDevice && tl_gpu_in_lab)
        tl_emu_count_copy("cudaMemcpy", (uintptr_t)src, (uintptr_t)dst, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes)
{
    if (settle())
        return sticky_error;
    cudaError_t err = check_range(ptr, bytes, 1, "cudaMemset", "device");
    if (err)
        return err;
    tl_emu_device_memory(1);
    memset(ptr, value, bytes);
    tl_emu_device_memory(0);
    if (tl_gpu_in_lab)
        tl_emu_count_copy("cudaMemset", 0, (uintptr_t)ptr, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(ptr, value, bytes);
}

cudaError_t cudaDeviceSynchronize(void)
{
    return settle();
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    (void)stream;
    return settle();
}

/* One stream: the emulator runs everything in order, as the default stream does. */
cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    if (!stream)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaStreamCreate: the pointer to the result is NULL");
    *stream = NULL;
    return settle();
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    (void)stream;
    return settle();
}

cudaError_t cudaDeviceReset(void)
{
    sticky_error = last_error = pending_error = cudaSuccess;
    detail[0] = refusal[0] = '\0';
    return cudaSuccess;
}

/* ------------------------------------------------------------------ device */

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess
                       : tl_emu_fail(cudaErrorInvalidDevice, "the emulator has one device, number 0");
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (device != 0)
        return tl_emu_fail(cudaErrorInvalidDevice, "the emulator has one device, number 0");
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "tilelab CPU emulator (no GPU)");
    prop->totalGlobalMem = tl_meminfo("MemTotal");
    prop->sharedMemPerBlock = 48 << 10;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 0x7fffffff;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->multiProcessorCount = 1;
    /* An H100's SM. */
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->maxBlocksPerMultiProcessor = 32;
    prop->sharedMemPerMultiprocessor = 228 << 10;
    prop->reservedSharedMemPerBlock = 1 << 10;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    struct cudaDeviceProp p;
    cudaError_t err = cudaGetDeviceProperties(&p, device);
    if (err)
        return err;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    default: *value = 0; break; /* clocks, bus width, L2: an emulator has none */
    }
    return cudaSuccess;
}

/*
 * How many blocks of block_size threads one SM holds at once, by the limits
 * of the emulator's one SM (cudaGetDeviceProperties: an H100's): threads,
 * in whole warps, blocks, and shared memory, each block's dynamic shared
 * memory and the runtime's reserve. A kernel's registers and its
 * __shared__ arrays are not counted: the answer is the most a GPU could
 * hold, which a real one may lower. As CUDA 13 on the H100: a block of no
 * threads is an invalid value, one too large or asking for more dynamic
 * shared memory than a block may have fits 0 times.
 */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *kernel,
                                                          int block_size, size_t dynamic_shared)
{
    struct cudaDeviceProp p;
    (void)kernel;
    if (!blocks)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: the "
                                                  "pointer to the result is NULL");
    if (block_size <= 0)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: a "
                                                  "block of %d threads", block_size);
    cudaGetDeviceProperties(&p, 0);
    if (block_size > p.maxThreadsPerBlock || dynamic_shared > p.sharedMemPerBlock) {
        *blocks = 0;
        return cudaSuccess;
    }
    int warps = (block_size + p.warpSize - 1) / p.warpSize;
    int n = p.maxThreadsPerMultiProcessor / p.warpSize / warps;
    size_t shared = dynamic_shared + p.reservedSharedMemPerBlock;
    if (n > p.maxBlocksPerMultiProcessor)
        n = p.maxBlocksPerMultiProcessor;
    if ((size_t)n * shared > p.sharedMemPerMultiprocessor)
        n = (int)(p.sharedMemPerMultiprocessor / shared);
    *blocks = n;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = tl_meminfo("MemAvailable");
    *total_bytes = tl_meminfo("MemTotal");
    return settle();
}

/* Events measure host time; the harness never shows emulator time as bandwidth. */
struct CUevent_st {
    double seconds;
};

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    *event = calloc(1, sizeof **event);
    return *event ? cudaSuccess : tl_emu_fail(cudaErrorMemoryAllocation, "cudaEventCreate: out of memory");
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    free(event);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    struct timespec ts;
    (void)stream;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    event->seconds = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    return sticky_error;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    (void)event;
    return settle();
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    *ms = (float)((stop->seconds - start->seconds) * 1e3);
    return sticky_error;
}

