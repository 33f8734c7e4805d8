/*
 * The emulator's CUDA runtime calls: errors as the runtime reports them,
 * device memory, the device and its events. A kernel's fault waits, as on a
 * GPU, for the next call that synchronises (tl_emu_fault_later).
 */
#define _GNU_SOURCE
#include "cuda_runtime.h"
#include "emu.h"
#include "emulator.h"
#include "lab_refusals.h"
#include "matrix.h"
#include "sysinfo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * The runtime's state that the lab's code must not change, in the kit's pages (kit_pages.c),
 * which it can read and never write: whether a lab's own function runs now (emu.h), as the
 * GPU glue says, on which every refusal of a call a lab may not make turns, and the cap on
 * the device's heap of an in-place call. In the program's data, a lab's host code found the
 * flag through cudaMalloc's own code, cleared it for its call, copied the matrix to the host
 * and back uncounted, and transposed it there: 10.00 of 10 in lab 5, its control 5.00 (a
 * cheating helper, 2026-11-29: tests/hostile/lab05-lab-running-cleared.cu).
 */
typedef struct {
    int running, cap_on;
    size_t cap, cap_used;
} kit_runtime;
#define KIT TL_EMU_KIT_STATE(kit_runtime, TL_EMU_KIT_RUNTIME)
#define lab_running (KIT->running)

void tl_emu_lab_running(int on)
{
    tl_emu_kit_write(1);
    KIT->running = on;
    tl_emu_kit_write(0);
}

int tl_emu_lab_is_running(void)
{
    return lab_running;
}

/* ------------------------------------------------------------------ errors */

static cudaError_t last_error, sticky_error;
/* A kernel's fault, as on a GPU, shows at the next call that waits for the kernel. */
static cudaError_t pending_error;
static char detail[3584]; /* a race names two threads, two lines and the barrier to add */
/* Whether the fault behind detail is one a GPU gives no error for (a race, threads at
 * different barriers): the emulator's own verdict, which gpu.c puts first. */
static int detail_is_the_emulators;

/* A call that waits for the device: a fault of the kernels before it becomes its error. */
static cudaError_t settle(void)
{
    if (pending_error) {
        sticky_error = last_error = pending_error;
        pending_error = cudaSuccess;
    }
    return sticky_error;
}

cudaError_t tl_emu_settle(void)
{
    return settle();
}

cudaError_t tl_emu_fail(cudaError_t err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    detail_is_the_emulators = 0;
    last_error = err;
    return err;
}

/* What a GPU's launch plan refuses in a lab's function (plan_record.c), refused alike: the
 * call fails with why, and nothing after it runs. */
static char refusal[512];

cudaError_t tl_emu_refused_in_lab(const char *why)
{
    snprintf(detail, sizeof detail, "%s", why);
    snprintf(refusal, sizeof refusal, "%s", why);
    detail_is_the_emulators = 0;
    return sticky_error = last_error = cudaErrorNotSupported;
}

/* Why a lab's call was refused: worded as on a GPU (lab_plans.c). */
const char *tl_emu_lab_refusal(void)
{
    return refusal[0] ? refusal : NULL;
}

void tl_emu_fault_later(cudaError_t err, int no_gpu_error, const char *fmt, va_list ap)
{
    vsnprintf(detail, sizeof detail, fmt, ap);
    detail_is_the_emulators = no_gpu_error;
    pending_error = err;
}

int tl_emu_context_lost(void)
{
    return sticky_error || pending_error;
}

cudaError_t tl_emu_context_error(void)
{
    return sticky_error ? sticky_error : pending_error;
}

/* The thread and access behind the last error (emu.h). */
const char *tl_emu_error_detail(void)
{
    return detail[0] ? detail : NULL;
}

int tl_emu_error_is_its_own(void)
{
    return detail[0] && detail_is_the_emulators;
}

static const struct {
    cudaError_t err;
    const char *name, *text;
} errors[] = {
#define X(name, value, text) {name, #name, text},
#include "cuda_errors.h"
#undef X
};

const char *cudaGetErrorName(cudaError_t err)
{
    for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
        if (errors[i].err == err)
            return errors[i].name;
    return "unrecognized error code";
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
/* A GPU maps device memory in pages of 2 MiB (TL_EMU_GPU_PAGE), and cudaMalloc hands it out
 * from them: an index a little past an allocation reaches mapped memory there and does not
 * fault. Each allocation has the rest of its last such page to itself here, before its gap. */
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
    if (tl_emu_kit_syscall(SYS_mprotect, (long)arena, (long)used, open ? PROT_READ | PROT_WRITE : PROT_NONE,
                           0, 0, 0) != 0) /* the kit's site: the lab's code may not mprotect */
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
    /* Reserved with 4 GiB-aligned room around it, left unmapped, so that nothing else lies in
     * the 4 GiB windows it touches or the one below: the confined lab process's filter knows
     * device memory by an address's high 32 bits (confine.c), and must not refuse the C
     * library a thread's stack mapped next to it. */
    size_t room = (size_t)12 << 30, window = (size_t)4 << 30;
    void *p = mmap(NULL, ARENA_BYTES + room, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    arena = (((uintptr_t)p + window - 1) & ~(uintptr_t)(window - 1)) + window;
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

void tl_emu_arena_range(uintptr_t *base, size_t *bytes)
{
    *base = arena, *bytes = ARENA_BYTES;
}

/* The allocation holding a, or the one just below it; NULL when none is below. */
const tl_emu_allocation *tl_emu_allocation_near(uintptr_t a)
{
    /* A kernel's accesses go to one or two allocations (it reads one matrix and writes
     * another): the last two found first (their index + 1; the allocations lie in the order
     * of their bases, as allocate makes them). */
    static size_t last[2];
    for (int i = 0; i < 2; i++) {
        size_t k = last[i];
        if (k && k <= n_allocs && allocs[k - 1].base <= a && (k == n_allocs || allocs[k].base > a))
            return &allocs[k - 1];
    }
    size_t lo = 0, hi = n_allocs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (allocs[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    last[1] = last[0], last[0] = lo;
    return lo ? &allocs[lo - 1] : NULL;
}

void tl_emu_name_allocation(const void *p, const char *name, size_t data_offset, size_t data_bytes)
{
    tl_emu_allocation *al = (tl_emu_allocation *)tl_emu_allocation_near((uintptr_t)p);
    if (al && al->base == (uintptr_t)p)
        al->name = name, al->data_offset = data_offset, al->data_bytes = data_bytes;
}

const tl_emu_allocation *tl_emu_allocation_of(uintptr_t a, size_t bytes)
{
    const tl_emu_allocation *al = tl_emu_allocation_near(a);
    return al && !al->freed && a + bytes <= al->base + al->size ? al : NULL;
}

const tl_emu_allocation *tl_emu_allocation_mapped(uintptr_t a, size_t bytes)
{
    tl_emu_allocation *al = (tl_emu_allocation *)tl_emu_allocation_near(a);
    if (!al || al->freed || a + bytes > al->base + al->mapped)
        return NULL;
    /* What lies past the end reads as the kit's margins do: a NaN that says where it came from. */
    if (a + bytes > al->filled) {
        uintptr_t to = (a + bytes + 4095) & ~(uintptr_t)4095, end = al->base + al->mapped;
        uint32_t bits = TL_MARGIN_BITS;
        if (to > end)
            to = end;
        for (uintptr_t p = al->filled; p < to; p++)
            *(unsigned char *)p = (unsigned char)(bits >> 8 * (p % 4));
        al->filled = to;
    }
    return al;
}

static cudaError_t allocate(void **ptr, size_t bytes, size_t mapped, int in_kernel);
static size_t limits[7];

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    if (settle())
        return sticky_error;
    if (!ptr)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaMalloc: the pointer to the result is NULL");
    *ptr = NULL;
    if (lab_running)
        return tl_emu_refused_in_lab(TL_REFUSED_ALLOCATION("cudaMalloc"));
    if (bytes == 0)
        return cudaSuccess;
    return allocate(ptr, bytes, (bytes + TL_EMU_GPU_PAGE - 1) / TL_EMU_GPU_PAGE * TL_EMU_GPU_PAGE, 0);
}

/* bytes of device memory at *ptr, of which a GPU maps `mapped` (bytes or more): the next place
 * in the arena, a gap after it. */
static cudaError_t allocate(void **ptr, size_t bytes, size_t mapped, int in_kernel)
{
    /* The refusals again, here where every allocation passes: a lab's host code found this
     * function through cudaMalloc's machine code (its tail call) and called it past
     * cudaMalloc's refusal, for lab 9's second matrix: 8.00 of 10, its control 5.00 (a
     * cheating helper, 2026-11-29: tests/hostile/lab09-allocator-called.cu). */
    if (lab_running && !in_kernel)
        return tl_emu_refused_in_lab(TL_REFUSED_ALLOCATION("cudaMalloc"));
    if (in_kernel && tl_emu_device_heap_capped(bytes))
        return cudaErrorMemoryAllocation;
    size_t rounded = (mapped + 255) & ~(size_t)255;
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
    al->name = NULL;
    al->mapped = mapped;
    al->in_kernel = in_kernel;
    al->filled = al->base + bytes;
    arena_used += rounded + GAP; /* its pages closed, as mapped */
    /* Made while a kernel works in device memory (its malloc): open, as the rest is. */
    if (arena_open && tl_emu_kit_syscall(SYS_mprotect, (long)(al->base & ~(uintptr_t)4095),
                                         (long)(rounded + (al->base & 4095)), PROT_READ | PROT_WRITE,
                                         0, 0, 0) != 0)
        abort();
    *ptr = (void *)al->base;
    return cudaSuccess;
}

/*
 * malloc and free in a kernel: device memory, from the device's heap
 * (cudaLimitMallocHeapSize bytes, 8 MiB unless set), which the kernel's
 * accesses reach and the emulator checks and counts as any; NULL once the
 * heap is spent, as on a GPU.
 */
static size_t heap_used;

/* The cap of an in-place call, in the kit's pages with the heap's use under it (KIT, above):
 * emu.h. */
void tl_emu_device_heap_cap(int on, size_t bytes)
{
    tl_emu_kit_write(1);
    KIT->cap_on = on, KIT->cap = bytes, KIT->cap_used = 0;
    tl_emu_kit_write(0);
}

size_t tl_emu_device_heap_capped(size_t bytes)
{
    return KIT->cap_on && (bytes > KIT->cap || KIT->cap_used > KIT->cap - bytes) ? KIT->cap : 0;
}

void *tl_emu_device_malloc(size_t bytes)
{
    void *p = NULL;
    if (bytes == 0 || bytes > limits[cudaLimitMallocHeapSize] - heap_used || allocate(&p, bytes, bytes, 1))
        return NULL;
    heap_used += bytes;
    if (KIT->cap_on) {
        tl_emu_kit_write(1);
        KIT->cap_used += bytes;
        tl_emu_kit_write(0);
    }
    return p;
}

void tl_emu_device_free(void *p)
{
    tl_emu_allocation *al = (tl_emu_allocation *)tl_emu_allocation_near((uintptr_t)p);
    if (!al || al->base != (uintptr_t)p || al->freed)
        return;
    al->freed = 1;
    heap_used -= al->size;
    if (KIT->cap_on) {
        tl_emu_kit_write(1);
        KIT->cap_used -= al->size < KIT->cap_used ? al->size : KIT->cap_used;
        tl_emu_kit_write(0);
    }
}

cudaError_t cudaFree(void *ptr)
{
    if (settle())
        return sticky_error;
    if (!ptr)
        return cudaSuccess;
    if (lab_running)
        return tl_emu_refused_in_lab(TL_REFUSED_FREE("cudaFree"));
    tl_emu_allocation *al = (tl_emu_allocation *)tl_emu_allocation_near((uintptr_t)ptr);
    if (!al || al->base != (uintptr_t)ptr || al->freed)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaFree(%p): not a pointer cudaMalloc returned, or "
                    "freed already", ptr);
    al->freed = 1;
    /* Give the pages back; the range stays reserved, so a late access is still caught. */
    madvise((void *)(al->base & ~(uintptr_t)4095), al->filled - al->base, MADV_DONTNEED);
    return sticky_error;
}

/* A copy's or a set's access to the lab's variable g, device memory's side of it (shared.c,
 * tl_emu_global_reached): refused where host code read or wrote it. which says the copy's
 * side: "source" is read, "destination" and "device" (a set) written. */
static cudaError_t reached(const struct asan_global *g, const char *call, const char *which)
{
    int wrote = strcmp(which, "source") != 0, host = tl_emu_global_reached(g, 1, wrote);
    if (!host)
        return cudaSuccess;
    return tl_emu_fail(cudaErrorInvalidValue, "%s: the %s is the variable %s, which host code %s "
                       "(by an access of its own, or through a C library function): "
                       "a variable is host memory or device memory, never both. Copies and kernels "
                       "reach __device__ and __constant__ variables, which host code fills and reads "
                       "only through cudaMemcpyToSymbol and cudaMemcpyFromSymbol, and no host "
                       "variable", call, which, tl_emu_global_name(g),
                       host & TL_HOST_WROTE ? "wrote" : "read");
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
    const struct asan_global *g = tl_emu_global_at(a);
    if (g && !tl_emu_is_shared(g) && a >= g->beg) {
        /* A __device__ variable (cudaGetSymbolAddress). */
        if (a + bytes > g->beg + g->size)
            return tl_emu_fail(cudaErrorInvalidValue, "%s: %zu bytes from %p run past the end of "
                               "the variable %s", call, bytes, p, g->name);
        return reached(g, call, which);
    }
    if (!tl_emu_in_arena(a) || !tl_emu_allocation_of(a, 0))
        return tl_emu_fail(cudaErrorInvalidValue, "%s: the %s pointer %p is not device memory from "
                    "cudaMalloc (a host pointer?)", call, which, p);
    if (!tl_emu_allocation_of(a, bytes))
        return tl_emu_fail(cudaErrorInvalidValue, "%s: %zu bytes from %p run past the end of the "
                    "allocation", call, bytes, p);
    return cudaSuccess;
}

/* The direction of a copy where kind says cudaMemcpyDefault: by where the pointers are. */
static enum cudaMemcpyKind direction(const void *dst, const void *src, enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDefault)
        return kind;
    const struct asan_global *s = tl_emu_global_at((uintptr_t)src), *d = tl_emu_global_at((uintptr_t)dst);
    return (enum cudaMemcpyKind)((tl_emu_in_arena((uintptr_t)src) || s ? 2 : 0) |
                                 (tl_emu_in_arena((uintptr_t)dst) || d ? 1 : 0));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    tl_emu_globals_begin();
    if (settle())
        return sticky_error;
    kind = direction(dst, src, kind);
    if ((unsigned)kind > cudaMemcpyDeviceToDevice)
        return tl_emu_fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy: unknown direction %d", (int)kind);
    if (lab_running && kind != cudaMemcpyDeviceToDevice)
        return tl_emu_refused_in_lab(TL_REFUSED_HOST_COPY("cudaMemcpy"));
    cudaError_t err;
    if ((err = check_range(src, bytes, kind & 2, "cudaMemcpy", "source")) ||
        (err = check_range(dst, bytes, kind & 1, "cudaMemcpy", "destination")))
        return err;
    tl_emu_device_memory(1);
    memmove(dst, src, bytes);
    tl_emu_device_memory(0);
    tl_emu_globals_settle();
    if (kind == cudaMemcpyDeviceToDevice)
        tl_emu_clock_copy(bytes, bytes);
    if (kind == cudaMemcpyDeviceToDevice && lab_running)
        tl_emu_count_copy("cudaMemcpy", (uintptr_t)src, bytes, (uintptr_t)dst, bytes, bytes, 1);
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
    tl_emu_globals_begin();
    if (settle())
        return sticky_error;
    cudaError_t err = check_range(ptr, bytes, 1, "cudaMemset", "device");
    if (err)
        return err;
    tl_emu_device_memory(1);
    memset(ptr, value, bytes);
    tl_emu_device_memory(0);
    tl_emu_globals_settle();
    tl_emu_clock_copy(0, bytes);
    if (lab_running)
        tl_emu_count_copy("cudaMemset", 0, 0, (uintptr_t)ptr, bytes, bytes, 1);
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

/* height rows of width bytes, rows spitch and dpitch bytes apart. */
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    tl_emu_globals_begin();
    if (settle())
        return sticky_error;
    if (width > dpitch || width > spitch)
        return tl_emu_fail(cudaErrorInvalidPitchValue, "cudaMemcpy2D: rows of %zu bytes, wider than "
                           "a pitch (%zu, %zu)", width, dpitch, spitch);
    if (!width || !height)
        return cudaSuccess;
    kind = direction(dst, src, kind);
    if ((unsigned)kind > cudaMemcpyDeviceToDevice)
        return tl_emu_fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy2D: unknown direction %d", (int)kind);
    if (lab_running && kind != cudaMemcpyDeviceToDevice)
        return tl_emu_refused_in_lab(TL_REFUSED_HOST_COPY("cudaMemcpy2D"));
    cudaError_t err;
    if ((err = check_range(src, spitch * (height - 1) + width, kind & 2, "cudaMemcpy2D", "source")) ||
        (err = check_range(dst, dpitch * (height - 1) + width, kind & 1, "cudaMemcpy2D", "destination")))
        return err;
    tl_emu_device_memory(1);
    for (size_t r = 0; r < height; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    tl_emu_device_memory(0);
    tl_emu_globals_settle();
    if (kind == cudaMemcpyDeviceToDevice)
        tl_emu_clock_copy(width * height, width * height);
    if (kind == cudaMemcpyDeviceToDevice && lab_running)
        tl_emu_count_copy("cudaMemcpy", (uintptr_t)src, spitch, (uintptr_t)dst, dpitch, width, height);
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height)
{
    tl_emu_globals_begin();
    if (settle())
        return sticky_error;
    if (width > pitch)
        return tl_emu_fail(cudaErrorInvalidPitchValue, "cudaMemset2D: rows of %zu bytes, wider "
                           "than the pitch (%zu)", width, pitch);
    if (!width || !height)
        return cudaSuccess;
    cudaError_t err = check_range(ptr, pitch * (height - 1) + width, 1, "cudaMemset2D", "device");
    if (err)
        return err;
    tl_emu_device_memory(1);
    for (size_t r = 0; r < height; r++)
        memset((char *)ptr + r * pitch, value, width);
    tl_emu_device_memory(0);
    tl_emu_globals_settle();
    tl_emu_clock_copy(0, width * height);
    if (lab_running)
        tl_emu_count_copy("cudaMemset", 0, 0, (uintptr_t)ptr, pitch, width, height);
    return cudaSuccess;
}

cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream)
{
    (void)stream;
    return cudaMemset2D(ptr, pitch, value, width, height);
}

/* Rows of width bytes, each starting where the H100 starts them: a multiple of 512 bytes. */
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaMallocPitch: the pointer to the pitch is NULL");
    if (lab_running && ptr) {
        *ptr = NULL;
        return tl_emu_refused_in_lab(TL_REFUSED_ALLOCATION("cudaMallocPitch"));
    }
    size_t p = (width + 511) / 512 * 512;
    cudaError_t err = cudaMalloc(ptr, p * height);
    if (!err)
        *pitch = p;
    return err;
}

/* Stream-ordered allocations: the emulator's one queue has them in order already. */
cudaError_t cudaMallocAsync(void **ptr, size_t bytes, cudaStream_t stream)
{
    (void)stream;
    if (lab_running && ptr) {
        *ptr = NULL;
        return tl_emu_refused_in_lab(TL_REFUSED_ALLOCATION("cudaMallocAsync"));
    }
    return cudaMalloc(ptr, bytes);
}

cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream)
{
    (void)stream;
    if (lab_running && ptr)
        return tl_emu_refused_in_lab(TL_REFUSED_FREE("cudaFreeAsync"));
    return cudaFree(ptr);
}

/*
 * Page-locked host memory: host memory, which only the host reads and
 * writes (a kernel that reads it faults, as a kernel that reads any host
 * memory does here). What a kernel would reach in host memory, mapped or
 * managed, the emulator does not run.
 */
cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags)
{
    (void)flags;
    if (!ptr)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaHostAlloc: the pointer to the result is NULL");
    if (settle())
        return sticky_error;
    *ptr = NULL;
    if (bytes && posix_memalign(ptr, 4096, bytes) != 0) {
        *ptr = NULL;
        return tl_emu_fail(cudaErrorMemoryAllocation, "cudaHostAlloc of %zu bytes: out of host memory", bytes);
    }
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t bytes)
{
    return cudaHostAlloc(ptr, bytes, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void *ptr)
{
    if (settle())
        return sticky_error;
    free(ptr);
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned int flags)
{
    (void)ptr, (void)bytes, (void)flags;
    return settle();
}

cudaError_t cudaHostUnregister(void *ptr)
{
    (void)ptr;
    return settle();
}

static cudaError_t shared_with_the_host(const char *call)
{
    return tl_emu_fail(cudaErrorNotSupported, "%s: memory that kernels and the host share (managed or "
                       "mapped memory) is not supported by the tilelab CPU emulator, whose kernels "
                       "reach only device memory: allocate with cudaMalloc and copy with cudaMemcpy, "
                       "or run this program on a GPU", call);
}

cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int flags)
{
    (void)host, (void)flags;
    if (device)
        *device = NULL;
    return shared_with_the_host("cudaHostGetDevicePointer");
}

cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned int flags)
{
    (void)bytes, (void)flags;
    if (ptr)
        *ptr = NULL;
    if (lab_running)
        return tl_emu_refused_in_lab(TL_REFUSED_ALLOCATION("cudaMallocManaged"));
    return shared_with_the_host("cudaMallocManaged");
}

cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, int device, cudaStream_t stream)
{
    (void)ptr, (void)bytes, (void)device, (void)stream;
    return shared_with_the_host("cudaMemPrefetchAsync");
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr)
{
    if (!attr)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaPointerGetAttributes: the pointer to the "
                           "result is NULL");
    memset(attr, 0, sizeof *attr);
    if (tl_emu_in_arena((uintptr_t)ptr)) {
        attr->type = cudaMemoryTypeDevice;
        attr->devicePointer = (void *)ptr;
    } else {
        attr->type = cudaMemoryTypeUnregistered;
        attr->device = -2;
    }
    return cudaSuccess;
}

/*
 * cudaMemcpyToSymbol and cudaMemcpyFromSymbol: bytes at offset in the
 * __device__ or __constant__ variable at symbol (symbol_bytes long), to or
 * from buf; a copy to or from host memory, or from or to device memory.
 */
cudaError_t tl_emu_cuda_memcpy_symbol(const void *symbol, size_t symbol_bytes, void *buf,
                                      size_t bytes, size_t offset, enum cudaMemcpyKind kind,
                                      int to_symbol)
{
    tl_emu_globals_begin();
    const char *call = to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
    if (settle())
        return sticky_error;
    const struct asan_global *g = tl_emu_global_at((uintptr_t)symbol);
    if (!g || tl_emu_is_shared(g) || (uintptr_t)symbol != g->beg)
        return tl_emu_fail(cudaErrorInvalidSymbol, "%s: not a __device__ or __constant__ variable "
                           "of the file", call);
    if (offset > symbol_bytes || bytes > symbol_bytes - offset)
        return tl_emu_fail(cudaErrorInvalidValue, "%s: %zu bytes at offset %zu of %s, a %zu-byte "
                           "variable", call, bytes, offset, g->name, symbol_bytes);
    if (kind == cudaMemcpyDefault)
        kind = tl_emu_in_arena((uintptr_t)buf) ? cudaMemcpyDeviceToDevice
                                               : to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    int from_device = kind == cudaMemcpyDeviceToDevice;
    if (kind != cudaMemcpyDeviceToDevice && kind != (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
        return tl_emu_fail(cudaErrorInvalidMemcpyDirection, "%s: direction %d", call, (int)kind);
    /* As a GPU's plan has it (plan_record.c): into a variable from anywhere, out of one to the device. */
    if (lab_running && !to_symbol && !from_device)
        return tl_emu_refused_in_lab("your code called cudaMemcpyFromSymbol to the host: a lab's function "
                              "launches its work and returns, and the kit copies the results (lab.h)");
    cudaError_t err = check_range(buf, bytes, from_device, call, to_symbol ? "source" : "destination");
    if (!err)
        err = reached(g, call, to_symbol ? "destination" : "source");
    if (err)
        return err;
    char *var = (char *)symbol + offset;
    tl_emu_device_memory(1);
    memmove(to_symbol ? var : (char *)buf, to_symbol ? (char *)buf : var, bytes);
    tl_emu_device_memory(0);
    tl_emu_globals_settle();
    /* A copy of the lab's moves what cudaMemcpy's does: a variable is device memory, and
     * from the host only its writes are the device's. */
    if (lab_running)
        tl_emu_count_copy(call, to_symbol ? (from_device ? (uintptr_t)buf : 0) : (uintptr_t)var, bytes,
                          to_symbol ? (uintptr_t)var : (uintptr_t)buf, bytes, bytes, 1);
    return cudaSuccess;
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
    int driver, runtime;
    if (!tl_emu_device_versions(&driver, &runtime, count))
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

static unsigned int device_flags;
static enum cudaFuncCache cache_config;
static enum cudaSharedMemConfig bank_config;

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    if (flags & ~(unsigned)cudaDeviceMask)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaSetDeviceFlags: flags 0x%x", flags);
    device_flags = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaGetDeviceFlags: the pointer to the result is NULL");
    *flags = device_flags;
    return cudaSuccess;
}

/* Preferences for how an SM splits its memory: kept and given back, with no effect here. */
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
    cache_config = config;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config)
{
    if (config)
        *config = cache_config;
    return config ? cudaSuccess : tl_emu_fail(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig: NULL");
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    bank_config = config;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config)
{
    if (config)
        *config = bank_config;
    return config ? cudaSuccess : tl_emu_fail(cudaErrorInvalidValue, "cudaDeviceGetSharedMemConfig: NULL");
}

/* cudaDeviceSetLimit's: the stack, printf's buffer, malloc's heap in kernels, ... */
static size_t limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 32, 0};

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    if ((unsigned)limit >= sizeof limits / sizeof *limits)
        return tl_emu_fail(cudaErrorUnsupportedLimit, "cudaDeviceSetLimit: limit %d", (int)limit);
    limits[limit] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
    if ((unsigned)limit >= sizeof limits / sizeof *limits)
        return tl_emu_fail(cudaErrorUnsupportedLimit, "cudaDeviceGetLimit: limit %d", (int)limit);
    if (!value)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaDeviceGetLimit: the pointer to the result is NULL");
    *value = limits[limit];
    return cudaSuccess;
}

/* As CUDA's: 0 the least priority, -5 the greatest (a number is a preference; one queue here). */
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
    if (!can)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaDeviceCanAccessPeer: NULL");
    if (device != 0 || peer != 0)
        return tl_emu_fail(cudaErrorInvalidDevice, "the emulator has one device, number 0");
    *can = 0;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version)
{
    if (!version)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaDriverGetVersion: NULL");
    int runtime, devices;
    if (!tl_emu_device_versions(version, &runtime, &devices))
        *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version)
{
    int driver, devices;
    if (!version)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaRuntimeGetVersion: NULL");
    if (!tl_emu_device_versions(&driver, version, &devices))
        *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    (void)prop;
    if (!device)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaChooseDevice: NULL");
    *device = 0;
    return cudaSuccess;
}

/*
 * An H100, as CUDA 13 describes it (plots/data/launch-limits-h100.txt): its limits a
 * block and an SM, compute capability 9.0, and its SMs (TL_EMU_SMS), whose blocks the
 * emulator runs one after another.
 */
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (device != 0)
        return tl_emu_fail(cudaErrorInvalidDevice, "the emulator has one device, number 0");
    if (!prop)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaGetDeviceProperties: the pointer to the "
                           "result is NULL");
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "tilelab CPU emulator (no GPU)");
    prop->totalGlobalMem = tl_meminfo("MemTotal");
    prop->sharedMemPerBlock = 48 << 10;
    prop->regsPerBlock = 65536;
    prop->warpSize = 32;
    prop->memPitch = 2147483647;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 0x7fffffff;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->totalConstMem = 64 << 10;
    prop->major = 9;
    prop->minor = 0;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
    prop->multiProcessorCount = TL_EMU_SMS;
    prop->canMapHostMemory = 1;
    prop->concurrentKernels = 1;
    prop->asyncEngineCount = 1;
    prop->unifiedAddressing = 1;
    prop->streamPrioritiesSupported = 1;
    prop->globalL1CacheSupported = prop->localL1CacheSupported = 1;
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->maxBlocksPerMultiProcessor = 32;
    prop->sharedMemPerMultiprocessor = 228 << 10;
    prop->regsPerMultiprocessor = 65536;
    prop->sharedMemPerBlockOptin = TL_EMU_DYNAMIC_SHARED_BYTES;
    prop->reservedSharedMemPerBlock = 1 << 10;
    tl_emu_device_properties(prop); /* where a GPU grades, that GPU's (device.c) */
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    struct cudaDeviceProp p;
    cudaError_t err = cudaGetDeviceProperties(&p, device);
    if (err)
        return err;
    if (!value)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: the pointer to the "
                           "result is NULL");
    if (tl_emu_device_attr((int)attr, value)) /* where a GPU grades, that GPU's (device.c) */
        return cudaSuccess;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxPitch: *value = (int)p.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrTextureAlignment: *value = (int)p.textureAlignment; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = (int)p.reservedSharedMemPerBlock; break;
    default: *value = 0; break; /* clocks, bus width, L2, managed memory: an emulator has none */
    }
    return cudaSuccess;
}

/*
 * How many blocks of block_size threads one SM holds at once, by the limits
 * of an H100 SM (cudaGetDeviceProperties): threads,
 * in whole warps, blocks, registers, and shared memory, each block's
 * dynamic shared memory, its static arrays and the runtime's reserve
 * (kernels.c). A kernel's registers and static arrays count where they are
 * known (ptxas's report, once the kernel is registered or has run); where
 * not, the answer is the most a GPU could hold, which a real one may lower.
 * As CUDA 13 on the H100: a block of no threads is an invalid value, one
 * too large or asking for more dynamic shared memory than the kernel may
 * have fits 0 times.
 */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *kernel,
                                                          int block_size, size_t dynamic_shared)
{
    if (!blocks)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: the "
                                                  "pointer to the result is NULL");
    if (block_size <= 0)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: a "
                                                  "block of %d threads", block_size);
    uintptr_t fn = tl_emu_function_at((uintptr_t)kernel) == (uintptr_t)kernel ? (uintptr_t)kernel : 0;
    *blocks = tl_emu_blocks_per_sm(tl_emu_kernel_at(fn), block_size, dynamic_shared);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *kernel,
                                                                   int block_size,
                                                                   size_t dynamic_shared,
                                                                   unsigned int flags)
{
    (void)flags;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, block_size, dynamic_shared);
}

/* The dynamic shared memory each of blocks blocks of block_size threads may have on one SM. */
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *kernel, int blocks,
                                                      int block_size)
{
    struct cudaDeviceProp p;
    if (!bytes || blocks <= 0 || block_size <= 0)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaOccupancyAvailableDynamicSMemPerBlock: no "
                           "result pointer, or no blocks or threads");
    cudaGetDeviceProperties(&p, 0);
    size_t lo = 0, hi = p.sharedMemPerBlockOptin;
    int n;
    /* The most bytes that still fit blocks blocks, by the occupancy rule itself. */
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, block_size, mid);
        if (n >= blocks)
            lo = mid;
        else
            hi = mid - 1;
    }
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, block_size, lo);
    *bytes = n >= blocks ? lo : 0;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    if (!tl_emu_device_meminfo(free_bytes, total_bytes)) {
        *free_bytes = tl_meminfo("MemAvailable");
        *total_bytes = tl_meminfo("MemTotal");
    }
    return settle();
}
