/*
 * What the emulator tells about the kernels it ran: memory requests per
 * warp, the way a GPU's load/store unit sees them (and Nsight Compute
 * counts them).
 *
 * A request is one memory instruction executed by a warp: the j-th time
 * each of its threads runs that load or store. A global request moves the
 * 32-byte sectors its threads touch: 4 for 32 consecutive floats, 16 for
 * 32 consecutive float4s, 32 when each thread's float lies in a sector of
 * its own. Its efficiency is the bytes the threads asked for over the
 * bytes the sectors hold (100 % in the first two cases, 12.5 % in the
 * last). A shared request takes one pass (wavefront) per group of threads
 * the hardware serves together (the warp for 4-byte words, half of it for
 * 8 bytes, a quarter for 16; twice as many where lanes go in pairs on one
 * address), times the most distinct words that group wants from one of the
 * 32 banks: the ideal is 1 pass a group, and a read of one column of a
 * 32 x 32 float tile takes 32.
 */
#ifndef TILELAB_EMU_H
#define TILELAB_EMU_H

#include <stddef.h>

#include "launch.h"

typedef struct {
    const char *kernel;
    unsigned long long launches, blocks, threads;
    unsigned long long global_load_requests, global_load_sectors;
    unsigned long long global_store_requests, global_store_sectors;
    unsigned long long shared_load_requests, shared_load_wavefronts;
    unsigned long long shared_store_requests, shared_store_wavefronts;
    /* Bytes the threads asked for, and the wavefronts shared requests would take without conflicts. */
    unsigned long long global_load_bytes, global_store_bytes;
    unsigned long long shared_load_ideal, shared_store_ideal;
    /* Atomic functions (atomicAdd, atomicCAS, ...): requests, and for global memory the
     * sectors they touch and the bytes they asked for. Each is also a load and a store
     * above (a read-modify-write of its sectors, or of its banks' words): an access made
     * through an atomic costs what it moves, as any other. */
    unsigned long long global_atomic_requests, global_atomic_sectors, global_atomic_bytes;
    unsigned long long shared_atomic_requests;
    /* Reads of __constant__ variables (the constant cache's, not global memory's), and the
     * passes they took: the constant cache hands a warp one address a pass, so a request
     * whose lanes all read one address takes one, and one whose lanes read 32 different
     * addresses takes 32, one after another (a column of a matrix read through it costs
     * what a strided global access does). */
    unsigned long long constant_load_requests, constant_load_bytes;
    unsigned long long constant_load_passes;
    /* The shared request that took the most passes over its ideal: its passes and ideal, the
     * bytes from one lane's address to the next's where the lanes step evenly (0: they do
     * not), and the size of the __shared__ array it read or wrote (0: not known). A message
     * tells by them a padded tile indexed with the unpadded row length. */
    unsigned long long shared_worst_passes, shared_worst_ideal;
    long long shared_worst_stride;
    unsigned long long shared_worst_array_bytes;
    /* What the blocks did besides moving memory. barriers: the times a block's threads met
     * at a __syncthreads() (or its forms, or a block's sync), each block's counted. Warp
     * collectives: the times a warp's lanes met at one (one instruction of the warp), and of
     * them the shuffles (__shfl*_sync and __reduce_*_sync, a group's shfl and reduce: values
     * handed from lane to lane) and the __syncwarp()s (a tile's sync too). divergent_requests:
     * the memory requests only some of the warp's lanes made, the others having taken the
     * other side of a branch or left a loop or the kernel earlier (a divergent warp). */
    unsigned long long barriers, warp_collectives, warp_shuffles, warp_syncs;
    unsigned long long divergent_requests;
    /* The blocks none of whose threads read or wrote global memory: a grid larger than its
     * work, whose blocks past the data idle behind their bounds tests (the technique checks
     * tell it from one thread an element; the profile's CSV leaves it out). */
    unsigned long long idle_blocks;
} tl_emu_stats;

/* The harness's name for the device memory cudaMalloc gave at p: a lab's matrix ("in",
 * "out", "A" ...), whose elements lie data_bytes long at data_offset in it (margins around
 * them), so that an access past it names the matrix and the element, not the allocation. */
void tl_emu_name_allocation(const void *p, const char *name, size_t data_offset, size_t data_bytes);

/* 1 while a lab's own function runs (the GPU glue, gpu.c, says so), 0 after. On a GPU the
 * kit runs that function's launch plan and refuses there an allocation or a copy to or from
 * the host (plan_record.c); the emulator refuses the same while it is set, so that both give
 * one verdict. */
void tl_emu_lab_running(int on);

/* The bytes the lab file's variables outside shared memory hold: its __device__ and
 * __constant__ variables, and its other globals (the emulator's build makes no
 * difference between a __device__ variable and another global), string literals aside.
 * A GPU's glue counts the variables the CUDA module registers (plan_record.h). */
size_t tl_emu_lab_variable_bytes(void);

/* The device's heap (malloc in a kernel) capped at bytes for the calls that follow (on: 1),
 * or not (0): an in-place call's own memory (lab.h's TL_INPLACE_OWN_BYTES) holds the heap
 * with the file's variables. The cap lies in the kit's pages, which the lab's code cannot
 * write, and a lab's cudaDeviceSetLimit does not lift it. */
void tl_emu_device_heap_cap(int on, size_t bytes);

/* The launches since tl_emu_launches_reset, as the emulator recorded them in its own pages
 * (launch.h's records): the launch log's, which the lab's code could rewrite. */
void tl_emu_launches_reset(void);
int tl_emu_launch_count(void);
const tl_launch *tl_emu_launch_get(int i);

/*
 * What the emulator adds to its errors, as a GPU's runtime does not, for the GPU glue's
 * messages (gpu.c, on the emulator's build): its name; what it saw behind the last error
 * (which thread, which access), or NULL; whether that error is one only the emulator
 * gives, where a GPU gives none and runs on (a race on shared memory, threads at
 * different barriers), so that what it saw comes first, before the error's name and
 * usual cause, which would mislead; and why it refused a lab's call, as a GPU's launch
 * plan refuses it (tl_emu_lab_running), or NULL.
 */
#define TL_EMU_RUNTIME_NAME "CPU emulator of a GPU"
const char *tl_emu_error_detail(void);
int tl_emu_error_is_its_own(void);
const char *tl_emu_lab_refusal(void);

/* Counting costs time: it is off until switched on. */
void tl_emu_profile(int on);
void tl_emu_stats_reset(void);
int tl_emu_stats_count(void);
const tl_emu_stats *tl_emu_stats_get(int i);
/* Kernel launches that ran while counting was on, since the last reset. */
long tl_emu_profiled_launches(void);
/*
 * The counted work that made a call's output, named by the GPU glue once the call is done
 * (the n bytes at p): each launch and each copy of the lab's whose stores are in the output
 * at the end, or whose results such work read (made.c), in the order they ran, each with
 * its own counts. -1 from tl_emu_made_count: the call made more launches and copies than
 * the emulator tells apart (255).
 */
void tl_emu_output(const void *p, size_t bytes);
int tl_emu_made_count(void);
const tl_emu_stats *tl_emu_made_get(int i);
/* Called after each block of a launch while counting is on, so that a long
 * profile can say how far it has come (NULL: nothing called). */
typedef void tl_emu_progress_fn(const char *kernel, unsigned long long blocks_done,
                                unsigned long long blocks);
void tl_emu_on_progress(tl_emu_progress_fn *fn);
/* Bytes the counts' own tables take (made.c's words of each region followed), until the next
 * tl_emu_stats_reset. */
size_t tl_emu_counts_bytes(void);

/*
 * How accesses become instructions. Where nvcc and nvdisasm were there when
 * the lab file was built (harness/emu/emu-compile.sh), a thread's
 * neighbouring accesses of one source expression count as one instruction
 * as wide as nvcc makes them for sm_90 (four floats of a row, one LDS.128):
 * tl_emu_counts_instructions() says 1. Otherwise, or after
 * tl_emu_count_as_written(1), each access counts as the source writes it.
 * tl_emu_sass_widths gives the sizes in bytes, one bit each, of the
 * instructions nvcc's SASS has for the loads or stores of source line LINE
 * (0: none, or not known).
 */
int tl_emu_counts_instructions(void);
void tl_emu_count_as_written(int on);
unsigned tl_emu_sass_widths(int line, int shared, int store);

/*
 * The lab process, confined (confine.c): called before any code of the lab
 * file runs, with the descriptors of its channels to the suite, which only
 * tl_emu_kit_syscall may use after it (like syscall(2): -1 and errno). A
 * thread, process or program kills the process with SIGSYS after it.
 */
void tl_emu_confine(int socket_fd, int memfd);
long tl_emu_kit_syscall(long nr, long a, long b, long c, long d, long e, long f);

/* Every __shared__ array is filled with TL_SHARED_POISON_BITS (matrix.h) before each block runs. */

#endif
