/*
 * The CPU emulator: device memory, the runtime calls the labs use, kernel
 * launches, __syncthreads(), and a check and count of every memory access.
 *
 * Blocks run one after another. The threads of a block are fibers, run in
 * order of their linear index; each runs until it reaches __syncthreads()
 * or ends, and the block's barrier opens once every thread has arrived.
 * So thread 0 always finishes a phase before thread 1 starts it: a kernel
 * that reads shared memory another thread has not written yet (a missing
 * __syncthreads()) reads the poison the array was filled with, every time.
 *
 * The lab file is compiled with gcc's AddressSanitizer instrumentation in
 * its out-of-line form (asan-instrumentation-with-call-threshold=0): every
 * load and store calls one of the __asan_load/__asan_store functions below,
 * which check it against the device allocations, the __shared__ arrays
 * (whose bounds and red zones the instrumentation registers) and the
 * thread's own stack, and record it for the counters of emu.h.
 *
 * This file holds the threads, the check and count of their accesses, and
 * the launch; runtime.c the runtime's calls (errors, device memory, the
 * device), shared.c the lab file's statics and __shared__ arrays, and
 * emulator.h what the three share.
 */
#define _GNU_SOURCE
#include "cuda_runtime.h"
#include "device_functions.h"
#include "emu.h"
#include "emulator.h"
#include "fiber.h"
#include "launch.h"
#include "memory_cost.h"
#include "sites.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* ---------------------------------------------------------------- threads */

#define STACK_BYTES ((size_t)64 << 10)

enum { READY, AT_BARRIER, AT_WARP, DONE };
/* BARRIER: not an access, where a thread passed __syncthreads() (no instruction spans one).
 * Atomics come after: nvcc never merges them, so they have no widths (tl_sites). */
enum { GLOBAL_LOAD = TL_SITE_GLOBAL_LOAD, GLOBAL_STORE = TL_SITE_GLOBAL_STORE,
       SHARED_LOAD = TL_SITE_SHARED_LOAD, SHARED_STORE = TL_SITE_SHARED_STORE, KINDS = TL_SITE_KINDS,
       BARRIER = KINDS, GLOBAL_ATOMIC, SHARED_ATOMIC, CONSTANT_LOAD };

/* One access of one thread: pc is the instruction (the call site of the check). */
typedef struct {
    uintptr_t addr, pc;
    uint32_t size;
    uint32_t kind;
} access_record;

typedef struct {
    tl_fiber *fiber;
    int state;
    uint3 idx;
    const char *barrier_file; /* the __syncthreads() it waits at */
    int barrier_line;
    int barrier_op, barrier_pred, barrier_result; /* __syncthreads_count() and the like */
    tl_emu_warp_call *call;   /* the warp collective it waits at */
    struct pending_copy *copies; /* its __pipeline_memcpy_async copies not waited for yet */
    size_t n_copies, cap_copies;
    unsigned long batch; /* __pipeline_commit()s so far */
    access_record *rec;
    size_t n_rec, cap_rec;
    unsigned outside;    /* its first access outside a named matrix's elements: outside_kinds[outside - 1] */
    uintptr_t outside_at; /* and where */
} emu_thread;

struct tl_emu_builtins tl_emu_builtin = {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 32};

static emu_thread threads[TL_EMU_MAX_THREADS];
static char *stacks;
static int current = -1; /* the running thread, -1 outside kernels */
static int aborted;
static tl_emu_body body;
static void *body_args;
static size_t body_args_bytes;
static const char *kernel_name;

/* The launch that is running: where it is, its dynamic shared memory, and whether its
 * kernel's first line has checked it yet (tl_emu_cuda_kernel_entry), and refused it. */
static const char *launch_file;
static int launch_line, launch_entered;
static size_t launch_dynamic;
static cudaError_t launch_refused;
static dim3 launch_grid, launch_block;

/*
 * The counts, in the kit's pages (kit_pages.c), which the lab's code may
 * read and never write: whether counting is on, the counts of each kernel
 * (all its launches), the current launch's kernel and unit of work (made.c,
 * its own counts apart from the kernel's other launches), the launches
 * counted, and what to call after each block. Bookkeeping opens the pages
 * for its writes; a kernel's threads and the lab's host code run with them
 * closed.
 */
typedef struct {
    int counting;
    int n_stats;
    long profiled_launches;
    tl_emu_stats stats[64];
    tl_emu_stats *kernel_stats, *unit_stats;
    tl_emu_progress_fn *progress;
    int n_launches; /* every launch since tl_emu_launches_reset, counted or not */
    tl_launch launch[TL_MAX_LAUNCHES];
} counts_state;

_Static_assert(TL_EMU_KIT_COUNTS + sizeof(counts_state) <= TL_EMU_KIT_MADE, "the counts overlap made.c's state");
#define C TL_EMU_KIT_STATE(counts_state, TL_EMU_KIT_COUNTS)
#define profiling (C->counting)

static void finish_copies(emu_thread *t, unsigned long before);
static inline __attribute__((always_inline)) void find_unseen_stores(int going_on);

static void thread_main(void)
{
    body(body_args);
    find_unseen_stores(0);
    /* Copies a thread never waited for still land, as a GPU's do, once it has ended. */
    finish_copies(&threads[current], (unsigned long)-1);
    threads[current].state = DONE;
    tl_fiber_switch(threads[current].fiber, tl_fiber_main());
}

static void record(uintptr_t a, uintptr_t pc, size_t size, int kind);
static void check_race(uintptr_t a, size_t size, int kind, uintptr_t pc);
static void remember_global_read(uintptr_t a, size_t size, uintptr_t pc, const struct asan_global *g);
static void forget_global_reads_of(uintptr_t a, size_t size);

void tl_emu_syncthreads_at(const char *file, int line)
{
    tl_emu_cuda_syncthreads(TL_SYNC_PLAIN, 0, file, line);
}

int tl_emu_cuda_syncthreads(int op, int predicate, const char *file, int line)
{
    if (current < 0)
        return predicate != 0; /* a block of one thread */
    find_unseen_stores(0);
    if (profiling)
        record(0, 0, 0, BARRIER);
    emu_thread *t = &threads[current];
    t->state = AT_BARRIER;
    t->barrier_file = file;
    t->barrier_line = line;
    t->barrier_op = op;
    t->barrier_pred = predicate != 0;
    tl_fiber_switch(t->fiber, tl_fiber_main());
    return t->barrier_result;
}

void tl_emu_warp_wait(tl_emu_warp_call *call)
{
    if (current < 0) {
        /* Host code: a warp of one lane (nvcc refuses the call; the emulator's checks may not). */
        tl_emu_warp_call *lone[32] = {call};
        tl_emu_warp_exchange(lone, 1, NULL);
        return;
    }
    find_unseen_stores(0);
    threads[current].call = call;
    threads[current].state = AT_WARP;
    tl_fiber_switch(threads[current].fiber, tl_fiber_main());
}

static const char *where(void)
{
    static char buf[160];
    uint3 t = tl_emu_builtin.threadIdx, b = tl_emu_builtin.blockIdx;
    snprintf(buf, sizeof buf, "thread (%u, %u, %u) of block (%u, %u, %u) of %s", t.x, t.y, t.z,
             b.x, b.y, b.z, kernel_name);
    return buf;
}

/* A fault ends the kernel; the error shows at the next synchronisation, as on a GPU.
 * a_gpu_fails: whether a GPU fails the kernel too (an illegal address), or runs on with
 * whatever comes of it (a race, threads at different barriers), where the emulator's error
 * is its own verdict, which the student must read first (tl_emu_error_is_its_own, emu.h). */
static void kernel_failed(cudaError_t err, int a_gpu_fails, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_emu_fault_later(err, !a_gpu_fails, fmt, ap);
    va_end(ap);
    aborted = 1;
}

/* An access no GPU would allow: report it, and end the kernel here. */
__attribute__((noreturn)) static void fault_as(cudaError_t err, int a_gpu_fails, const char *what)
{
    kernel_failed(err, a_gpu_fails, "%s: %s", where(), what);
    tl_fiber_switch(threads[current].fiber, tl_fiber_main());
    abort(); /* an aborted thread is never resumed */
}

__attribute__((noreturn)) static void fault(cudaError_t err, const char *fmt, ...)
{
    char what[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fault_as(err, 1, what);
}

/*
 * A failed assert(): inside a kernel, what a GPU prints and
 * cudaErrorAssert at the next synchronisation; on the host, glibc's.
 */
void __assert_fail(const char *expr, const char *file, unsigned int line, const char *function);
void __assert_fail(const char *expr, const char *file, unsigned int line, const char *function)
{
    if (current < 0) {
        fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n",
                program_invocation_short_name, file, line, function, expr);
        abort();
    }
    uint3 t = tl_emu_builtin.threadIdx, b = tl_emu_builtin.blockIdx;
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
            file, line, function, b.x, b.y, b.z, t.x, t.y, t.z, expr);
    fault(cudaErrorAssert, "assert(%s) failed at %s:%u", expr, file, line);
}

/*
 * A thread's accesses are kept until it reaches a barrier or its end. One
 * that does neither (an endless loop) would fill the machine's memory with
 * them: past this many, 800 MB of records and more than any kernel of the
 * labs makes at the sizes the kit runs, it is stopped as a GPU's watchdog
 * stops a kernel that runs too long.
 */
#define MAX_RECORDS ((size_t)1 << 25)

static void record(uintptr_t a, uintptr_t pc, size_t size, int kind)
{
    emu_thread *t = &threads[current];
    if (t->n_rec == MAX_RECORDS)
        fault(cudaErrorLaunchTimeout, "this thread made %zu memory accesses without reaching a "
              "barrier or its end: an endless loop? (a loop whose condition never changes, or an "
              "index that never moves)", MAX_RECORDS);
    if (t->n_rec == t->cap_rec) {
        size_t cap = t->cap_rec ? 2 * t->cap_rec : 64;
        access_record *grown = realloc(t->rec, cap * sizeof *grown);
        if (!grown)
            abort();
        t->rec = grown;
        t->cap_rec = cap;
    }
    t->rec[t->n_rec++] = (access_record){a, pc, (uint32_t)size, (uint32_t)kind};
}

/* An access wider than any instruction (a struct copied whole, memcpy in device code) is
 * recorded as the 16-byte pieces a copy loop would move. */
static void record_span(uintptr_t a, uintptr_t pc, size_t size, int kind)
{
    if (size <= 16) {
        record(a, pc, size, kind);
        return;
    }
    for (uintptr_t end = a + size; a < end;) {
        size_t piece = 16 - (a & 15);
        if (piece > end - a)
            piece = end - a;
        record(a, pc, piece, kind);
        a += piece;
    }
}

static const char *verb(int kind)
{
    return kind == GLOBAL_LOAD ? "read" : kind == GLOBAL_STORE ? "wrote" : "atomically updated";
}

static void host_touches_device(uintptr_t a, int kind)
{
    fprintf(stderr,
            "tilelab emulator: host code %s device memory at %p.\n"
            "A pointer from cudaMalloc can only be used inside a kernel or with cudaMemcpy; on a "
            "GPU this crashes too.\n",
            verb(kind), (void *)a);
    abort();
}

/*
 * One access of size bytes at a, of kind GLOBAL_LOAD, GLOBAL_STORE or
 * GLOBAL_ATOMIC (its shared twin where a is shared memory), by the
 * instruction at pc: checked, and recorded where counting is on. Device
 * memory is a cudaMalloc allocation or a __device__ variable of the lab
 * file (any of its statics but __shared__ arrays: a kernel reaches no other).
 */
/* The running block's index in the grid, x first. */
static uint32_t block_index(void)
{
    uint3 b = tl_emu_builtin.blockIdx, g = tl_emu_builtin.gridDim;
    return (b.z * g.y + b.y) * g.x + b.x;
}

/*
 * Accesses outside a lab's matrices, in the kit's margins around them or
 * past them: the thread that makes one lies past the matrix's edge (no
 * kernel of a lab's reads or writes there), and a race between blocks it
 * then writes into is its bounds test's, not blocks sharing a value
 * (check_block_race). Each kind of them a launch makes (a matrix, a load or
 * a store, past its end or before its start; 15 at most) is a row here, and
 * a thread keeps its first: its row and its address.
 */
typedef struct {
    const char *name;
    size_t elements;
    int store, past_end;
} outside_kind;
#define OUTSIDE_KINDS 15
static outside_kind outside_kinds[OUTSIDE_KINDS];
static int n_outside_kinds;

static __attribute__((noinline)) void note_outside(const tl_emu_allocation *al, uintptr_t a, int kind)
{
    if (current < 0 || threads[current].outside)
        return;
    outside_kind k = {al->name, al->data_bytes / 4, kind != GLOBAL_LOAD,
                      a >= al->base + al->data_offset + al->data_bytes};
    int i = 0;
    while (i < n_outside_kinds && !(outside_kinds[i].name == k.name && outside_kinds[i].store == k.store &&
                                    outside_kinds[i].past_end == k.past_end))
        i++;
    if (i == OUTSIDE_KINDS)
        return;
    if (i == n_outside_kinds)
        outside_kinds[n_outside_kinds++] = k;
    threads[current].outside = (unsigned)i + 1, threads[current].outside_at = a;
}

/* An access of size bytes at a in al: outside its matrix's elements, where it has some. */
static inline void check_outside(const tl_emu_allocation *al, uintptr_t a, size_t size, int kind)
{
    if (al->name && (a < al->base + al->data_offset || a + size > al->base + al->data_offset + al->data_bytes))
        note_outside(al, a, kind);
}

/* The running thread as block_race.c keeps it with a word it stores: its index in the block,
 * and above it its first access outside a matrix, if any. */
#define WRITER_THREAD_BITS 10
static uint16_t writer_now(void)
{
    return current < 0 ? 0 : (uint16_t)(current | threads[current].outside << WRITER_THREAD_BITS);
}

/* A store into a small cudaMalloc allocation (a lab's one-float *d_out, a vector of partial
 * sums) is checked for races between blocks as a __device__ variable's is (block_race.c):
 * *d_out += sum from every block, a read-modify-write of one word, loses all but one block's
 * sum on a GPU. The matrices, which every block writes a part of, are left out: a shadow of
 * them would cost as much again. */
#define SMALL_ALLOCATION ((size_t)64 << 10)
static void block_race_store_in(const tl_emu_allocation *al, uintptr_t a, size_t size, uintptr_t pc,
                                const void *was)
{
    if (al && al->size <= SMALL_ALLOCATION)
        tl_emu_block_race_stored(al->base, al->size, a, size, block_index(), writer_now(), pc, was);
}

/* Host code's access to a variable of the lab file that a kernel reached (shared.c,
 * tl_emu_global_reached): refused, as device memory is. */
static __attribute__((noinline)) void host_touches_variable(const struct asan_global *g, int kind, int kernel)
{
    fprintf(stderr,
            "tilelab emulator: host code %s the variable %s, which a kernel %s.\n"
            "A variable is host memory or device memory, never both: on a GPU a kernel reaches "
            "__device__ and __constant__ variables, never a host one (a pointer to it faults "
            "there), and host code reaches those only through cudaMemcpyToSymbol and "
            "cudaMemcpyFromSymbol (a pointer from cudaGetSymbolAddress crashes it, and the "
            "variable's name reaches a host copy that no kernel sees).\n",
            verb(kind), tl_emu_global_name(g), kernel & TL_KERNEL_WROTE ? "wrote" : "read");
    abort();
}

/* check_access of an access by host code (no thread runs). */
static __attribute__((noinline)) void check_host_access(uintptr_t a, int kind)
{
    if (tl_emu_has_arena() && tl_emu_in_arena(a))
        host_touches_device(a, kind);
    const struct asan_global *g = tl_emu_global_at(a);
    int kernel = g ? tl_emu_global_reached(g, 0, kind != GLOBAL_LOAD) : 0;
    if (kernel)
        host_touches_variable(g, kind, kernel);
}

/* Where an access lies past a named matrix's elements, for a message: "at in[211024], where in
 * has 210000 elements (in[0] .. in[209999])". */
static const char *element_past(const tl_emu_allocation *al, uintptr_t a, char *buf, size_t len)
{
    snprintf(buf, len, "at %s[%zu], where %s has %zu elements (%s[0] .. %s[%zu])", al->name,
             (size_t)(a - al->base - al->data_offset) / 4, al->name, al->data_bytes / 4, al->name,
             al->name, al->data_bytes / 4 - 1);
    return buf;
}

static const char *line_at(uintptr_t pc, char *buf, size_t len);
static int stray_told; /* once a launch */

/*
 * An access past the end of an allocation (and of the kit's margin after a matrix), inside
 * the 2 MiB page a GPU maps it in (tl_emu_allocation_mapped): a GPU does not fault there, and
 * the kernel runs on, reading what lies there, which the emulator makes the margin's NaN, so
 * that a result that uses it shows where it came from; a store lands there, where on a GPU it
 * may change another allocation. Told once a launch, so that a test that fails for it, or for
 * anything else, says which index ran off.
 */
static __attribute__((noinline)) void stray_access(const tl_emu_allocation *al, uintptr_t a,
                                                   size_t size, int kind, uintptr_t pc)
{
    if (stray_told)
        return;
    stray_told = 1;
    char at[320], line[256];
    if (al->name && a >= al->base + al->data_offset + al->data_bytes) {
        size_t n = strlen(element_past(al, a, at, sizeof at));
        snprintf(at + n, sizeof at - n, ", past the %zu bytes of margin the kit keeps after it too",
                 al->size - al->data_offset - al->data_bytes);
    } else
        snprintf(at, sizeof at, "at %zu bytes past the end of a %zu-byte cudaMalloc allocation",
                 (size_t)(a - al->base - al->size), al->size);
    fprintf(stderr,
            "tilelab emulator: %s %s %zu bytes %s, at %s: an index out of bounds. A GPU maps device "
            "memory in 2 MiB pages, so it does not fault there but %s (compute-sanitizer --tool "
            "memcheck names it), and so the emulator runs on%s (told once a launch)\n",
            where(), verb(kind), size, at, line_at(pc, line, sizeof line),
            kind == GLOBAL_LOAD ? "reads whatever lies there" : "changes whatever lies there, "
            "which may be another allocation",
            kind == GLOBAL_LOAD ? ", reading NaN there: a result that uses it shows it" : "");
}

/* check_access of a running thread's access to what is not its own variables. */
static __attribute__((noinline)) void check_device_access(uintptr_t a, size_t size, int kind, uintptr_t pc)
{
    int shared_kind = kind == GLOBAL_ATOMIC ? SHARED_ATOMIC : kind + 2;
    if (tl_emu_in_arena(a)) {
        const tl_emu_allocation *in = tl_emu_allocation_of(a, size), *al;
        if (in)
            check_outside(in, a, size, kind);
        if (!in && (al = tl_emu_allocation_mapped(a, size)) != NULL) {
            check_outside(al, a, size, kind);
            stray_access(al, a, size, kind, pc);
        } else if (!in) {
            char at[320];
            al = tl_emu_allocation_near(a);
            if (al && al->freed && a < al->base + al->size)
                fault(cudaErrorIllegalAddress, "%s %zu bytes of device memory that was freed "
                      "with cudaFree", verb(kind), size);
            else if (al && !al->freed && al->name)
                fault(cudaErrorIllegalAddress, "%s %zu bytes %s: an index out of bounds, past the "
                      "%zu bytes of margin the kit keeps after it too, and past the 2 MiB page a "
                      "GPU maps it in",
                      verb(kind), size, element_past(al, a, at, sizeof at),
                      al->size - al->data_offset - al->data_bytes);
            else if (al && !al->freed)
                fault(cudaErrorIllegalAddress, "%s %zu bytes at %zu bytes past the end of a "
                      "%zu-byte %s allocation (an index out of bounds%s)",
                      verb(kind), size, (size_t)(a - al->base - al->size), al->size,
                      al->in_kernel ? "kernel malloc" : "cudaMalloc",
                      al->in_kernel ? "" : ", past the 2 MiB page a GPU maps it in");
            else
                fault(cudaErrorIllegalAddress, "%s %zu bytes of device memory that belongs to "
                      "no allocation", verb(kind), size);
        }
        if ((size & (size - 1)) == 0 && a % size)
            fault(cudaErrorMisalignedAddress, "%s %zu bytes at an address that is not a multiple "
                  "of %zu", verb(kind), size, size);
        if (kind == GLOBAL_LOAD)
            remember_global_read(a, size, pc, NULL);
        else
            forget_global_reads_of(a, size);
        if (kind == GLOBAL_STORE)
            block_race_store_in(in, a, size, pc, (const void *)a);
        if (profiling)
            record_span(a, pc, size, kind);
        return;
    }
    uintptr_t dynamic = (uintptr_t)tl_emu_cuda_dynamic_shared;
    if (a - dynamic < TL_EMU_DYNAMIC_SHARED_BYTES) {
        if (a + size > dynamic + launch_dynamic)
            fault(cudaErrorIllegalAddress, "%s %zu bytes at byte %zu of the dynamic shared memory "
                  "(extern __shared__), past its end: the launch gave the block %zu bytes (the "
                  "third <<< >>> argument)", verb(kind), size, (size_t)(a - dynamic), launch_dynamic);
        if ((size & (size - 1)) == 0 && a % size)
            fault(cudaErrorMisalignedAddress, "%s %zu bytes of dynamic shared memory at byte %zu, "
                  "not a multiple of %zu", verb(kind), size, (size_t)(a - dynamic), size);
        check_race(a, size, kind, pc);
        if (profiling)
            record_span(a, pc, size, shared_kind);
        return;
    }
    const struct asan_global *g = tl_emu_global_at(a);
    if (g && a + size <= g->beg + g->size) {
        int shared = tl_emu_is_shared(g), constant = !shared && tl_emu_is_constant(g);
        if (!shared && (size & (size - 1)) == 0 && a % size)
            fault(cudaErrorMisalignedAddress, "%s %zu bytes of the variable %s at an address that "
                  "is not a multiple of %zu", verb(kind), size, tl_emu_global_name(g), size);
        if (constant && kind != GLOBAL_LOAD)
            fault(cudaErrorIllegalAddress, "%s the __constant__ variable %s: kernels only read "
                  "constant memory (the host writes it, with cudaMemcpyToSymbol)", verb(kind), g->name);
        int host = shared ? 0 : tl_emu_global_reached(g, 1, kind != GLOBAL_LOAD);
        if (host)
            fault(cudaErrorIllegalAddress, "%s the variable %s, which host code %s (by an access "
                  "of its own, or through a C library function): a variable is "
                  "host memory or device memory, never both. A kernel reaches a __device__ or "
                  "__constant__ variable, which host code fills and reads only through "
                  "cudaMemcpyToSymbol and cudaMemcpyFromSymbol, and no host variable",
                  verb(kind), tl_emu_global_name(g), host & TL_HOST_WROTE ? "wrote" : "read");
        if (shared)
            check_race(a, size, kind, pc);
        else if (kind == GLOBAL_STORE)
            tl_emu_block_race_store(g->beg, g->size, a, size, block_index(), writer_now(), pc);
        if (!shared && !constant && kind == GLOBAL_LOAD)
            remember_global_read(a, size, pc, g);
        else if (!shared && !constant)
            forget_global_reads_of(a, size);
        if (profiling)
            record_span(a, pc, size, shared ? shared_kind : constant ? CONSTANT_LOAD : kind);
        return;
    }
    if (g)
        fault(cudaErrorIllegalAddress, "%s %s %s at byte %zu, past its end (%zu bytes): an "
              "index out of bounds", verb(kind),
              tl_emu_is_shared(g) ? "the __shared__ array" : "the variable", tl_emu_global_name(g),
              (size_t)(a - g->beg), (size_t)g->size);
    /* The __shared__ arrays of template kernels: bounds from the symbol table, no red zones. */
    if (tl_emu_in_static(a, size)) {
        check_race(a, size, kind, pc);
        if (profiling)
            record_span(a, pc, size, shared_kind);
        return;
    }
    fault(cudaErrorIllegalAddress, "%s %zu bytes at %p, which is neither device memory, nor a "
          "__shared__ array, nor the thread's own variables: a host pointer (to a host array, or "
          "a variable of the function that launched the kernel) passed to the kernel?",
          verb(kind), size, (void *)a);
}

/* The references by which rewrite's kernels reach the variables of namespace scope
 * (cuda_runtime.h's TL_EMU_REF_SECTION): reading one moves no memory a kernel names. A
 * variable of the lab's own put in that section is no device memory: its stores and any
 * access but a pointer's load fault, as a host variable's do (it is never registered). */
extern char __start_tl_refs[] __attribute__((weak));
extern char __stop_tl_refs[] __attribute__((weak));

/* Inline in each of the instrumentation's entry points below: most accesses are a thread's
 * own (its variables, threadIdx and the like, the kernel's arguments), and cost two tests. */
static inline __attribute__((always_inline)) void check_access(uintptr_t a, size_t size, int kind, uintptr_t pc)
{
    if (current < 0) {
        check_host_access(a, kind);
        return;
    }
    find_unseen_stores(1);
    /* The thread's own variables first, its commonest accesses (a register tile is an array on
     * its stack here): nothing to check, nothing to count. No other memory overlaps them. */
    uintptr_t stack = (uintptr_t)stacks + (size_t)current * STACK_BYTES;
    if (a - stack < STACK_BYTES || a - (uintptr_t)&tl_emu_builtin < sizeof tl_emu_builtin ||
        a - (uintptr_t)body_args < body_args_bytes ||
        (kind == GLOBAL_LOAD && size == sizeof(void *) && a - (uintptr_t)__start_tl_refs < (uintptr_t)(__stop_tl_refs - __start_tl_refs)))
        return;
    check_device_access(a, size, kind, pc);
}

/* The instrumentation's entry points: one per access size, loads and stores. The
 * address they return to tells one instruction from another. */
#define TL_PC ((uintptr_t)__builtin_return_address(0))
#define TL_ASAN_SIZED(n)                                                         \
    void __asan_load##n(uintptr_t a);                                            \
    void __asan_load##n(uintptr_t a) { check_access(a, n, 0, TL_PC); }           \
    void __asan_store##n(uintptr_t a);                                           \
    void __asan_store##n(uintptr_t a) { check_access(a, n, 1, TL_PC); }          \
    void __asan_load##n##_noabort(uintptr_t a);                                  \
    void __asan_load##n##_noabort(uintptr_t a) { check_access(a, n, 0, TL_PC); } \
    void __asan_store##n##_noabort(uintptr_t a);                                 \
    void __asan_store##n##_noabort(uintptr_t a) { check_access(a, n, 1, TL_PC); }
TL_ASAN_SIZED(1)
TL_ASAN_SIZED(2)
TL_ASAN_SIZED(4)
TL_ASAN_SIZED(8)
TL_ASAN_SIZED(16)

void __asan_loadN(uintptr_t a, uintptr_t n);
void __asan_loadN(uintptr_t a, uintptr_t n) { check_access(a, n, 0, TL_PC); }
void __asan_storeN(uintptr_t a, uintptr_t n);
void __asan_storeN(uintptr_t a, uintptr_t n) { check_access(a, n, 1, TL_PC); }
void __asan_loadN_noabort(uintptr_t a, uintptr_t n);
void __asan_loadN_noabort(uintptr_t a, uintptr_t n) { check_access(a, n, 0, TL_PC); }
void __asan_storeN_noabort(uintptr_t a, uintptr_t n);
void __asan_storeN_noabort(uintptr_t a, uintptr_t n) { check_access(a, n, 1, TL_PC); }

void *__asan_memcpy(void *dst, const void *src, size_t n);
void *__asan_memcpy(void *dst, const void *src, size_t n)
{
    check_access((uintptr_t)src, n, 0, TL_PC);
    check_access((uintptr_t)dst, n, 1, TL_PC);
    return memcpy(dst, src, n);
}
void *__asan_memmove(void *dst, const void *src, size_t n);
void *__asan_memmove(void *dst, const void *src, size_t n)
{
    check_access((uintptr_t)src, n, 0, TL_PC);
    check_access((uintptr_t)dst, n, 1, TL_PC);
    return memmove(dst, src, n);
}
void *__asan_memset(void *p, int c, size_t n);
void *__asan_memset(void *p, int c, size_t n)
{
    check_access((uintptr_t)p, n, 1, TL_PC);
    return memset(p, c, n);
}

/*
 * The C library's functions that a kernel may call as the Math API's own and
 * that store a result through a pointer (frexp, modf, remquo and sincos, and
 * their float forms) store it in code no instrumentation reaches: a kernel
 * that stored its output so moved it unseen, neither checked nor
 * counted: a naive transpose whose strided stores modf made (8 bytes, the low
 * 4 the element's, the high 4 written over next) scored 8.87 of 10 in lab 5,
 * its honest control 5.00 (tests/hostile/lab05-stores-by-modf.cu). The lab
 * file's calls come here (emu-compile.sh renames them): each result is made in
 * a variable of this file, then stored through the pointer as an access of
 * the instruction that called, checked and counted as its other stores are.
 */
#define TL_STORE_THROUGH(p, value, pc) (check_access((uintptr_t)(p), sizeof *(p), 1, (pc)), *(p) = (value))
#define TL_POINTER_MATHS(T, frexp_, modf_, remquo_, sincos_)                                       \
    T tl_emu_cuda_##frexp_(T x, int *e);                                                           \
    T tl_emu_cuda_##frexp_(T x, int *e)                                                            \
    {                                                                                              \
        int v;                                                                                     \
        T r = frexp_(x, &v);                                                                       \
        TL_STORE_THROUGH(e, v, TL_PC);                                                             \
        return r;                                                                                  \
    }                                                                                              \
    T tl_emu_cuda_##modf_(T x, T *whole);                                                          \
    T tl_emu_cuda_##modf_(T x, T *whole)                                                           \
    {                                                                                              \
        T v, r = modf_(x, &v);                                                                     \
        TL_STORE_THROUGH(whole, v, TL_PC);                                                         \
        return r;                                                                                  \
    }                                                                                              \
    T tl_emu_cuda_##remquo_(T x, T y, int *quo);                                                   \
    T tl_emu_cuda_##remquo_(T x, T y, int *quo)                                                    \
    {                                                                                              \
        int v;                                                                                     \
        T r = remquo_(x, y, &v);                                                                   \
        TL_STORE_THROUGH(quo, v, TL_PC);                                                           \
        return r;                                                                                  \
    }                                                                                              \
    void tl_emu_cuda_##sincos_(T x, T *s, T *c);                                                   \
    void tl_emu_cuda_##sincos_(T x, T *s, T *c)                                                    \
    {                                                                                              \
        T sv, cv;                                                                                  \
        uintptr_t pc = TL_PC;                                                                      \
        sincos_(x, &sv, &cv);                                                                      \
        TL_STORE_THROUGH(s, sv, pc);                                                               \
        TL_STORE_THROUGH(c, cv, pc);                                                               \
    }
TL_POINTER_MATHS(double, frexp, modf, remquo, sincos)
TL_POINTER_MATHS(float, frexpf, modff, remquof, sincosf)

/*
 * printf, in host code and in a kernel: the C library's, but for its %n, which stores the
 * count of what was printed so far through a pointer, in code no instrumentation reaches: a
 * kernel could store its output with %hhn a byte at a time, unseen (printf("probe%hhn",
 * out) changed out[0] so). CUDA's printf has no %n (its conversions are c, d, i, o, u, x, X,
 * p, e, E, f, g, G, a, A and s): a kernel that asks for one stops, with the emulator's reason.
 */
static int counts_what_it_printed(const char *format)
{
    for (const char *f = format; *f; f++) {
        if (*f != '%')
            continue;
        f += 1 + strspn(f + 1, "#0- +'I123456789.*$hlLqjzt");
        if (*f == 'n')
            return 1;
        if (!*f)
            break;
    }
    return 0;
}

int tl_emu_cuda_printf(const char *format, ...);
int tl_emu_cuda_printf(const char *format, ...)
{
    if (current >= 0 && counts_what_it_printed(format))
        fault_as(cudaErrorNotSupported, 0, "printf with %n, which stores how many characters it "
                 "printed through a pointer: CUDA's printf has no %n (its conversions are c d i o "
                 "u x X p e E f g G a A s), and the tilelab CPU emulator does not run it");
    va_list ap;
    va_start(ap, format);
    int n = vprintf(format, ap);
    va_end(ap);
    return n;
}

/* __trap(): the kernel stops, with the error a GPU gives it. */
void tl_emu_cuda_trap(const char *file, int line)
{
    if (current < 0)
        abort();
    fault(cudaErrorLaunchFailure, "__trap() at %s:%d stopped the kernel", file, line);
}

/* A grid-wide barrier (cooperative groups' this_grid().sync()) is valid only in a cooperative
 * launch (cudaLaunchCooperativeKernel), which no lab's call may make (lab.h): in a launch with
 * <<< >>> an H200 fails the kernel at the barrier, "unspecified launch failure", one block or
 * many. */
void tl_emu_cuda_grid_sync(const char *file, int line)
{
    if (current < 0)
        abort();
    fault(cudaErrorLaunchFailure,
          "this_grid().sync() at %s:%d: a grid-wide barrier is valid only in a cooperative launch "
          "(cudaLaunchCooperativeKernel), which a lab may not make; in a kernel launched with "
          "<<< >>> a GPU fails the kernel there (unspecified launch failure). Split the kernel in "
          "two at the barrier: launches on one stream run one after the other, so the second "
          "kernel sees all that the first one's blocks stored",
          file, line);
}

/* A call through a pointer from the lab file's code (indirect.c's thunks): in a kernel, its
 * target must be a function the file compiles, as on a GPU, where device code calls only
 * device code; a host function's address (a C library function passed from the host) is
 * no instruction of the GPU's, and there the kernel fails at the call. */
void tl_emu_called_through_pointer(uintptr_t target)
{
    if (current < 0 || tl_emu_is_lab_function(target))
        return;
    Dl_info info;
    const char *name = dladdr((void *)target, &info) && info.dli_sname ? info.dli_sname : NULL;
    fault(cudaErrorInvalidPc,
          "it called, through a function pointer, %s%s, which is not a __device__ function of "
          "your file: a kernel can call only device code, through a pointer as directly, and a "
          "host function's address (one taken in host code, such as a C library function passed "
          "as a kernel argument) is no instruction of the GPU's, which fails the kernel there "
          "(invalid program counter). Call a __device__ function of your own, or write the "
          "access itself in the kernel",
          name ? "the host function " : "", name ? name : "an address outside your file's code");
}

/*
 * cuda_pipeline.h's asynchronous copies: __pipeline_memcpy_async checks and
 * counts its access as it is asked (a global load, a shared store) and
 * keeps the copy; __pipeline_commit closes a batch of them; and
 * __pipeline_wait_prior(n) makes all but the last n batches land. So a
 * thread that reads the shared memory before it waits reads what was
 * there before (the poison of unwritten shared memory, at first), as a GPU
 * may have it read.
 */
struct pending_copy {
    uintptr_t dst, src;
    size_t bytes, zfill;
    unsigned long batch;
};

/* Whether a is in a __shared__ array or the dynamic shared memory. */
static int is_shared(uintptr_t a)
{
    const struct asan_global *g = tl_emu_global_at(a);
    return a - (uintptr_t)tl_emu_cuda_dynamic_shared < TL_EMU_DYNAMIC_SHARED_BYTES ||
           (g && tl_emu_is_shared(g)) || tl_emu_in_static(a, 1);
}

static void finish_copies(emu_thread *t, unsigned long before)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->n_copies; i++) {
        struct pending_copy *c = &t->copies[i];
        if (c->batch >= before) {
            t->copies[kept++] = *c;
            continue;
        }
        memcpy((void *)c->dst, (const void *)c->src, c->bytes - c->zfill);
        memset((char *)c->dst + c->bytes - c->zfill, 0, c->zfill);
    }
    t->n_copies = kept;
}

void tl_emu_cuda_pipeline_copy(void *dst, const void *src, size_t bytes, size_t zfill)
{
    uintptr_t pc = TL_PC;
    if (current < 0) {
        memcpy(dst, src, bytes - (zfill < bytes ? zfill : bytes));
        return;
    }
    if ((bytes != 4 && bytes != 8 && bytes != 16) || zfill > bytes)
        fault(cudaErrorInvalidValue, "__pipeline_memcpy_async of %zu bytes (zero-filling %zu): it "
              "copies 4, 8 or 16 bytes", bytes, zfill);
    if (!is_shared((uintptr_t)dst))
        fault(cudaErrorIllegalAddress, "__pipeline_memcpy_async copies into shared memory, and its "
              "destination %p is not a __shared__ array", dst);
    if (bytes > zfill)
        check_access((uintptr_t)src, bytes - zfill, GLOBAL_LOAD, pc);
    check_access((uintptr_t)dst, bytes, GLOBAL_STORE, pc);
    emu_thread *t = &threads[current];
    if (t->n_copies == t->cap_copies) {
        size_t cap = t->cap_copies ? 2 * t->cap_copies : 16;
        struct pending_copy *grown = realloc(t->copies, cap * sizeof *grown);
        if (!grown)
            abort();
        t->copies = grown, t->cap_copies = cap;
    }
    t->copies[t->n_copies++] = (struct pending_copy){(uintptr_t)dst, (uintptr_t)src, bytes, zfill, t->batch};
}

void tl_emu_cuda_pipeline_commit(void)
{
    if (current >= 0)
        threads[current].batch++;
}

void tl_emu_cuda_pipeline_wait(size_t prior)
{
    if (current < 0)
        return;
    emu_thread *t = &threads[current];
    find_unseen_stores(0);
    finish_copies(t, t->batch > prior ? t->batch - prior : 0);
}

unsigned long long tl_emu_cuda_sreg(int which)
{
    unsigned lane = current < 0 ? 0 : (unsigned)current % 32;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long ns = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
    struct tl_emu_builtins *b = &tl_emu_builtin;
    switch (which) {
    case TL_SREG_TID_X: return b->threadIdx.x;
    case TL_SREG_TID_Y: return b->threadIdx.y;
    case TL_SREG_TID_Z: return b->threadIdx.z;
    case TL_SREG_NTID_X: return b->blockDim.x;
    case TL_SREG_NTID_Y: return b->blockDim.y;
    case TL_SREG_NTID_Z: return b->blockDim.z;
    /* A launch without clusters is one of one block each (the PTX ISA): a cluster's index
     * and count are the block's, and a block is rank 0 of its cluster. */
    case TL_SREG_CTAID_X: case TL_SREG_CLUSTERID_X: return b->blockIdx.x;
    case TL_SREG_CTAID_Y: case TL_SREG_CLUSTERID_Y: return b->blockIdx.y;
    case TL_SREG_CTAID_Z: case TL_SREG_CLUSTERID_Z: return b->blockIdx.z;
    case TL_SREG_NCTAID_X: case TL_SREG_NCLUSTERID_X: return b->gridDim.x;
    case TL_SREG_NCTAID_Y: case TL_SREG_NCLUSTERID_Y: return b->gridDim.y;
    case TL_SREG_NCTAID_Z: case TL_SREG_NCLUSTERID_Z: return b->gridDim.z;
    case TL_SREG_CLUSTER_NCTAID_X: case TL_SREG_CLUSTER_NCTAID_Y: case TL_SREG_CLUSTER_NCTAID_Z:
    case TL_SREG_CLUSTER_NCTARANK: return 1;
    case TL_SREG_DYNAMIC_SMEM_SIZE: return launch_dynamic;
    case TL_SREG_GLOBALTIMER_LO: return (unsigned)ns;
    case TL_SREG_GLOBALTIMER_HI: return (unsigned)(ns >> 32);
    case TL_SREG_LANEID: return lane;
    case TL_SREG_WARPID: return current < 0 ? 0 : (unsigned)current / 32;
    case TL_SREG_NWARPID: return 64; /* an H100 SM's warps */
    case TL_SREG_NSMID: return TL_EMU_SMS; /* every block on SM 0 (%smid), of an H100's */
    case TL_SREG_LANEMASK_EQ: return 1u << lane;
    case TL_SREG_LANEMASK_LE: return (unsigned)((2ull << lane) - 1);
    case TL_SREG_LANEMASK_LT: return (1u << lane) - 1;
    case TL_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
    case TL_SREG_LANEMASK_GT: return (unsigned)~((2ull << lane) - 1);
    case TL_SREG_CLOCK: return (unsigned)ns;
    case TL_SREG_CLOCK_HI: return (unsigned)(ns >> 32);
    case TL_SREG_CLOCK64: case TL_SREG_GLOBALTIMER: return ns;
    default: return 0; /* smid, gridid, cluster_ctaid, cluster_ctarank, is_explicit_cluster */
    }
}

/* The lab file's malloc and free (emu-compile.sh renames them to these): in a kernel, the
 * device's heap; in host code, the C library's. */
void *tl_emu_cuda_malloc(size_t bytes)
{
    if (current < 0)
        return malloc(bytes);
    /* An in-place call's heap holds its own memory's few bytes (lab.h): a kernel's malloc of
     * a second matrix there is refused with the reason, where a GPU's would only return NULL
     * (a cheating helper's "in place" through a matrix from the heap scored 8.00 of 10, its
     * control 5.00, 2026-11-29: tests/hostile/lab09-device-heap-scratch.cu). */
    size_t cap = tl_emu_device_heap_capped(bytes);
    if (cap)
        fault(cudaErrorLaunchFailure, "malloc(%zu) in a kernel of an in-place call: an in-place transpose "
              "works in the matrix's own memory, and the device's heap holds at most %zu bytes of it "
              "beside your file's variables (TL_INPLACE_OWN_BYTES, lab.h: a counter, a few flags); a "
              "copy of the matrix from the heap is the second matrix lab 9 does without", bytes, cap);
    return tl_emu_device_malloc(bytes);
}

void tl_emu_cuda_free(void *p)
{
    if (current < 0)
        free(p);
    else if (p)
        tl_emu_device_free(p);
}

/* Global memory (where a float add flushes subnormals): device memory or a __device__
 * variable; shared memory is a __shared__ array, the dynamic shared memory, or a template
 * kernel's array, which is no variable the instrumentation lists. */
static int atomic_in_global(uintptr_t a)
{
    const struct asan_global *g;
    return tl_emu_in_arena(a) || ((g = tl_emu_global_at(a)) != NULL && !tl_emu_is_shared(g));
}

/* An atomic function of the lab file (device_atomic_functions.h): an access like any, counted
 * apart; the lanes of a warp never run at once, so it is atomic as it is. */
unsigned long long tl_emu_cuda_atomic(int op, int type, void *p, unsigned long long v,
                                      unsigned long long compare)
{
    check_access((uintptr_t)p, tl_emu_atomic_size(type), GLOBAL_ATOMIC, TL_PC);
    return tl_emu_atomic_apply(op, type, p, v, compare, atomic_in_global((uintptr_t)p));
}

/* atomicAdd on a vector (cuda_runtime.h): one access of its bytes. The PTX ISA has the float
 * vector forms (atom.add.v2.f32, .v4.f32) for global memory only; on a shared address an H100
 * fails the kernel with "unspecified launch failure" (tile-ai/tilelang issue 3038). */
void tl_emu_cuda_atomic_add_vector(int type, int count, void *p, const void *v, void *old)
{
    unsigned bytes = tl_emu_atomic_size(type) * (unsigned)count;
    check_access((uintptr_t)p, bytes, GLOBAL_ATOMIC, TL_PC);
    int global = atomic_in_global((uintptr_t)p);
    if (type == TL_ATOMIC_F32 && count > 1 && !global)
        fault(cudaErrorLaunchFailure, "atomicAdd on a float%d in shared memory: the float2 and "
              "float4 atomicAdd work in global memory only (a GPU fails the kernel); add each "
              "float with its own atomicAdd", count);
    tl_emu_atomic_add_vector(type, count, p, v, old, global);
}

/* __isGlobal and the like (device_functions.h): where check_device_access would find p. A
 * thread's stack is its local memory (its variables, a kernel's parameters). */
int tl_emu_cuda_space(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (stacks && a - (uintptr_t)stacks < (size_t)TL_EMU_MAX_THREADS * STACK_BYTES)
        return TL_SPACE_LOCAL;
    if (tl_emu_in_arena(a))
        return TL_SPACE_GLOBAL;
    if (a - (uintptr_t)tl_emu_cuda_dynamic_shared < TL_EMU_DYNAMIC_SHARED_BYTES)
        return TL_SPACE_SHARED;
    const struct asan_global *g = tl_emu_global_at(a);
    if (g)
        return tl_emu_is_shared(g) ? TL_SPACE_SHARED : tl_emu_is_constant(g) ? TL_SPACE_CONSTANT
                                                                             : TL_SPACE_GLOBAL;
    return tl_emu_in_static(a, 1) ? TL_SPACE_SHARED : TL_SPACE_GLOBAL;
}

void __asan_init(void);
void __asan_init(void) {}
void __asan_version_mismatch_check_v8(void);
void __asan_version_mismatch_check_v8(void) {}
void __asan_handle_no_return(void);
void __asan_handle_no_return(void) {}
void __asan_before_dynamic_init(const char *module);
void __asan_before_dynamic_init(const char *module) { (void)module; }
void __asan_after_dynamic_init(void);
void __asan_after_dynamic_init(void) {}

/* ---------------------------------------------------------------- counting */

/* The few values of one request (at most 128) sorted in place: insertion, since they
 * mostly come in order already (lanes in a row), where qsort's calls cost more. */
static void sort_uptr(uintptr_t *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uintptr_t x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static size_t distinct(uintptr_t *v, size_t n)
{
    size_t k = 0;
    sort_uptr(v, n);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || v[i] != v[i - 1])
            v[k++] = v[i];
    return k;
}

/* What one request costs: sectors (global) or wavefronts (shared), and their ideal. */
typedef struct {
    unsigned long long cost, ideal, bytes;
} request_cost;

/* Sectors, or for shared memory the wavefronts of one group of lanes served together. */
static unsigned long long cost_of(const access_record *const *lane, int lanes, int shared_kind)
{
    uintptr_t items[32 * 4];
    size_t n = 0;
    unsigned shift = shared_kind ? 2 : 5;
    for (int l = 0; l < lanes; l++)
        for (uintptr_t u = lane[l]->addr >> shift;
             u <= (lane[l]->addr + lane[l]->size - 1) >> shift && n < sizeof items / sizeof *items; u++)
            items[n++] = u;
    n = distinct(items, n);
    if (!shared_kind)
        return n;
    unsigned per_bank[32] = {0}, ways = 0;
    for (size_t i = 0; i < n; i++)
        if (++per_bank[items[i] % 32] > ways)
            ways = per_bank[items[i] % 32];
    return ways;
}

/* The bytes the lanes ask for, each counted once however many lanes want it (a broadcast):
 * their spans by address (lanes that start at one address in any order: the union is the same). */
static unsigned long long distinct_bytes(const access_record *const *lane, int lanes)
{
    const access_record *sorted[32];
    unsigned long long bytes = 0;
    uintptr_t end = 0;
    for (int l = 0; l < lanes; l++) {
        int j = l;
        for (; j > 0 && sorted[j - 1]->addr > lane[l]->addr; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = lane[l];
    }
    for (int l = 0; l < lanes; l++) {
        uintptr_t lo = sorted[l]->addr > end ? sorted[l]->addr : end, hi = sorted[l]->addr + sorted[l]->size;
        if (hi > lo)
            bytes += hi - lo, end = hi;
    }
    return bytes;
}

/* Whether the lanes go in pairs that want one address: for mask 1 or for
 * mask 2, every lane whose partner lane_id ^ mask ran too asks for the
 * partner's address. */
static int paired(const access_record *const *lane, const int *lane_id, int lanes)
{
    const access_record *of[32] = {0};
    for (int l = 0; l < lanes; l++)
        of[lane_id[l]] = lane[l];
    for (int mask = 1; mask <= 2; mask++) {
        int l = 0;
        while (l < lanes && (!of[lane_id[l] ^ mask] || of[lane_id[l] ^ mask]->addr == lane[l]->addr))
            l++;
        if (l == lanes)
            return 1;
    }
    return 0;
}

/* Past the lanes from lane[l] on that fall in lane_id[l]'s group of `group` lanes. */
static int end_of_group(const int *lane_id, int l, int lanes, int group)
{
    int g = lane_id[l] / group;
    while (l < lanes && lane_id[l] / group == g)
        l++;
    return l;
}

/* One request: the lanes of a warp that ran one instruction once, in lane order. */
static request_cost cost(const access_record *const *lane, const int *lane_id, int lanes, int kind)
{
    request_cost c = {0, 0, 0};
    c.bytes = distinct_bytes(lane, lanes);
    if (kind == GLOBAL_LOAD || kind == GLOBAL_STORE || kind == GLOBAL_ATOMIC) {
        c.cost = cost_of(lane, lanes, 0);
        c.ideal = (c.bytes + 31) / 32;
        return c;
    }
    if (kind == CONSTANT_LOAD) {
        /* The constant cache broadcasts one address a pass: lanes that want one address share
         * it, different addresses take turns. */
        uintptr_t addr[32];
        for (int l = 0; l < lanes; l++)
            addr[l] = lane[l]->addr;
        c.cost = distinct(addr, (size_t)lanes);
        c.ideal = 1;
        return c;
    }
    /* Shared memory serves up to 128 bytes a pass, one word from each bank,
     * and hands a warp one register a lane a pass. A warp's 4-byte accesses
     * are served together, its 8-byte ones a half-warp at a time, its
     * 16-byte ones a quarter-warp at a time; where the lanes go in pairs
     * that want one address (each lane's as its neighbour's, l and l ^ 1,
     * or as the one two along, l and l ^ 2), a pair takes one lane's
     * registers and the groups are twice as large. A group takes as many
     * passes as the most distinct words it wants from one bank, never fewer
     * than its distinct bytes need (lanes that want one word share it).
     * That is what ncu counts on the H100 (plots/data/ncu-lds-pairs-h100/):
     * 16-byte reads of 16 float4s, lanes paired, 2 passes; of 8 float4s
     * repeated by each quarter, unpaired, 4; 8-byte reads of 8 words, lanes
     * paired, 1, unpaired, 2. */
    unsigned size = lane[0]->size, group = size <= 4 ? 32 : size <= 8 ? 16 : 8;
    if (group < 32 && paired(lane, lane_id, lanes))
        group *= 2;
    for (int l = 0; l < lanes;) {
        int first = l;
        l = end_of_group(lane_id, l, lanes, (int)group);
        unsigned long long need = (distinct_bytes(lane + first, l - first) + 127) / 128,
                           ways = cost_of(lane + first, l - first, 1);
        c.cost += ways > need ? ways : need;
        c.ideal += need;
    }
    return c;
}

/* ------------------------------------------------------- instructions */

/* What nvcc makes of each access check of the lab files: the table emu-sites writes into
 * each lab object (sites.h), gathered by the linker. */
extern const tl_site __start_tl_sites[] __attribute__((weak));
extern const tl_site __stop_tl_sites[] __attribute__((weak));

static size_t n_sites;
static int *site_hash; /* pc -> index + 1, open addressing */
static size_t hash_mask;
/* as_written: asked for; widths_unknown: some lab object was built without
 * them, and then none counts by them (a student's file and the reference,
 * linked together, must count alike). */
static int sites_read, as_written, widths_unknown;

static size_t pc_hash(uintptr_t pc)
{
    return (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 40) & hash_mask;
}

static void read_sites(void)
{
    if (sites_read)
        return;
    sites_read = 1;
    n_sites = __start_tl_sites ? (size_t)(__stop_tl_sites - __start_tl_sites) : 0;
    size_t size = 16;
    while (size < 2 * n_sites)
        size *= 2;
    site_hash = calloc(size, sizeof *site_hash);
    if (!site_hash)
        abort();
    hash_mask = size - 1;
    int objects = 0;
    for (size_t i = 0; i < n_sites; i++) {
        if (!__start_tl_sites[i].pc) {
            objects++;
            widths_unknown |= !__start_tl_sites[i].line;
            continue;
        }
        size_t h = pc_hash(__start_tl_sites[i].pc);
        while (site_hash[h])
            h = (h + 1) & hash_mask;
        site_hash[h] = (int)i + 1;
    }
    widths_unknown |= !objects;
}

static const tl_site *site_of(uintptr_t pc)
{
    for (size_t h = pc_hash(pc); site_hash[h]; h = (h + 1) & hash_mask)
        if (__start_tl_sites[site_hash[h] - 1].pc == pc)
            return &__start_tl_sites[site_hash[h] - 1];
    return NULL;
}

int tl_emu_counts_instructions(void)
{
    read_sites();
    return !widths_unknown && !as_written;
}

/* Every site of the line, of whichever file: a lab process has one, where they all have the
 * line's widths; a program of several (the emulator's tests) has sites of other files on a line
 * of the same number, with their own lines' widths. */
unsigned tl_emu_sass_widths(int line, int shared, int store)
{
    unsigned widths = 0;
    read_sites();
    for (size_t i = 0; i < n_sites; i++)
        if (__start_tl_sites[i].pc && __start_tl_sites[i].line == (uint32_t)line)
            widths |= __start_tl_sites[i].widths[shared ? (store ? SHARED_STORE : SHARED_LOAD)
                                                      : (store ? GLOBAL_STORE : GLOBAL_LOAD)];
    return widths;
}

void tl_emu_count_as_written(int on)
{
    as_written = on;
}

/* ------------------------------------------------------------ races */

static unsigned launch_threads(void)
{
    return launch_block.x * launch_block.y * launch_block.z;
}

/* "tile (byte 132 of its 4096)": the shared memory at a, for a student. */
static const char *shared_place(uintptr_t a, char *buf, size_t len)
{
    uintptr_t dynamic = (uintptr_t)tl_emu_cuda_dynamic_shared;
    const struct asan_global *g = tl_emu_global_at(a);
    if (a - dynamic < TL_EMU_DYNAMIC_SHARED_BYTES)
        snprintf(buf, len, "byte %zu of the dynamic shared memory (extern __shared__)", (size_t)(a - dynamic));
    else if (g && g->size <= 8)
        snprintf(buf, len, "the __shared__ variable %s (its byte %zu)", tl_emu_global_name(g), (size_t)(a - g->beg));
    else if (g)
        snprintf(buf, len, "byte %zu of the __shared__ array %s (of %zu bytes)", (size_t)(a - g->beg),
                 tl_emu_global_name(g), (size_t)g->size);
    else {
        uintptr_t beg = 0;
        size_t size = 0;
        const char *name = tl_emu_static_at(a, &beg, &size);
        if (name)
            snprintf(buf, len, "byte %zu of the __shared__ array %s (of %zu bytes)", (size_t)(a - beg),
                     name, size);
        else
            snprintf(buf, len, "a __shared__ array of a template kernel");
    }
    return buf;
}

/* "f.cu:19": the source line of the access check at pc, where the sites table has it. */
static const char *line_at(uintptr_t pc, char *buf, size_t len)
{
    read_sites();
    const tl_site *site = site_of(pc);
    if (site && site->line)
        snprintf(buf, len, "%s:%u", launch_file, site->line);
    else
        snprintf(buf, len, "a line of the emulator's CUDA headers");
    return buf;
}

/* The source line of the access check at pc, 0 where the sites table lacks it. */
static int site_line(uintptr_t pc)
{
    read_sites();
    const tl_site *site = site_of(pc);
    return site ? (int)site->line : 0;
}

/* What the running block did besides its accesses, added to the counts after it
 * (tally_block): its barriers passed, its warps' collectives, shuffles and __syncwarp()s. */
static unsigned long long block_barriers, block_collectives, block_shuffles, block_syncwarps;

/* The __syncthreads() that opened the stretch of the block's run now going on (file NULL:
 * none yet, the block's start), which every thread still running has passed. */
static const char *stretch_file;
static int stretch_line;

/*
 * The first race of a stretch between two barriers, told when the stretch
 * ends (tell_race): by then every thread of the block has run it, so that
 * an index past a __shared__ array's end, which lands two threads' elements
 * on one address before it reaches the end, is told first, as its own
 * fault; and the message knows whether threads of different warps raced in
 * the stretch too, where a __syncwarp() cannot be the fix.
 */
static struct {
    int found, one_warp, waits, other_warps, same_store;
    char where[160], what[3072];
} race;

/*
 * An access of the running thread to shared memory, checked for a race
 * (race.c): the first of a stretch is kept, naming both threads, the byte
 * and both lines, and what would order them. Atomics never race with each
 * other, as racecheck counts them, and are left out.
 */
static inline __attribute__((always_inline)) void race_of(uintptr_t a, size_t size, int store, uintptr_t pc, unsigned nth);

/*
 * Stores gcc leaves unchecked. The instrumentation checks a memory
 * reference once in a stretch of straight code, whether it is read or
 * written (its table of references checked so far, asan.cc's
 * has_mem_ref_been_instrumented): the store of s[t] += v, or of x = s[t];
 * ... s[t] = x + 1 with no call between, has no check of its own. The
 * emulator sees such a store by what it did: it keeps the bytes of the
 * running thread's last few reads of shared memory, and where they have
 * changed by the thread's next check or wait (no other thread runs in
 * between, and the thread's checked stores there drop them first), the
 * thread stored there with no check: a store of the read's size (of each
 * 4-byte word that changed, for a read wider than 8 bytes) by the read's
 * instruction and in the same run of it, checked for races and counted as
 * any store is. A store of the value already there changes nothing and
 * goes unseen; so does one to a read older than the last SEEN_READS.
 * Global memory the same, in a record of its own: the swap t = m[a];
 * m[a] = m[b]; m[b] = t (lab 9's step 1) stores twice unchecked, and those
 * stores are counted, checked against other blocks where the memory is a
 * __device__ variable, and made the output (made.c: without them, "none of
 * your kernels' work reached the output").
 */
#define SEEN_READS 4
/* 16 bytes as two words, for the comparison of a read kept with what lies there now. */
typedef unsigned long long chunk16 __attribute__((vector_size(16), may_alias));
typedef struct {
    uintptr_t a, pc;
    uint32_t size;
    unsigned nth;
    unsigned char bytes[16];
    const struct asan_global *variable; /* global memory: its __device__ variable, or NULL */
    /* The same read as compare_seen_reads compares it, at every check of the thread: the
     * aligned 16 bytes that hold it, as they were when bytes was taken, and a mask of its
     * bytes there. chunk NULL: compared by its bytes (forgotten, size 0, or a read that
     * spans two such pieces). */
    const chunk16 *chunk;
    chunk16 was, mask;
} seen_read;
static seen_read seen[SEEN_READS], seen_global[SEEN_READS];
static int n_seen, next_seen, n_seen_global, next_seen_global;

/* Whether size bytes at a and b are the same (memcmp's == 0), in a read or two where size is
 * an access's (1, 2, 4, 8 or 16 bytes), without a call. */
static inline int same_bytes(const void *a, const void *b, size_t size)
{
    uint64_t x[2], y[2];
    switch (size) {
    case 4: {
        uint32_t u, v;
        memcpy(&u, a, 4), memcpy(&v, b, 4);
        return u == v;
    }
    case 8:
        memcpy(x, a, 8), memcpy(y, b, 8);
        return x[0] == y[0];
    case 16:
        memcpy(x, a, 16), memcpy(y, b, 16);
        return x[0] == y[0] && x[1] == y[1];
    default:
        return memcmp(a, b, size) == 0;
    }
}

/* memcpy(dst, src, size), in a move or two where size is an access's (4, 8 or 16 bytes),
 * without a call (where each branch called memcpy, gcc made them one call again). */
typedef struct {
    unsigned char b[4];
} __attribute__((may_alias)) bytes4;
typedef struct {
    unsigned char b[8];
} __attribute__((may_alias)) bytes8;
typedef struct {
    unsigned char b[16];
} __attribute__((may_alias)) bytes16;
static inline void copy_bytes(void *dst, const void *src, size_t size)
{
    if (size == 4)
        *(bytes4 *)dst = *(const bytes4 *)src;
    else if (size == 8)
        *(bytes8 *)dst = *(const bytes8 *)src;
    else if (size == 16)
        *(bytes16 *)dst = *(const bytes16 *)src;
    else
        memcpy(dst, src, size);
}

/* 0x00 16 times, then 0xff 16 times: mask_of's masks. */
static const unsigned char mask_steps[32] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* r's chunk, was and mask, from its address and size, where its bytes have just been taken. */
static inline void watch_read(seen_read *r)
{
    uintptr_t off = r->a & 15;
    if (!r->size || off + r->size > 16) {
        r->chunk = NULL;
        return;
    }
    chunk16 from, to; /* 0xff from byte off on; from byte off + size on */
    memcpy(&from, mask_steps + 16 - off, 16);
    memcpy(&to, mask_steps + 16 - off - r->size, 16);
    r->mask = from & ~to;
    r->chunk = (const chunk16 *)(r->a - off);
    r->was = *r->chunk;
}

/* Whether the bytes r read have changed since (memcmp's != 0 of r->bytes and r->a; 0 where
 * forgotten): one comparison of 16 bytes, masked, for a read inside an aligned piece. */
static inline int read_changed(const seen_read *r)
{
    if (__builtin_expect(r->chunk != NULL, 1)) {
        chunk16 d = (*r->chunk ^ r->was) & r->mask;
        return (d[0] | d[1]) != 0;
    }
    return r->size && !same_bytes((const void *)r->a, r->bytes, r->size);
}

static void forget_reads(void)
{
    n_seen = next_seen = 0;
    n_seen_global = next_seen_global = 0;
}

/* The running thread read size bytes of global memory at a (in the __device__ variable g, or
 * NULL: a cudaMalloc allocation). */
static void remember_global_read(uintptr_t a, size_t size, uintptr_t pc, const struct asan_global *g)
{
    if (size > sizeof seen_global[0].bytes)
        return;
    int i = next_seen_global;
    next_seen_global = (next_seen_global + 1) % SEEN_READS;
    n_seen_global += n_seen_global < SEEN_READS;
    seen_global[i] = (seen_read){a, pc, (uint32_t)size, 0, {0}, g, NULL, {0, 0}, {0, 0}};
    copy_bytes(seen_global[i].bytes, (const void *)a, size);
    watch_read(&seen_global[i]);
}

/* A checked store or atomic of global memory, about to change its bytes. */
static void forget_global_reads_of(uintptr_t a, size_t size)
{
    for (int i = 0; i < n_seen_global; i++)
        if (seen_global[i].a < a + size && a < seen_global[i].a + seen_global[i].size)
            seen_global[i].size = 0, seen_global[i].chunk = NULL;
}

/* The running thread read size bytes of shared memory at a, its nth run of pc. */
static void remember_read(uintptr_t a, size_t size, uintptr_t pc, unsigned nth)
{
    if (size > sizeof seen[0].bytes)
        return;
    int i = next_seen;
    next_seen = (next_seen + 1) % SEEN_READS;
    n_seen += n_seen < SEEN_READS;
    seen[i].a = a, seen[i].pc = pc, seen[i].size = (uint32_t)size, seen[i].nth = nth;
    copy_bytes(seen[i].bytes, (const void *)a, size);
    watch_read(&seen[i]);
}

/* A checked store or atomic of size bytes at a, about to change them: reads it overlaps no
 * longer tell an unchecked store by their bytes. */
static void forget_reads_of(uintptr_t a, size_t size)
{
    for (int i = 0; i < n_seen; i++)
        if (seen[i].a < a + size && a < seen[i].a + seen[i].size)
            seen[i].size = 0, seen[i].chunk = NULL;
}

/* compare_seen_reads, where some read kept no longer holds what was read: the stores. */
static __attribute__((noinline)) void tell_unseen_stores(void)
{
    for (int i = 0; i < n_seen && !aborted; i++) {
        uint32_t size = seen[i].size;
        const unsigned char *now = (const unsigned char *)seen[i].a;
        if (!size || same_bytes(now, seen[i].bytes, size))
            continue;
        for (uint32_t at = 0; at < size; at += size > 8 ? 4 : size) {
            uint32_t piece = size > 8 ? 4 : size;
            if (memcmp(now + at, seen[i].bytes + at, piece) == 0)
                continue;
            race_of(seen[i].a + at, piece, 1, seen[i].pc, seen[i].nth);
            if (profiling)
                record(seen[i].a + at, seen[i].pc, piece, SHARED_STORE);
        }
        memcpy(seen[i].bytes, now, size);
        if (seen[i].chunk)
            seen[i].was = *seen[i].chunk;
    }
    for (int i = 0; i < n_seen_global && !aborted; i++) {
        seen_read *r = &seen_global[i];
        const unsigned char *now = (const unsigned char *)r->a;
        if (!r->size || same_bytes(now, r->bytes, r->size))
            continue;
        for (uint32_t at = 0; at < r->size; at += r->size > 8 ? 4 : r->size) {
            uint32_t piece = r->size > 8 ? 4 : r->size;
            if (memcmp(now + at, r->bytes + at, piece) == 0)
                continue;
            if (r->variable)
                tl_emu_block_race_stored(r->variable->beg, r->variable->size, r->a + at, piece,
                                         block_index(), writer_now(), r->pc, r->bytes + at);
            else
                block_race_store_in(tl_emu_allocation_of(r->a + at, piece), r->a + at, piece, r->pc,
                                    r->bytes + at);
            if (profiling)
                record(r->a + at, r->pc, piece, GLOBAL_STORE);
        }
        memcpy(r->bytes, now, r->size);
        if (r->chunk)
            r->was = *r->chunk;
    }
}

/* find_unseen_stores, where the thread has read something since its last check or wait. */
static __attribute__((noinline)) void compare_seen_reads(int going_on)
{
    /* Most reads kept still hold what was read: where every one does, nothing to tell. */
    int changed = 0;
    for (int i = 0; i < n_seen; i++)
        changed |= read_changed(&seen[i]);
    for (int i = 0; i < n_seen_global; i++)
        changed |= read_changed(&seen_global[i]);
    if (changed)
        tell_unseen_stores();
    if (!going_on)
        forget_reads();
}

/*
 * A store of the running thread over another thread's write to shared memory with nothing
 * between that orders them (a write-write race), held until the store is made: where it left
 * the bytes as they were, the two stored the same (threads of a block that repeat the same
 * rows, each storing what the other does), which either order leaves alike, so it is no race
 * and no message can say "which of the two values stays". Settled at the thread's next check
 * or wait, by settle_same_store. size 0: none held.
 */
static struct {
    uintptr_t a, pc;
    size_t size;
    unsigned nth;
    tl_emu_race r;
    unsigned char was[16];
} over_write;

static void keep_race(tl_emu_race r, size_t size, int store, uintptr_t pc, unsigned nth);

static __attribute__((noinline)) void settle_over_write(void)
{
    size_t size = over_write.size;
    over_write.size = 0;
    if (same_bytes((const void *)over_write.a, over_write.was, size))
        tl_emu_race_wrote_same(current, over_write.a, size, over_write.pc, over_write.nth);
    else
        keep_race(over_write.r, size, 1, over_write.pc, over_write.nth);
}

/* The running thread's stores since its last check or wait that no check saw: going_on, it
 * runs on (the reads are kept, as they are now); otherwise it waits or ends, and another
 * thread's turn may change them. Inline at every access, barrier and thread's end: most
 * have read nothing since (n_seen and n_seen_global 0, next_seen and next_seen_global 0 with
 * them), and cost a test. */
static inline __attribute__((always_inline)) void find_unseen_stores(int going_on)
{
    if (__builtin_expect(over_write.size != 0, 0))
        settle_over_write();
    if (n_seen || n_seen_global)
        compare_seen_reads(going_on);
}

/* The key a thread's runs of the instruction at pc count by: its source expression (the
 * first check of it, where g++ copied it, unrolling a loop), or itself. */
static uintptr_t run_key(uintptr_t pc)
{
    read_sites();
    const tl_site *site = site_of(pc);
    return site && site->first ? (uintptr_t)site->first : pc;
}

static void check_race(uintptr_t a, size_t size, int kind, uintptr_t pc)
{
    if (kind == GLOBAL_ATOMIC) {
        forget_reads_of(a, size);
        return;
    }
    unsigned nth = tl_emu_race_run(current, run_key(pc));
    if (kind != GLOBAL_STORE) {
        remember_read(a, size, pc, nth);
        race_of(a, size, 0, pc, nth);
        return;
    }
    forget_reads_of(a, size);
    tl_emu_race r;
    if (!tl_emu_race_check(current, a, size, 1, pc, nth, &r))
        return;
    /* Over another thread's write: a race, unless this store leaves the bytes as they are. */
    if (r.stored && size <= sizeof over_write.was) {
        over_write.a = a, over_write.pc = pc, over_write.size = size, over_write.nth = nth;
        over_write.r = r;
        copy_bytes(over_write.was, (const void *)a, size);
    } else {
        keep_race(r, size, 1, pc, nth);
    }
}

/* " (the 3rd time it ran that line since the __syncthreads() of line 12)": which run of its
 * line an access was, where known ("" where not); first: 0 for the second access of a
 * message ("since then"), -1 for the ordinal's ending ("rd") alone. */
static const char *run_text(unsigned nth, int first, char *buf, size_t len)
{
    const char *th = nth % 100 / 10 == 1 ? "th" : nth % 10 == 1 ? "st" : nth % 10 == 2 ? "nd" : nth % 10 == 3 ? "rd" : "th";
    if (first < 0) /* the ordinal's ending alone */
        snprintf(buf, len, "%s", th);
    else if (!nth)
        snprintf(buf, len, "%s", "");
    else if (!first)
        snprintf(buf, len, " (the %u%s time it ran that line since then)", nth, th);
    else if (stretch_file)
        snprintf(buf, len, " (the %u%s time it ran that line since the __syncthreads() of line %d)",
                 nth, th, stretch_line);
    else
        snprintf(buf, len, " (the %u%s time it ran that line since its block began)", nth, th);
    return buf;
}

static __attribute__((noinline)) void keep_race(tl_emu_race r, size_t size, int store, uintptr_t pc, unsigned nth)
{
    int one_warp = r.thread / 32 == current / 32;
    if (race.found) {
        race.other_warps |= !one_warp;
        return;
    }
    const emu_thread *other = &threads[r.thread];
    char place[256], here[256], there[256], who[48], waits[320] = "", effect[96], when[320] = "";
    char run_here[96], run_there[96], passes[400] = "";
    uint3 o = other->idx;
    snprintf(who, sizeof who, "thread (%u, %u, %u)", o.x, o.y, o.z);
    /* Where a barrier stands between them for one thread and not the other, it says so. */
    const emu_thread *waiting = NULL;
    for (unsigned i = 0; other->state == DONE && !waiting && i < launch_threads(); i++)
        waiting = threads[i].state == AT_BARRIER ? &threads[i] : NULL;
    if (other->state == AT_BARRIER)
        snprintf(waits, sizeof waits, " (%s went on to wait at the __syncthreads() of %s:%d, which "
                 "this thread has not passed)", who, other->barrier_file, other->barrier_line);
    else if (waiting)
        snprintf(waits, sizeof waits, " (%s ended without passing the __syncthreads() of %s:%d, "
                 "where other threads of the block wait)", who, waiting->barrier_file,
                 waiting->barrier_line);
    if (store && r.stored)
        snprintf(effect, sizeof effect, "which of the two values stays");
    else
        snprintf(effect, sizeof effect, "what %s reads", store ? who : "this thread");
    int here_line = site_line(pc), there_line = site_line(r.pc);
    /* The other access lies before the barrier that opened this stretch, yet came after it: its
     * thread came round a loop again, into the next step, while this one is still in its step. */
    if (there_line && stretch_file && strcmp(stretch_file, launch_file) == 0 && there_line < stretch_line)
        snprintf(when, sizeof when, " after passing the __syncthreads() of line %d with this "
                 "thread: line %d lies before that barrier, so it came round a loop again, into its "
                 "next step (or ran a function defined above it)", stretch_line, there_line);
    /* Otherwise, two threads' writes by one store (one line) in one stretch: no barrier between
     * two statements orders them, so the index is what gives two threads one element. */
    int other_pass = here_line && here_line == there_line && nth && r.nth && nth != r.nth;
    race.same_store = !when[0] && store && r.stored && here_line && here_line == there_line && !other_pass;
    /* One line run by the two in different passes: a loop (or a function called again) with no
     * barrier between its passes, as a tree's rounds without one. */
    if (other_pass && !when[0])
        snprintf(passes, sizeof passes, "; here both ran line %d, in different passes (this thread's "
                 "%u%s, %s's %u%s): one at the end of the loop's body, after the if, where every "
                 "thread passes it, keeps each pass's stores apart from the next pass's reads",
                 here_line, nth, run_text(nth, -1, run_here, sizeof run_here), who, r.nth,
                 run_text(r.nth, -1, run_there, sizeof run_there));
    race.found = 1, race.one_warp = one_warp, race.waits = waits[0] != 0, race.other_warps = 0;
    snprintf(race.where, sizeof race.where, "%s", where());
    if (race.same_store)
        snprintf(race.what, sizeof race.what,
              "a race on shared memory: this thread wrote %zu byte(s) at %s, %s, which %s wrote, "
              "by the same store, since the last __syncthreads() both passed.\n    No barrier can come "
              "between the two in one pass through this line: it is one store, run by two threads "
              "that land on the same element (in a loop, a barrier at the end of its body would "
              "keep one step's stores from the next's; within a step nothing can), and on a GPU "
              "%s changes from run to run (compute-sanitizer --tool "
              "racecheck reports this hazard).\n    Each thread must store an element of its own, or "
              "one thread alone store there: check which threads reach this store, and its index "
              "against the array's dimensions. An index past the end of a row lands in the next "
              "row (in rows of S elements, [y][S] is [y + 1][0]): is the array as wide as the "
              "threads that index it (blockDim.x for [threadIdx.y][threadIdx.x])?",
              size, line_at(pc, here, sizeof here), shared_place(r.addr, place, sizeof place), who,
              effect);
    else
        snprintf(race.what, sizeof race.what,
              "a race on shared memory: this thread %s %zu byte(s) at %s%s, %s, which %s %s at %s%s%s, "
              "and no %s comes between the two%s.\n    %s: on a GPU this %s may come before that %s "
              "or after it, and %s changes from run to run (compute-sanitizer --tool racecheck "
              "reports this hazard).\n    Put a __syncthreads() between the two that every thread of "
              "the block passes (not inside an if that some threads skip)%s%s",
              store ? "wrote" : "read", size, line_at(pc, here, sizeof here),
              run_text(nth, 1, run_here, sizeof run_here),
              shared_place(r.addr, place, sizeof place), who, r.stored ? "wrote" : "read",
              line_at(r.pc, there, sizeof there), run_text(r.nth, 0, run_there, sizeof run_there), when,
              one_warp ? "__syncthreads(), nor a __syncwarp() or other warp collective both took part in,"
                       : "__syncthreads()",
              waits,
              one_warp ? "The two are lanes of one warp, which run independently (Volta and later "
                         "GPUs) until they meet at a __syncwarp()"
                       : "The two are in different warps, which run in no fixed order between two "
                         "barriers",
              store ? "write" : "read", r.stored ? "write" : "read", effect,
              when[0] ? "; in a loop, a second one at the end of its body, after this step's "
                        "last read of the array and before the next step's stores into it"
                      : "",
              passes);
}

/* Inline where shared memory is checked: most accesses race with nothing (race.c). */
static inline __attribute__((always_inline)) void race_of(uintptr_t a, size_t size, int store, uintptr_t pc, unsigned nth)
{
    tl_emu_race r;
    if (tl_emu_race_check(current, a, size, store, pc, nth, &r))
        keep_race(r, size, store, pc, nth);
}

/*
 * The race kept in the stretch now ending, told as the kernel's failure. A
 * __syncwarp() is offered as a fix only where the lanes of one warp are all
 * that raced in the stretch, as in code written warp-synchronously. Where
 * the other thread had gone on to a __syncthreads() (or ended while others
 * wait at one), it is a step of a loop ahead: the barrier missing is the
 * block's, between the steps, since what a step stores the other warps may
 * read too (a tile), which no __syncwarp() orders.
 */
static void tell_race(void)
{
    if (!race.found || aborted)
        return;
    race.found = 0;
    int syncwarp_fixes = race.one_warp && !race.waits && !race.other_warps && !race.same_store;
    kernel_failed(cudaErrorLaunchFailure, 0, "%s: %s%s", race.where, race.what,
                  syncwarp_fixes ? ", or, as they are lanes of one warp, a __syncwarp()"
                  : race.one_warp && !race.same_store && race.other_warps
                      ? ".\n    Threads of different warps race on shared memory in the same stretch "
                        "between barriers too, so a __syncwarp(), which orders only the lanes of "
                        "one warp, is no fix"
                      : "");
}

/* "thread (1, 0, 0) of block (0, 0, 0)": a writer of block_race.c's, of the block with index
 * block in the grid. */
static const char *writer_named(uint16_t writer, uint32_t block, char *buf, size_t len)
{
    uint3 d = tl_emu_builtin.blockDim, g = tl_emu_builtin.gridDim;
    unsigned t = writer & ((1u << WRITER_THREAD_BITS) - 1);
    snprintf(buf, len, "thread (%u, %u, %u) of block (%u, %u, %u)", t % d.x, t / d.x % d.y,
             t / (d.x * d.y), block % g.x, block / g.x % g.y, block / g.x / g.y);
    return buf;
}

/* What the thread of writer did outside a matrix before its store, and where, if at (the
 * running block's threads still say where): "read in[8633], where in has 8633 elements
 * (in[0] .. in[8632])", or without at "read past the end of in". */
static const char *outside_told(uint16_t writer, uintptr_t at, char *buf, size_t len)
{
    const outside_kind *k = &outside_kinds[(writer >> WRITER_THREAD_BITS) - 1];
    const char *verb = k->store ? "written" : "read";
    if (!at) {
        snprintf(buf, len, "%s %s %s", verb, k->past_end ? "past the end of" : "before the start of",
                 k->name);
        return buf;
    }
    const tl_emu_allocation *al = tl_emu_allocation_near(at);
    long long element = al ? ((long long)at - (long long)(al->base + al->data_offset)) / 4 : 0;
    snprintf(buf, len, "%s %s[%lld], where %s has %zu elements (%s[0] .. %s[%zu])", verb, k->name,
             element, k->name, k->elements, k->name, k->name, k->elements - 1);
    return buf;
}

/* After a block: where it changed a __device__ variable's word that another block of the
 * launch had written (block_race.c), the race, which a GPU runs on with and the emulator,
 * running one block after another, never shows in the result. Where either thread had gone
 * outside a matrix before its store, that is what the race comes of: a thread past the
 * matrix's edge, which its bounds test let through, wrote an element another thread owns. */
static void check_block_race(void)
{
    tl_emu_block_race r;
    if (!tl_emu_block_race_found(&r))
        return;
    const struct asan_global *g = tl_emu_global_at(r.addr);
    const tl_emu_allocation *al = g ? NULL : tl_emu_allocation_of(r.addr, r.size);
    uint3 b = tl_emu_builtin.blockIdx, grid = tl_emu_builtin.gridDim;
    uint32_t ox = r.other % grid.x, oy = r.other / grid.x % grid.y, oz = r.other / grid.x / grid.y;
    char here[256], what[256];
    if (g)
        snprintf(what, sizeof what, "at byte %zu of the __device__ variable %s",
                 (size_t)(r.addr - g->beg), tl_emu_global_name(g));
    else if (al && al->name && r.addr >= al->base + al->data_offset)
        snprintf(what, sizeof what, "at %s[%zu]", al->name,
                 (size_t)(r.addr - al->base - al->data_offset) / 4);
    else
        snprintf(what, sizeof what, "at byte %zu of a cudaMalloc allocation",
                 (size_t)(r.addr - (al ? al->base : r.addr)));
    if (r.writer >> WRITER_THREAD_BITS || r.other_writer >> WRITER_THREAD_BITS) {
        /* The running block's thread is the one to name where both were outside: its threads
         * still say where it went. */
        int second = r.writer >> WRITER_THREAD_BITS != 0;
        uint16_t outside = second ? r.writer : r.other_writer;
        char first_name[96], second_name[96], did[320];
        outside_told(outside, second ? threads[r.writer & ((1u << WRITER_THREAD_BITS) - 1)].outside_at : 0,
                     did, sizeof did);
        kernel_failed(cudaErrorLaunchFailure, 0,
            "a thread outside the matrix: %s and %s of %s both wrote %zu byte(s) %s (%s) in the same "
            "launch, and the %s had first %s: it lies past the matrix's edge, where the kernel's "
            "bounds test must stop it before it reads or writes anything (as if (r < rows && "
            "c < cols) stops the thread of row r and column c). Without the test, its index runs "
            "on into an element that is another thread's. On a GPU the blocks of a "
            "launch run at the same time, in no fixed order, so which of the two values the element "
            "keeps changes from run to run (the emulator runs one block after another, so it says "
            "so instead)",
            writer_named(r.other_writer, r.other, first_name, sizeof first_name),
            writer_named(r.writer, block_index(), second_name, sizeof second_name), kernel_name,
            r.size, what, line_at(r.pc, here, sizeof here), second ? "second" : "first", did);
        return;
    }
    kernel_failed(cudaErrorLaunchFailure, 0,
        "a race between blocks: block (%u, %u, %u) of %s wrote %zu byte(s) %s (%s), over another "
        "value that block (%u, %u, %u) had written there in the same launch. On a GPU the blocks "
        "of a launch run at the same time, in no fixed order, and nothing makes one wait for "
        "another: each overwrites the other's values between its write and its read, and what "
        "the memory holds changes from run to run (the emulator runs one block after another, so "
        "it says so instead). A scratch array for a block's own use belongs in __shared__ memory, "
        "of which each block has its own copy; values blocks share need atomics (atomicAdd to "
        "add to one), or a second kernel",
        b.x, b.y, b.z, kernel_name, r.size, what, line_at(r.pc, here, sizeof here), ox, oy, oz);
}

/* The widest size of mask, 0 if none. */
static unsigned widest(unsigned mask)
{
    unsigned w = 0;
    for (unsigned b = 1; b <= mask; b <<= 1)
        if (mask & b)
            w = b;
    return w;
}

/*
 * A thread's accesses as nvcc's instructions make them: the consecutive
 * accesses of one source expression (one site) to neighbouring addresses
 * become one access, as wide as the widest instruction nvcc has for its
 * line and kind, never across an aligned boundary of that width nor across
 * a barrier; what is left over splits into the sizes nvcc has (a run of
 * three floats under LDS and LDS.128 stays three loads). Without the
 * widths, accesses stay as written. The barriers' marks go either way.
 */
static void as_instructions(emu_thread *t)
{
    static access_record *out;
    static unsigned *masks;
    static size_t *slots, cap;
    static int *open;
    size_t n = 0, closed = 0; /* groups before out[closed] are closed (by a barrier) */
    if (t->n_rec > cap) {
        access_record *o = realloc(out, t->n_rec * sizeof *o);
        unsigned *m = realloc(masks, t->n_rec * sizeof *m);
        size_t *sl = realloc(slots, t->n_rec * sizeof *sl);
        if (!o || !m || !sl)
            abort();
        out = o, masks = m, slots = sl, cap = t->n_rec;
    }
    if (!open && !(open = calloc(n_sites * KINDS + 1, sizeof *open)))
        abort();
    for (size_t k = 0; k < t->n_rec; k++) {
        const access_record *r = &t->rec[k];
        if (r->kind == BARRIER) {
            closed = n;
            continue;
        }
        const tl_site *s = as_written || widths_unknown || r->kind >= KINDS ? NULL : site_of(r->pc);
        unsigned mask = s ? s->widths[r->kind] : 0, w = widest(mask);
        if (w <= r->size) {
            out[n] = *r, masks[n++] = 0;
            continue;
        }
        /* open[slot]: the group this thread opened last for the site and kind, if it still is this thread's */
        size_t slot = (size_t)(s->first - __start_tl_sites) * KINDS + r->kind;
        size_t g = (size_t)open[slot];
        if (g >= closed && g < n && masks[g] && slots[g] == slot) {
            access_record *o = &out[g];
            uintptr_t lo = o->addr, hi = o->addr + o->size;
            if (r->addr == hi && lo / w == (r->addr + r->size - 1) / w) {
                o->size += r->size;
                continue;
            }
            if (r->addr + r->size == lo && r->addr / w == (hi - 1) / w) {
                o->addr = r->addr, o->size += r->size;
                continue;
            }
        }
        open[slot] = (int)n, slots[n] = slot;
        out[n] = *r, masks[n++] = mask | r->size;
    }
    /* A group no instruction of its line is as wide as splits into those sizes, widest first. */
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t size = out[k].size;
        if (!masks[k] || ((size & (size - 1)) == 0 && (masks[k] & size))) {
            t->rec[m++] = out[k];
            continue;
        }
        for (uintptr_t a = out[k].addr, end = a + size; a < end;) {
            unsigned w = 1;
            for (unsigned b = 1; b <= masks[k]; b <<= 1)
                if ((masks[k] & b) && a % b == 0 && a + b <= end)
                    w = b;
            t->rec[m++] = (access_record){a, out[k].pc, w, out[k].kind};
            a += w;
        }
    }
    t->n_rec = m;
}

static void add(tl_emu_stats *k, int kind, request_cost c)
{
    switch (kind) {
    case GLOBAL_LOAD: k->global_load_requests++, k->global_load_sectors += c.cost, k->global_load_bytes += c.bytes; break;
    case GLOBAL_STORE: k->global_store_requests++, k->global_store_sectors += c.cost, k->global_store_bytes += c.bytes; break;
    case SHARED_LOAD: k->shared_load_requests++, k->shared_load_wavefronts += c.cost, k->shared_load_ideal += c.ideal; break;
    case SHARED_STORE: k->shared_store_requests++, k->shared_store_wavefronts += c.cost, k->shared_store_ideal += c.ideal; break;
    case GLOBAL_ATOMIC: /* a read and a write of its sectors, and counted as atomic too */
        k->global_atomic_requests++, k->global_atomic_sectors += c.cost, k->global_atomic_bytes += c.bytes;
        add(k, GLOBAL_LOAD, c), add(k, GLOBAL_STORE, c);
        break;
    case SHARED_ATOMIC: /* a read and a write of its banks' words */
        k->shared_atomic_requests++;
        add(k, SHARED_LOAD, c), add(k, SHARED_STORE, c);
        break;
    default:
        k->constant_load_requests++, k->constant_load_bytes += c.bytes, k->constant_load_passes += c.cost;
        break;
    }
}

/*
 * Groups each warp's accesses into requests as the hardware does: the
 * threads that run one instruction (one call site of the instrumentation)
 * for the j-th time do it together, whatever else each did before. Each
 * lane's records are numbered by how many of its earlier records share
 * their pc, and gathered by (pc, j, kind) through hash tables, each
 * request's lanes in lane order; the order the requests are counted in
 * changes no sum. Linear in the records: sorting them (qsort, a warp's
 * 16384 records at a time in a product of 256) once took most of the time
 * of every profile and technique check.
 */
/* A shared request, kept where it took more passes over its ideal than any before it in the
 * kernel: with the lanes' stride and the size of the array it touched. */
static void note_worst_shared(tl_emu_stats *k, request_cost c, const access_record *const *lane,
                              const int *lane_id, int lanes)
{
    if (c.cost - c.ideal <= k->shared_worst_passes - k->shared_worst_ideal)
        return;
    k->shared_worst_passes = c.cost, k->shared_worst_ideal = c.ideal;
    long long stride = lanes > 1 && lane_id[1] > lane_id[0]
                           ? ((long long)lane[1]->addr - (long long)lane[0]->addr) / (lane_id[1] - lane_id[0])
                           : 0;
    for (int l = 1; l < lanes && stride; l++)
        if ((long long)lane[l]->addr - (long long)lane[0]->addr != stride * (lane_id[l] - lane_id[0]))
            stride = 0;
    k->shared_worst_stride = stride;
    uintptr_t a = lane[0]->addr, beg = 0, dynamic = (uintptr_t)tl_emu_cuda_dynamic_shared;
    size_t size = 0;
    const struct asan_global *g = tl_emu_global_at(a);
    if (g && tl_emu_is_shared(g))
        size = g->size;
    else if (a - dynamic < TL_EMU_DYNAMIC_SHARED_BYTES)
        size = launch_dynamic;
    else
        tl_emu_static_at(a, &beg, &size);
    k->shared_worst_array_bytes = size;
}

typedef struct {
    uintptr_t pc;
    uint32_t nth, kind;
    size_t head, tail; /* its records: a list through next, in lane order */
} request;

#define NO_RECORD ((size_t)-1)

/* An open-addressing table cleared by a stamp, not by a pass over it: a slot is taken
 * where its stamp is the table's now. key: a pc; value: a count or a request's index. */
typedef struct {
    uintptr_t *key;
    size_t *value;
    uint32_t *stamp, now;
    size_t size;
} stamped_table;

/* A table of at least 2 n slots, cleared. */
static size_t clear_for(stamped_table *t, size_t n)
{
    if (2 * n > t->size) {
        size_t size = 64;
        while (size < 2 * n)
            size *= 2;
        free(t->key), free(t->value), free(t->stamp);
        t->key = malloc(size * sizeof *t->key);
        t->value = malloc(size * sizeof *t->value);
        t->stamp = calloc(size, sizeof *t->stamp);
        if (!t->key || !t->value || !t->stamp)
            abort();
        t->size = size, t->now = 0;
    }
    if (++t->now == 0) {
        memset(t->stamp, 0, t->size * sizeof *t->stamp);
        t->now = 1;
    }
    return t->size - 1;
}

static size_t slot_of(uint64_t key, size_t mask)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

/* *p with room for n elements of `each` bytes (what it held is lost where it grows). */
static void *room(void *p, size_t *cap, size_t n, size_t each)
{
    if (n <= *cap)
        return p;
    free(p);
    if (!(p = malloc(n * each)))
        abort();
    *cap = n;
    return p;
}

static void tally_warp(int first, int lanes)
{
    static stamped_table executions; /* a lane's pcs: how many of its records so far had each */
    static stamped_table requests_at; /* (pc, j, kind): its request's index */
    static request *requests;
    static const access_record **item;
    static size_t *next;
    static int *item_lane;
    static size_t requests_cap, item_cap, next_cap, lane_cap;
    size_t n = 0, most = 0;
    for (int l = 0; l < lanes; l++) {
        size_t k = threads[first + l].n_rec;
        n += k;
        most = k > most ? k : most;
    }
    if (!n)
        return;
    requests = room(requests, &requests_cap, n, sizeof *requests);
    item = room(item, &item_cap, n, sizeof *item);
    next = room(next, &next_cap, n, sizeof *next);
    item_lane = room(item_lane, &lane_cap, n, sizeof *item_lane);
    size_t request_mask = clear_for(&requests_at, n), n_requests = 0, n_items = 0;
    stamped_table *e = &executions, *q = &requests_at;
    for (int l = 0; l < lanes; l++) {
        const emu_thread *t = &threads[first + l];
        size_t pc_mask = clear_for(e, most);
        for (size_t k = 0; k < t->n_rec; k++) {
            const access_record *r = &t->rec[k];
            size_t h = slot_of(r->pc, pc_mask);
            while (e->stamp[h] == e->now && e->key[h] != r->pc)
                h = (h + 1) & pc_mask;
            if (e->stamp[h] != e->now)
                e->stamp[h] = e->now, e->key[h] = r->pc, e->value[h] = 0;
            uint32_t nth = (uint32_t)e->value[h]++;
            size_t g = slot_of(r->pc * 31 + ((uint64_t)nth << 8) + r->kind, request_mask);
            while (q->stamp[g] == q->now && (q->key[g] != r->pc || requests[q->value[g]].nth != nth ||
                                              requests[q->value[g]].kind != r->kind))
                g = (g + 1) & request_mask;
            size_t i = n_items++;
            item[i] = r, item_lane[i] = l, next[i] = NO_RECORD;
            if (q->stamp[g] != q->now) {
                q->stamp[g] = q->now, q->key[g] = r->pc, q->value[g] = n_requests;
                requests[n_requests++] = (request){r->pc, nth, r->kind, i, i};
            } else {
                request *to = &requests[q->value[g]];
                next[to->tail] = i, to->tail = i;
            }
        }
    }
    for (size_t j = 0; j < n_requests; j++) {
        const access_record *lane[32];
        int lane_id[32], m = 0;
        for (size_t i = requests[j].head; i != NO_RECORD && m < 32; i = next[i])
            lane[m] = item[i], lane_id[m++] = item_lane[i];
        request_cost c = cost(lane, lane_id, m, (int)requests[j].kind);
        add(C->kernel_stats, (int)requests[j].kind, c);
        add(C->unit_stats, (int)requests[j].kind, c);
        /* Lanes of the warp that did not make it took another path: a divergent warp. */
        if (m < lanes)
            C->kernel_stats->divergent_requests++, C->unit_stats->divergent_requests++;
        if (requests[j].kind == SHARED_LOAD || requests[j].kind == SHARED_STORE) {
            note_worst_shared(C->kernel_stats, c, lane, lane_id, m);
            note_worst_shared(C->unit_stats, c, lane, lane_id, m);
        }
    }
}

/* Which words each thread's global accesses wrote and whose words they read (made.c); 0
 * where the block made none. */
static int note_made(int n_threads)
{
    int any = 0;
    for (int i = 0; i < n_threads; i++)
        for (size_t k = 0; k < threads[i].n_rec; k++) {
            const access_record *r = &threads[i].rec[k];
            if (r->kind == GLOBAL_LOAD || r->kind == CONSTANT_LOAD || r->kind == GLOBAL_STORE ||
                r->kind == GLOBAL_ATOMIC) {
                tl_emu_made_access(r->addr, r->size, r->kind != GLOBAL_LOAD && r->kind != CONSTANT_LOAD,
                                   r->kind != GLOBAL_STORE);
                any = 1;
            }
        }
    return any;
}

/* made: whether the words the block wrote and read are followed (made.c), as they are for a
 * launch counted for the profile and never for one counted for the clock alone. */
static void tally_block(int n_threads, int made)
{
    tl_emu_stats *both[] = {C->kernel_stats, C->unit_stats};
    for (int i = 0; i < 2; i++) {
        both[i]->barriers += block_barriers, both[i]->warp_collectives += block_collectives;
        both[i]->warp_shuffles += block_shuffles, both[i]->warp_syncs += block_syncwarps;
    }
    if (made && !note_made(n_threads))
        both[0]->idle_blocks++, both[1]->idle_blocks++;
    read_sites();
    for (int i = 0; i < n_threads; i++)
        as_instructions(&threads[i]);
    for (int w = 0; w * 32 < n_threads; w++)
        tally_warp(w * 32, n_threads - w * 32 < 32 ? n_threads - w * 32 : 32);
    for (int i = 0; i < n_threads; i++)
        threads[i].n_rec = 0;
}

void tl_emu_profile(int on)
{
    tl_emu_kit_write(1);
    C->counting = on;
    tl_emu_kit_write(0);
}

void tl_emu_on_progress(tl_emu_progress_fn *fn)
{
    tl_emu_kit_write(1);
    C->progress = fn;
    tl_emu_kit_write(0);
}

void tl_emu_stats_reset(void)
{
    tl_emu_kit_write(1);
    C->n_stats = 0;
    C->profiled_launches = 0;
    tl_emu_made_reset();
    tl_emu_kit_write(0);
}

void tl_emu_launches_reset(void)
{
    tl_emu_kit_write(1);
    C->n_launches = 0;
    tl_emu_kit_write(0);
}

int tl_emu_launch_count(void)
{
    return C->n_launches;
}

const tl_launch *tl_emu_launch_get(int i)
{
    return i >= 0 && i < C->n_launches && i < TL_MAX_LAUNCHES ? &C->launch[i] : NULL;
}

long tl_emu_profiled_launches(void)
{
    return C->profiled_launches;
}

int tl_emu_stats_count(void)
{
    return C->n_stats;
}

const tl_emu_stats *tl_emu_stats_get(int i)
{
    return i >= 0 && i < C->n_stats ? &C->stats[i] : NULL;
}

/* The counts of a kernel (or a copy call) by its name; the pages are open. */
static tl_emu_stats *stats_for(const char *kernel)
{
    for (int i = 0; i < C->n_stats; i++)
        if (strcmp(C->stats[i].kernel, kernel) == 0)
            return &C->stats[i];
    if (C->n_stats == (int)(sizeof C->stats / sizeof *C->stats))
        return &C->stats[C->n_stats - 1];
    memset(&C->stats[C->n_stats], 0, sizeof *C->stats);
    C->stats[C->n_stats].kernel = kernel;
    return &C->stats[C->n_stats++];
}

/* 32-byte sectors that [a, a + bytes) spans. */
static unsigned long long sectors(uintptr_t a, size_t bytes)
{
    return bytes ? (a + bytes - 1) / 32 - a / 32 + 1 : 0;
}

void tl_emu_count_copy(const char *call, uintptr_t src, size_t src_pitch, uintptr_t dst,
                       size_t dst_pitch, size_t width, size_t height)
{
    if (!profiling || !width || !height)
        return;
    tl_emu_kit_write(1);
    tl_emu_stats *counted[2] = {stats_for(call), tl_emu_unit_begin(call)};
    /* requests as a copy kernel makes them: a warp moves 128 bytes of a row at a time */
    unsigned long long requests = (width + 127) / 128;
    for (int i = 0; i < 2; i++) {
        tl_emu_stats *k = counted[i];
        k->launches++;
        for (size_t r = 0; r < height; r++) {
            if (src) {
                k->global_load_requests += requests;
                k->global_load_sectors += sectors(src + r * src_pitch, width);
                k->global_load_bytes += width;
            }
            k->global_store_requests += requests;
            k->global_store_sectors += sectors(dst + r * dst_pitch, width);
            k->global_store_bytes += width;
        }
    }
    for (size_t r = 0; r < height; r++) {
        if (src)
            tl_emu_made_access(src + r * src_pitch, width, 0, 1);
        tl_emu_made_access(dst + r * dst_pitch, width, 1, 0);
    }
    tl_emu_kit_write(0);
}

/* ------------------------------------------------------------------ launch */

/* The blocks of a launch counted for the emulator's clock alone, about (tl_emu_launch). */
#define CLOCK_BLOCKS 64

static int prepare(void)
{
    if (stacks)
        return 0;
    void *p = mmap(NULL, TL_EMU_MAX_THREADS * STACK_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    stacks = p;
    tl_emu_read_statics();
    return 0;
}

/*
 * Every thread still running waits at a __syncthreads(), and the lanes of
 * a warp at the same one, or the kernel's behaviour is undefined (a GPU may
 * hang, or let the threads on through different barriers).
 * compute-sanitizer's synccheck reports it as a barrier error; so does the
 * emulator, naming both barriers. Different warps may wait at different
 * __syncthreads(): every one is the block's barrier 0 (PTX bar.sync 0),
 * which counts the threads that arrive, wherever they are (warp-specialised
 * code, one branch a group of warps, relies on it).
 */
static void check_one_barrier(int n_threads)
{
    int first = -1;
    for (int i = 0; i < n_threads; i++) {
        const emu_thread *t = &threads[i];
        if (i % 32 == 0)
            first = -1;
        if (t->state != AT_BARRIER)
            continue;
        if (first < 0) {
            first = i;
            continue;
        }
        const emu_thread *f = &threads[first];
        if (t->barrier_line == f->barrier_line &&
            (t->barrier_file == f->barrier_file || strcmp(t->barrier_file, f->barrier_file) == 0))
            continue;
        uint3 a = f->idx, b = t->idx, blk = tl_emu_builtin.blockIdx;
        kernel_failed(cudaErrorLaunchFailure, 0,
                      "barrier error in block (%u, %u, %u) of %s: thread (%u, %u, %u) waits at the "
                      "__syncthreads() of %s:%d and thread (%u, %u, %u) at the one of %s:%d. "
                      "Every thread of a block must reach the same __syncthreads() (as "
                      "compute-sanitizer --tool synccheck says): move it out of the if, or make "
                      "the condition the same for the whole block",
                      blk.x, blk.y, blk.z, kernel_name, a.x, a.y, a.z, f->barrier_file,
                      f->barrier_line, b.x, b.y, b.z, t->barrier_file, t->barrier_line);
        return;
    }
}

/* What a __syncthreads_count(), _and() or _or() returns to each thread, once all have come. */
/* A barrier that opens without threads of the block that returned before reaching it (an
 * early return, or the barrier inside a bounds test): said once a process, not an error,
 * since GPUs from Volta on run it as the emulator does. */
static void note_barrier_without_exited(int n_threads)
{
    static int told;
    const emu_thread *waiting = NULL, *exited = NULL;
    int n_exited = 0;
    for (int i = 0; i < n_threads; i++) {
        if (threads[i].state == AT_BARRIER && !waiting)
            waiting = &threads[i];
        if (threads[i].state == DONE)
            n_exited++, exited = exited ? exited : &threads[i];
    }
    if (told || !waiting || !exited)
        return;
    told = 1;
    uint3 e = exited->idx, b = tl_emu_builtin.blockIdx;
    fprintf(stderr, "tilelab emulator: the __syncthreads() of %s:%d in block (%u, %u, %u) of %s "
            "opened without %d of the block's %d threads (thread (%u, %u, %u) the first), which "
            "had returned before reaching it: GPUs from Volta (sm_70) on no longer count a thread "
            "that has exited, and run this as the emulator does, but CUDA allows __syncthreads() "
            "in conditional code only where the condition is the same for the whole block. Keep "
            "every thread to the barrier: test the bounds around the load and the store, not "
            "around the __syncthreads() (and no return before it)\n",
            waiting->barrier_file, waiting->barrier_line, b.x, b.y, b.z, kernel_name, n_exited,
            n_threads, e.x, e.y, e.z);
}

static void open_barrier(int n_threads)
{
    int count = 0, all = 1, any = 0, op = TL_SYNC_PLAIN;
    for (int i = 0; i < n_threads; i++)
        if (threads[i].state == AT_BARRIER) {
            op = threads[i].barrier_op;
            count += threads[i].barrier_pred;
            all &= threads[i].barrier_pred;
            any |= threads[i].barrier_pred;
        }
    int result = op == TL_SYNC_COUNT ? count : op == TL_SYNC_AND ? all : op == TL_SYNC_OR ? any : 0;
    note_barrier_without_exited(n_threads);
    tl_emu_race_epoch();
    block_barriers++;
    for (int i = 0; i < n_threads; i++)
        if (threads[i].state == AT_BARRIER) {
            stretch_file = threads[i].barrier_file, stretch_line = threads[i].barrier_line;
            break;
        }
    for (int i = 0; i < n_threads; i++)
        if (threads[i].state == AT_BARRIER) {
            threads[i].barrier_result = result;
            threads[i].state = READY;
        }
}

/* "lane 3 (thread (3, 0, 0))", for the errors of a warp's collectives. */
static const char *lane_name(int i, char *buf, size_t len)
{
    uint3 t = threads[i].idx;
    snprintf(buf, len, "lane %d (thread (%u, %u, %u))", i % 32, t.x, t.y, t.z);
    return buf;
}

/* Where thread i waits, in words: "__ballot_sync(0x0000ffff, ...) at f.cu:12". */
static const char *waits_at(int i, char *buf, size_t len)
{
    const emu_thread *t = &threads[i];
    if (t->state == AT_BARRIER)
        snprintf(buf, len, "the __syncthreads() of %s:%d", t->barrier_file, t->barrier_line);
    else
        snprintf(buf, len, "%s with mask 0x%08x at %s:%d", tl_emu_warp_name(t->call->op),
                 t->call->mask, t->call->file, t->call->line);
    return buf;
}

/* Lane l waits at a collective whose mask names lane m, which will never come to it. */
static void warp_error(int l, int m)
{
    char a[64], b[64], at_l[320], at_m[320];
    uint3 blk = tl_emu_builtin.blockIdx;
    kernel_failed(cudaErrorLaunchFailure, 0,
                  "warp error in warp %d of block (%u, %u, %u) of %s: %s waits at %s, and %s, "
                  "which that mask names, waits at %s. Every lane a warp collective's mask names "
                  "must reach one with the same mask (or have exited): a GPU leaves this "
                  "undefined, and may hang. Give each its own mask (__activemask(), or the lanes "
                  "that take that branch), or call it where all those lanes do",
                  l / 32, blk.x, blk.y, blk.z, kernel_name, lane_name(l, a, sizeof a),
                  waits_at(l, at_l, sizeof at_l), lane_name(m, b, sizeof b),
                  waits_at(m, at_m, sizeof at_m));
}

/* The lanes of one collective: the same operation, mask and size of value. */
static int same_collective(const tl_emu_warp_call *a, const tl_emu_warp_call *b)
{
    return a->op == b->op && a->mask == b->mask && a->size == b->size;
}

/* A lane read what a lane outside its collective holds: said once a launch. */
static int undefined_read_told;

/*
 * None of the lanes of a warp (threads first .. first + lanes - 1) runs:
 * each has ended, waits at __syncthreads() or at a warp collective. Each
 * collective whose mask's lanes are all there (or have exited: a lane
 * past the block's last counts as exited) exchanges its values and its
 * lanes run on. Lanes at __activemask() wait until nothing else can go on:
 * then each gets the lanes that wait at the same one, the lanes a GPU runs
 * there together. Returns whether any lane runs on; where none can, the
 * kernel fails naming two lanes that do not meet.
 */
static int settle_warp(int first, int lanes)
{
    emu_thread *t = &threads[first];
    unsigned waiting = 0, exited = lanes < 32 ? ~0u << lanes : 0, activemask = 0;
    for (int l = 0; l < lanes; l++) {
        if (t[l].state == AT_WARP)
            waiting |= 1u << l;
        if (t[l].state == AT_WARP && t[l].call->op == TL_WARP_ACTIVEMASK)
            activemask |= 1u << l;
        if (t[l].state == DONE)
            exited |= 1u << l;
    }
    int progress = 0, stuck = -1, blocker = -1;
    for (int l = 0; l < lanes; l++) {
        if (!((waiting & ~activemask) >> l & 1))
            continue;
        const tl_emu_warp_call *c = t[l].call;
        if (!(c->mask >> l & 1)) {
            char a[64], at[320];
            uint3 blk = tl_emu_builtin.blockIdx;
            kernel_failed(cudaErrorLaunchFailure, 0,
                          "warp error in warp %d of block (%u, %u, %u) of %s: %s calls %s, a mask "
                          "that leaves out its own lane. A lane that calls a warp collective must "
                          "be in its mask (a GPU leaves this undefined)",
                          (first + l) / 32, blk.x, blk.y, blk.z, kernel_name,
                          lane_name(first + l, a, sizeof a), waits_at(first + l, at, sizeof at));
            return 0;
        }
        unsigned group = 0;
        int missing = -1;
        for (int m = 0; m < 32 && missing < 0; m++) {
            if (!(c->mask >> m & 1) || (exited >> m & 1))
                continue;
            if ((waiting >> m & 1) && same_collective(t[m].call, c))
                group |= 1u << m;
            else
                missing = m;
        }
        if (missing >= 0) {
            /* A lane at __activemask() may yet come here; any other never will. */
            if (!(activemask >> missing & 1) && stuck < 0)
                stuck = first + l, blocker = first + missing;
            continue;
        }
        tl_emu_warp_call *calls[32] = {0};
        for (int m = 0; m < 32; m++)
            if (group >> m & 1)
                calls[m] = t[m].call;
        int reader = -1;
        tl_emu_warp_exchange(calls, group, &reader);
        tl_emu_race_meet(first, group, ~exited);
        block_collectives++;
        block_shuffles += c->op <= TL_WARP_SHFL_XOR || c->op >= TL_WARP_REDUCE_ADD;
        block_syncwarps += c->op == TL_WARP_SYNC;
        if (reader >= 0 && !undefined_read_told) {
            char a[64];
            undefined_read_told = 1;
            fprintf(stderr, "tilelab emulator: %s of block (%u, %u, %u) of %s read, with %s at "
                    "%s:%d, the value of a lane that does not take part in it (one that has "
                    "exited, that the mask leaves out, or past the block's last thread): CUDA "
                    "leaves it undefined; the H100 gives 0, and so does the emulator\n",
                    lane_name(first + reader, a, sizeof a), tl_emu_builtin.blockIdx.x,
                    tl_emu_builtin.blockIdx.y, tl_emu_builtin.blockIdx.z, kernel_name,
                    tl_emu_warp_name(c->op), c->file, c->line);
        }
        for (int m = 0; m < 32; m++)
            if (group >> m & 1)
                t[m].state = READY;
        waiting &= ~group;
        progress = 1;
    }
    if (progress)
        return 1;
    if (activemask) {
        for (int l = 0; l < lanes; l++) {
            if (!(activemask >> l & 1))
                continue;
            unsigned together = 0;
            for (int m = 0; m < lanes; m++)
                if ((activemask >> m & 1) && t[m].call->line == t[l].call->line &&
                    strcmp(t[m].call->file, t[l].call->file) == 0)
                    together |= 1u << m;
            t[l].call->result = together;
            t[l].state = READY;
        }
        return 1;
    }
    warp_error(stuck, blocker);
    return 0;
}

/*
 * Runs the lanes of one warp, in lane order, each until it ends or waits at
 * __syncthreads() or a warp collective; the collectives are settled and
 * their lanes run on, until every lane has ended or waits at
 * __syncthreads(). Lanes that use no collective run one after another as
 * before: only a collective makes them meet. Returns the lanes still running.
 */
static int run_warp(int first, int lanes)
{
    for (int waiting = 1; waiting && !aborted;) {
        waiting = 0;
        for (int l = first; l < first + lanes && !aborted; l++) {
            /* The next threads' stacks, while this one runs: a thread's stack has gone cold
             * by its turn (a block's others ran since), and switching to it would wait. A
             * thread's fiber is made at its first turn, where its stack is about to be used. */
            tl_fiber_prefetch(l + 2 < TL_EMU_MAX_THREADS ? threads[l + 2].fiber : NULL, 0);
            tl_fiber_prefetch(l + 1 < TL_EMU_MAX_THREADS ? threads[l + 1].fiber : NULL, 1);
            if (threads[l].state == READY) {
                forget_reads();
                current = l;
                tl_emu_builtin.threadIdx = threads[l].idx;
                if (!threads[l].fiber) {
                    /* Each stack ends at its own offset in its 64 KiB: tops 64 KiB apart
                     * would share a set of every cache level. */
                    size_t stagger = (size_t)l * 1088 % 16384;
                    threads[l].fiber = tl_fiber_at(stacks + (size_t)l * STACK_BYTES, STACK_BYTES - stagger,
                                                   thread_main);
                }
                tl_fiber_switch(tl_fiber_main(), threads[l].fiber);
            }
            waiting |= threads[l].state == AT_WARP;
        }
        if (waiting && !aborted && !settle_warp(first, lanes))
            break;
    }
    int running = 0;
    for (int l = first; l < first + lanes; l++)
        running += threads[l].state != DONE;
    return running;
}

static void run_block(int n_threads)
{
    unsigned bx = tl_emu_builtin.blockDim.x, by = tl_emu_builtin.blockDim.y;
    uint3 idx = {0, 0, 0}; /* thread i's: i % bx, i / bx % by, i / (bx * by) */
    for (int i = 0; i < n_threads; i++) {
        emu_thread *t = &threads[i];
        t->fiber = NULL; /* made at its first turn (run_warp) */
        t->state = READY;
        t->n_copies = 0, t->batch = 0;
        t->outside = 0;
        t->idx = idx;
        if (++idx.x == bx && (idx.x = 0, ++idx.y == by))
            idx.y = 0, idx.z++;
    }
    tl_emu_poison_shared(launch_dynamic);
    tl_emu_race_epoch();
    block_barriers = block_collectives = block_shuffles = block_syncwarps = 0;
    race.found = 0, stretch_file = NULL, stretch_line = 0;
    for (int running = n_threads; running > 0 && !aborted;) {
        running = 0;
        for (int first = 0; first < n_threads && !aborted; first += 32)
            running += run_warp(first, n_threads - first < 32 ? n_threads - first : 32);
        tell_race(); /* the stretch has ended: at a barrier, or at the block's end */
        if (running && !aborted)
            check_one_barrier(n_threads);
        if (running && !aborted)
            open_barrier(n_threads);
    }
    current = -1;
}

/* The running launch's kernel by its symbol, as a GPU's loaded code names it (launch.h): the
 * function its first thread entered, whatever expression the launch named it by (a pointer
 * to one of several kernels). */
static void launch_symbol(const char *symbol)
{
    tl_launch_symbol(symbol);
    tl_emu_kit_write(1);
    if (C->n_launches > 0 && C->n_launches <= TL_MAX_LAUNCHES)
        snprintf(C->launch[C->n_launches - 1].symbol, sizeof C->launch[0].symbol, "%s", symbol);
    tl_emu_kit_write(0);
}

void tl_emu_cuda_kernel_entry(int regs, int smem, int max_threads)
{
    if (current < 0 || launch_entered)
        return;
    launch_entered = 1;
    tl_emu_kernel *k = tl_emu_kernel_at(tl_emu_function_at(TL_PC));
    launch_symbol(tl_emu_function_name(TL_PC));
    if (k)
        tl_emu_kernel_learn(k, regs, smem, max_threads);
    tl_emu_kernel alone = {.regs = regs, .smem = smem, .max_threads = max_threads, .max_dynamic = -1};
    char why[512];
    unsigned n = launch_threads();
    cudaError_t err = tl_emu_kernel_refusal(k ? k : &alone, n, launch_dynamic, why, sizeof why);
    if (!err)
        return;
    /* Refused as the launch itself, where cudaGetLastError sees it; nothing of the kernel ran. */
    tl_emu_fail(err, "%s<<<(%u, %u, %u), (%u, %u, %u), %zu>>> at %s:%d: %s", kernel_name,
                launch_grid.x, launch_grid.y, launch_grid.z, launch_block.x, launch_block.y,
                launch_block.z, launch_dynamic, launch_file, launch_line, why);
    launch_refused = err;
    aborted = 1;
    tl_fiber_switch(threads[current].fiber, tl_fiber_main());
    abort(); /* an aborted thread is never resumed */
}

cudaError_t tl_emu_launch(dim3 grid, dim3 block, size_t dynamic_shared, cudaStream_t stream,
                          const char *kernel, const char *file, int line, tl_emu_body fn,
                          void *args, size_t args_bytes)
{
    (void)stream;
    const unsigned grid3[3] = {grid.x, grid.y, grid.z}, block3[3] = {block.x, block.y, block.z};
    tl_launch_note(grid3, block3, (unsigned long)dynamic_shared, kernel);
    tl_emu_kit_write(1); /* and in the kit's pages, where the lab's code cannot rewrite it */
    if (C->n_launches < TL_MAX_LAUNCHES)
        C->launch[C->n_launches] = *tl_launch_get(tl_launch_count() - 1);
    C->n_launches++;
    tl_emu_kit_write(0);
    /* After a fault the context is lost: later kernels never run. */
    if (tl_emu_context_lost())
        return tl_emu_context_error();
    /* Refused as CUDA 13 refuses it on the H100 (make GPU=cuda emu-corpus). */
    unsigned long long n = (unsigned long long)block.x * block.y * block.z;
    /* CUDA 13's error for a launch it refuses, as the H100 answers (plots/data/launch-limits-h100.txt). */
    tl_launch_fault fault = tl_launch_fault_of(grid3, block3);
    cudaError_t refusal = fault == TL_LAUNCH_RUNS ? cudaSuccess : cudaErrorInvalidValue;
    if (fault == TL_LAUNCH_BAD_BLOCK)
        return tl_emu_fail(refusal,
             "%s<<<(%u, %u, %u), (%u, %u, %u)>>> at %s:%d: %llu threads per block (at most 1024; "
             "x and y at most 1024, z at most 64, no dimension 0)",
             kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, file, line, n);
    if (refusal)
        return tl_emu_fail(refusal,
             "%s<<<(%u, %u, %u), (%u, %u, %u)>>> at %s:%d: a grid of (%u, %u, %u) blocks (y and z "
             "at most 65535, no dimension 0)",
             kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, file, line, grid.x, grid.y,
             grid.z);
    /* What no kernel may ask for; the rest its first line checks (tl_emu_cuda_kernel_entry). */
    char why[512];
    if ((refusal = tl_emu_kernel_refusal(NULL, (unsigned)n, dynamic_shared > TL_EMU_DYNAMIC_SHARED_BYTES
                                                                ? dynamic_shared : 0, why, sizeof why)))
        return tl_emu_fail(refusal, "%s<<<(%u, %u, %u), (%u, %u, %u), %zu>>> at %s:%d: %s", kernel,
                           grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_shared, file,
                           line, why);
    if (prepare())
        return tl_emu_fail(cudaErrorMemoryAllocation, "the emulator could not reserve stacks for its threads");
    body = fn;
    body_args = args;
    body_args_bytes = args_bytes;
    kernel_name = kernel;
    launch_file = file, launch_line = line, launch_grid = grid, launch_block = block;
    launch_dynamic = dynamic_shared, launch_entered = 0, launch_refused = cudaSuccess;
    tl_emu_builtin.blockDim = (uint3){block.x, block.y, block.z};
    tl_emu_builtin.gridDim = (uint3){grid.x, grid.y, grid.z};
    aborted = 0;
    undefined_read_told = stray_told = 0;
    over_write.size = 0; /* a kernel that faulted may have left one */
    /* Counted: the launch's bookkeeping with the kit's pages open, its blocks with them closed.
     * Where the lab's code may time it (an event that keeps time exists) and counting is off, a
     * launch is counted for the emulator's clock alone (streams.c): into counts of its own outside
     * the kit's pages, which nothing else reads, with no unit of work and no words followed
     * (made.c), so that it costs no more than the clock needs and leaves nothing behind. Of its
     * blocks it counts about CLOCK_BLOCKS, evenly spread, and the clock takes their memory for
     * the whole grid's: counting doubles a block's time, and a file that kept an event while its
     * tests ran a 4097^2 transpose went past their CPU-time limit, where the GPU is done in
     * microseconds. */
    static tl_emu_stats clock_kernel, clock_unit;
    tl_emu_stats *kernel_was = C->kernel_stats, *unit_was = C->unit_stats;
    int clock_only = !profiling && tl_emu_timing();
    int counted = profiling || clock_only, known_kernels = C->n_stats;
    tl_emu_stats before;
    memset(&before, 0, sizeof before);
    unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z, sampled = 0;
    unsigned long long every = clock_only && blocks > CLOCK_BLOCKS ? blocks / CLOCK_BLOCKS : 1;
    if (clock_only) {
        memset(&clock_kernel, 0, sizeof clock_kernel);
        memset(&clock_unit, 0, sizeof clock_unit);
        tl_emu_kit_write(1);
        C->kernel_stats = &clock_kernel, C->unit_stats = &clock_unit;
        tl_emu_kit_write(0);
    } else if (counted) {
        tl_emu_kit_write(1);
        C->kernel_stats = stats_for(kernel);
        C->unit_stats = tl_emu_unit_begin(kernel);
        before = *C->kernel_stats;
        C->kernel_stats->launches++, C->unit_stats->launches++;
        C->profiled_launches++;
        tl_emu_kit_write(0);
    }
    tl_emu_globals_begin();
    tl_emu_device_memory(1);
    tl_emu_block_race_launch();
    n_outside_kinds = 0;
    for (unsigned z = 0; z < grid.z && !aborted; z++)
        for (unsigned y = 0; y < grid.y && !aborted; y++)
            for (unsigned x = 0; x < grid.x && !aborted; x++) {
                tl_emu_builtin.blockIdx.x = x, tl_emu_builtin.blockIdx.y = y, tl_emu_builtin.blockIdx.z = z;
                int sample = clock_only && (((unsigned long long)z * grid.y + y) * grid.x + x) % every == 0;
                if (clock_only && sample != C->counting) {
                    tl_emu_kit_write(1);
                    C->counting = sample;
                    tl_emu_kit_write(0);
                }
                run_block((int)n);
                if (!aborted)
                    check_block_race();
                if (sample)
                    tally_block((int)n, 0), sampled++;
                if (!counted || clock_only)
                    continue;
                tl_emu_kit_write(1);
                C->kernel_stats->blocks++, C->unit_stats->blocks++;
                C->kernel_stats->threads += n, C->unit_stats->threads += n;
                tally_block((int)n, 1);
                tl_emu_kit_write(0);
                if (C->progress)
                    C->progress(kernel, ((unsigned long long)z * grid.y + y) * grid.x + x + 1,
                                (unsigned long long)grid.x * grid.y * grid.z);
            }
    tl_emu_device_memory(0);
    tl_emu_globals_settle();
    if (counted && !launch_refused) {
        const tl_emu_stats *k = C->kernel_stats;
        tl_emu_clock_launch(tl_memory_cost((double)(k->global_load_sectors - before.global_load_sectors),
                                           (double)(k->global_store_sectors - before.global_store_sectors),
                                           (double)(k->constant_load_passes - before.constant_load_passes),
                                           (double)(k->shared_load_wavefronts - before.shared_load_wavefronts +
                                                    k->shared_store_wavefronts - before.shared_store_wavefronts)) *
                                (clock_only && sampled ? (double)blocks / (double)sampled : 1.0),
                            blocks);
    }
    if (clock_only) {
        tl_emu_kit_write(1);
        C->counting = 0;
        C->kernel_stats = kernel_was, C->unit_stats = unit_was;
        tl_emu_kit_write(0);
    } else if (launch_refused && counted) {
        /* A launch CUDA refuses never ran: nothing of it counts. */
        tl_emu_kit_write(1);
        *C->kernel_stats = before;
        tl_emu_unit_drop();
        C->profiled_launches--;
        C->n_stats = known_kernels;
        tl_emu_kit_write(0);
    }
    if (launch_refused || clock_only)
        for (int i = 0; i < (int)n; i++)
            threads[i].n_rec = 0;
    return launch_refused;
}
