/*
 * What the emulator's own files share (runtime.c, shared.c, emulator.c);
 * nothing here is for the labs or the rest of the harness.
 */
#ifndef TILELAB_EMULATOR_H
#define TILELAB_EMULATOR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda_runtime.h"
#include "emu.h"

/* runtime.c: errors. A call's error, with what the emulator saw behind it (cudaGetLastError). */
cudaError_t tl_emu_fail(cudaError_t err, const char *fmt, ...);
/* A kernel's fault: its error shows at the next call that waits for the kernel. */
void tl_emu_fault_later(cudaError_t err, int no_gpu_error, const char *fmt, va_list ap);
/* A call that waits for the device: a kernel's fault becomes its error; the sticky error. */
cudaError_t tl_emu_settle(void);
/* After a fault the context is lost, as on a GPU: later kernels never run. */
int tl_emu_context_lost(void);
/* The error that lost it (cudaSuccess while it is not lost). */
cudaError_t tl_emu_context_error(void);

/* runtime.c: device memory, one reserved range with a gap after each allocation. */
typedef struct {
    uintptr_t base;
    size_t size;
    int freed;
    /* A lab's matrix as the harness named it (tl_emu_name_allocation): its name, and where
     * its elements lie in the allocation (the rest is the kit's margins); name NULL if none. */
    const char *name;
    size_t data_offset, data_bytes;
    /* What a GPU would map of it: cudaMalloc hands out memory in 2 MiB pages, so the bytes
     * from base to the end of its last page answer an access there, past the allocation,
     * without a fault (a kernel's malloc, from the device's heap: its size). The emulator
     * fills that part with the margin's NaN where it is first reached, up to filled. */
    size_t mapped;
    uintptr_t filled;
    int in_kernel; /* from a kernel's malloc, not from cudaMalloc */
} tl_emu_allocation;
/* The page a GPU maps device memory in, and cudaMalloc hands it out from. */
#define TL_EMU_GPU_PAGE ((size_t)2 << 20)
int tl_emu_has_arena(void);
/* Reserves the range and sets up the handler of faults in it (0), where not done yet. */
int tl_emu_open_arena(void);
int tl_emu_in_arena(uintptr_t a);
/* Where the range lies, reserved whole (0 before it is). */
void tl_emu_arena_range(uintptr_t *base, size_t *bytes);
/* The allocation holding a, or the one just below it; NULL when none is below. */
const tl_emu_allocation *tl_emu_allocation_near(uintptr_t a);
/* The live allocation holding all of [a, a + bytes), or NULL. */
const tl_emu_allocation *tl_emu_allocation_of(uintptr_t a, size_t bytes);
/* The live allocation whose mapped part (past its end, inside its last 2 MiB page, where a GPU
 * does not fault) holds all of [a, a + bytes), there filled with TL_MARGIN_BITS where it was not
 * yet (matrix.h: a read past the end of an input shows so in a result that uses it); or NULL. */
const tl_emu_allocation *tl_emu_allocation_mapped(uintptr_t a, size_t bytes);
/* A kernel's malloc and free: device memory from the device's heap, or NULL. */
void *tl_emu_device_malloc(size_t bytes);
void tl_emu_device_free(void *p);
/* Where the device's heap is capped (emu.h's tl_emu_device_heap_cap) and bytes more would pass
 * the cap: the cap; else 0. */
size_t tl_emu_device_heap_capped(size_t bytes);
/* Device memory open to the host (1: while the emulator works in it) or closed (0). */
void tl_emu_device_memory(int open);

/* A lane's part in a warp collective (tl_emu_cuda_warp): what it brings and what it gets back. */
typedef struct {
    int op; /* TL_WARP_... */
    unsigned mask, size;
    int b, c; /* a shuffle's lane, offset or lane mask, and its packed width */
    unsigned long long value, result;
    int pred; /* __match_all_sync's */
    const char *file;
    int line;
} tl_emu_warp_call;
/* emulator.c: the running lane waits at call until the lanes of its warp meet there. */
void tl_emu_warp_wait(tl_emu_warp_call *call);
/* warp.c: the results of the lanes of group (bit l: lane l, call[l] its part), which
 * met at one collective; *reader (if not NULL) the first that read a lane outside it, or -1. */
void tl_emu_warp_exchange(tl_emu_warp_call *const call[32], unsigned group, int *reader);
/* "__shfl_down_sync", for messages. */
const char *tl_emu_warp_name(int op);

/* The most threads a block has. */
#define TL_EMU_MAX_THREADS 1024

/* race.c: races on shared memory (racecheck's hazards). A block starts, or its barrier opens:
 * accesses before and after no longer race. */
void tl_emu_race_epoch(void);
/* The lanes of group (bit l: thread first + l) met at a warp collective: ordered since;
 * running: the lanes of the warp that have not exited. */
void tl_emu_race_meet(int first, unsigned group, unsigned running);
/* The earlier access a race is with: its thread, instruction, the byte, whether it wrote,
 * and which run of its source expression it was (tl_emu_race_run; 0: not known). */
typedef struct {
    int thread;
    uintptr_t pc, addr;
    int stored;
    unsigned nth;
} tl_emu_race;
/* Thread thread runs the shared access of source expression key (its first check) once
 * more: how many times it has since its block began or its barrier last opened (a loop's
 * pass, where the expression is in a loop), 0 where that is not known. */
unsigned tl_emu_race_run(int thread, uintptr_t key);
/* Thread thread's access of size bytes of shared memory at a (a store or not) by the
 * instruction at pc, its nth run (tl_emu_race_run): 1 and *r where it races with an earlier
 * one; 0, and it is recorded. */
int tl_emu_race_check(int thread, uintptr_t a, size_t size, int store, uintptr_t pc, unsigned nth,
                      tl_emu_race *r);
/* A store tl_emu_race_check found racing with another thread's write, which left the bytes
 * as they were (both stored the same): no race, since either order leaves them so; it is
 * recorded as the words' last write, as a store that raced with nothing is. */
void tl_emu_race_wrote_same(int thread, uintptr_t a, size_t size, uintptr_t pc, unsigned nth);

/* block_race.c: races between the blocks of a launch on a __device__ variable (or a small
 * cudaMalloc allocation). A launch begins; block (its index in the grid) stores size bytes at
 * a, in the variable of bytes bytes at beg, by the instruction at pc; or stored them already,
 * over the bytes was (a store gcc left unchecked, seen by the bytes it changed). writer is
 * the storing thread as emulator.c words it (its index in the block, and what it did
 * before), kept with the word and given back for both stores of a race. */
void tl_emu_block_race_launch(void);
void tl_emu_block_race_store(uintptr_t beg, size_t bytes, uintptr_t a, size_t size, uint32_t block,
                             uint16_t writer, uintptr_t pc);
void tl_emu_block_race_stored(uintptr_t beg, size_t bytes, uintptr_t a, size_t size, uint32_t block,
                              uint16_t writer, uintptr_t pc, const void *was);
/* A store of the block that just ended over another block's value, which it changed. */
typedef struct {
    uintptr_t addr, pc;
    size_t size;
    uint32_t other;                /* the other block's index in the grid */
    uint16_t writer, other_writer; /* the two stores' threads, as they were given */
} tl_emu_block_race;
/* 1 and *r where the block that just ended raced so; the block's stores are forgotten. */
int tl_emu_block_race_found(tl_emu_block_race *r);

/* atomic.c: the bytes an atomic of type TL_ATOMIC_... moves, and the atomic itself at p
 * (global: in global memory, not shared): returns the old value's bits. */
unsigned tl_emu_atomic_size(int type);
unsigned long long tl_emu_atomic_apply(int op, int type, void *p, unsigned long long v,
                                       unsigned long long compare, int global);
/* atomicAdd on count values of type side by side at p, each on its own; old gets them before. */
void tl_emu_atomic_add_vector(int type, int count, void *p, const void *v, void *old, int global);

/* kernels.c: the program's functions, from its symbol table (tl_emu_load_statics). */
void tl_emu_found_function(uintptr_t start, size_t size, const char *name);
/* The start of the function whose code holds pc, or 0. */
uintptr_t tl_emu_function_at(uintptr_t pc);
/* Its symbol, mangled ("" where there is none). */
const char *tl_emu_function_name(uintptr_t pc);
/* What the emulator knows of a kernel, by its function's address. */
typedef struct {
    uintptr_t fn;
    const char *name;  /* NULL where not registered */
    int regs, smem;    /* ptxas's registers a thread, and static __shared__ bytes: -1, not known */
    int max_threads;   /* __launch_bounds__'s: 0 for none, -1 not known */
    int max_dynamic;   /* cudaFuncAttributeMaxDynamicSharedMemorySize as set: -1, never set */
    tl_emu_argv_launch launch; /* cudaLaunchKernel from argument pointers; NULL, not known */
} tl_emu_kernel;
/* The kernel at fn, made on first ask; NULL for fn 0. */
tl_emu_kernel *tl_emu_kernel_at(uintptr_t fn);
/* What its first line says of it (-1: nothing). */
void tl_emu_kernel_learn(tl_emu_kernel *k, int regs, int smem, int max_threads);
/* cudaSuccess, or the error CUDA gives a launch of k (NULL: nothing known) of threads per block
 * and dynamic bytes of dynamic shared memory, with why in why. */
cudaError_t tl_emu_kernel_refusal(const tl_emu_kernel *k, unsigned threads, size_t dynamic,
                                  char *why, size_t len);
/*
 * The SMs of the H100 the kit's runs were recorded on (plots/data/launch-limits-h100.txt),
 * which cudaGetDeviceProperties and %nsmid give: a grid sized by them (lab 10's step 7, one
 * wave of a persistent kernel) is as large here as there, so a mistake that shows only past
 * some number of blocks shows on both. Their blocks still run one after another.
 */
#define TL_EMU_SMS 132

/* device.c: the GPU the emulator stands in for where a GPU grades (TILELAB_EMU_DEVICE), whose
 * answers the runtime gives: 1 where known (and the answer set), 0 to answer as the emulator. */
int tl_emu_device_known(void);
int tl_emu_device_attr(int attr, int *value);
void tl_emu_device_properties(struct cudaDeviceProp *p);
int tl_emu_device_meminfo(size_t *free_bytes, size_t *total);
int tl_emu_device_versions(int *driver, int *runtime, int *devices);

/* streams.c: the emulator's clock of the GPU, which events read. Whether an event that keeps
 * time exists (then every launch is counted, for the clock where not for a profile); a launch
 * of blocks blocks that moved the memory of sectors 32-byte sectors (memory_cost.h), through as
 * many SMs as it has blocks (all at most), and a copy or memset in
 * device memory, added to it. TL_EMU_LAUNCH_NS: what a launch or copy costs besides, about what
 * a GPU's events measure around an empty kernel. */
#define TL_EMU_LAUNCH_NS 2000.0
int tl_emu_timing(void);
/* runtime.c: whether a lab's own function runs now (tl_emu_lab_running). */
int tl_emu_lab_is_running(void);
/* Refuses a call a lab's function may not make (lab_refusals.h), as a GPU's launch plan refuses it:
 * the call fails with why, and nothing after it runs. */
cudaError_t tl_emu_refused_in_lab(const char *why);
void tl_emu_clock_launch(double sectors, unsigned long long blocks);
void tl_emu_clock_copy(size_t read, size_t written);

/* Blocks of block_size threads one SM holds (cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
int tl_emu_blocks_per_sm(const tl_emu_kernel *k, int block_size, size_t dynamic);

/* indirect.c: whether target is a function the lab file's build compiled; emulator.c:
 * the check of a call through a pointer to target (a kernel's calls: such a function only). */
int tl_emu_is_lab_function(uintptr_t target);
void tl_emu_called_through_pointer(uintptr_t target);

/* emulator.c: a lab's own cudaMemcpy (device to device, from src) or cudaMemset (src 0)
 * of height rows of width bytes at dst (rows pitch bytes apart), counted in the profile as
 * the copy kernel a GPU runs for it. */
void tl_emu_count_copy(const char *call, uintptr_t src, size_t src_pitch, uintptr_t dst,
                       size_t dst_pitch, size_t width, size_t height);

/* kit_pages.c: the emulator's counts, at a fixed address in pages the lab's code may read and
 * never write: each module's state at its offset from TL_EMU_KIT_BASE, then a heap. The
 * window's 8 GiB below TL_EMU_KIT_BASE + 4 GiB are reserved; confine.c refuses the lab's code
 * any change of mapping there (its address's high 32 bits TL_EMU_KIT_WINDOW_HI or one less).
 * Bookkeeping opens them (tl_emu_kit_write(1)) and closes them (0), nested. */
#define TL_EMU_KIT_WINDOW_HI 0x6b00u
#define TL_EMU_KIT_BASE ((uintptr_t)TL_EMU_KIT_WINDOW_HI << 32)
#define TL_EMU_KIT_HEADER 0
#define TL_EMU_KIT_RUNTIME 2048 /* runtime.c's: whether a lab's call runs, the cap on the device's heap */
#define TL_EMU_KIT_COUNTS 4096
#define TL_EMU_KIT_MADE (128 * 1024)
#define TL_EMU_KIT_HEAP (1024 * 1024)
#define TL_EMU_KIT_STATE(type, offset) ((type *)(TL_EMU_KIT_BASE + (offset)))
void tl_emu_kit_pages_map(void);
void tl_emu_kit_write(int on);
void *tl_emu_kit_alloc(size_t bytes);
void tl_emu_kit_free_all(void);

/* made.c: units of counted work (each launch and each copy of the lab's while counting), and
 * which of them made each word of device memory (emu.h's tl_emu_output). A new unit and the
 * counts it keeps; the last one dropped (a launch CUDA refused: it never ran); an access of
 * bytes at a by the current unit, which writes them, reads them, or both (an atomic). */
void tl_emu_made_reset(void);
tl_emu_stats *tl_emu_unit_begin(const char *name);
void tl_emu_unit_drop(void);
void tl_emu_made_access(uintptr_t a, size_t bytes, int writes, int reads);

/* shared.c: what gcc's instrumentation registers for each global it guards (ABI v8). */
struct asan_global {
    uintptr_t beg;
    uintptr_t size;
    uintptr_t size_with_redzone;
    const char *name;
    const char *module_name;
    uintptr_t has_dynamic_init;
    void *location;
    uintptr_t odr_indicator;
};
/* The registered global whose bytes (red zone included) hold a, or NULL. */
const struct asan_global *tl_emu_global_at(uintptr_t a);
/* Where the lab file's __shared__ arrays lie (the section tl_shared; 0 bytes for none). */
void tl_emu_shared_section(uintptr_t *start, size_t *bytes);
/* Whether a kernel (by_kernel) or host code may read (or write) g, by what the other side
 * did to it (shared.c): 0, or the other side's access that refuses it. */
enum { TL_HOST_READ = 1, TL_HOST_WROTE = 2, TL_KERNEL_READ = 4, TL_KERNEL_WROTE = 8 };
int tl_emu_global_reached(const struct asan_global *g, int by_kernel, int wrote);
/* Before a launch or a copy, and after it (shared.c): an operation of its own, and what it
 * left in the variables it reached. */
void tl_emu_globals_begin(void);
void tl_emu_globals_settle(void);
/* Its name in the lab file (rewrite renames a __shared__ variable: kernel_edits.h). */
const char *tl_emu_global_name(const struct asan_global *g);
/* Whether g is a __shared__ array; a __constant__ variable. */
int tl_emu_is_shared(const struct asan_global *g);
int tl_emu_is_constant(const struct asan_global *g);
/* Whether [a, a + size) lies inside one __shared__ array of a template kernel. */
int tl_emu_in_static(uintptr_t a, size_t size);
/* The source's name of the template kernel's __shared__ array at a (NULL where none is known
 * by name), and its start and size. */
const char *tl_emu_static_at(uintptr_t a, uintptr_t *beg, size_t *size);
/* Reads those arrays from the symbol table, once: before any code of the lab
 * file runs where the lab process is confined (confine.c), which then opens no file. */
void tl_emu_load_statics(void);
/* The same where not read yet, less those the instrumentation has registered since:
 * before the first launch. */
void tl_emu_read_statics(void);
/* Fills every __shared__ array with TL_SHARED_POISON_BITS (matrix.h), and the first dynamic
 * bytes of the dynamic shared memory, before each block. */
void tl_emu_poison_shared(size_t dynamic);
/* The most dynamic shared memory a block may have: the H100's sharedMemPerBlockOptin. */
#define TL_EMU_DYNAMIC_SHARED_BYTES ((size_t)227 << 10)

#endif
