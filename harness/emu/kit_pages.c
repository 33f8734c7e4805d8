/*
 * The pages the emulator keeps its counts in: at a fixed address, which
 * its code reaches as a constant (no pointer to them lies in memory the
 * lab's code can write), readable by everyone and writable only while the
 * emulator's own bookkeeping runs (tl_emu_kit_write). The lab's host code
 * shares the process with the counts; it once found them in the program's
 * data and rewrote a naive kernel's into a padded tile's (a cheating
 * helper, 2026-11-27: every technique point of labs 4-9). Now such a write
 * faults, and the confined process (confine.c) may not change what it may
 * write: mprotect is the kit's alone, and munmap, madvise and fixed
 * mappings are refused anywhere in the window below.
 *
 * The window is TL_EMU_KIT_WINDOW_HI's 4 GiB and the 4 GiB under it,
 * reserved whole, so that a range the filter lets through (one starting
 * elsewhere, shorter than 4 GiB) cannot reach the pages. Its first
 * TL_EMU_KIT_HEAP bytes hold each module's state at fixed offsets; after
 * them, memory for the counts' own tables (made.c's words), handed out in
 * order and taken back all at once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emulator.h"

#define PAGE 4096u
#define WINDOW_BYTES ((size_t)8 << 30)
#define HEAP_BYTES ((size_t)1 << 30)

static int opened; /* a lab that clears it makes the next write map the window again: abort */

/* In the pages themselves: how far from the base they are mapped writable when open, the
 * heap's use, and how deep the writes nest. */
typedef struct {
    size_t writable_to, heap_used;
    int depth;
} kit_header;

#define HEADER ((kit_header *)(TL_EMU_KIT_BASE + TL_EMU_KIT_HEADER))

static void protect(size_t bytes, int prot)
{
    if (bytes && tl_emu_kit_syscall(SYS_mprotect, (long)TL_EMU_KIT_BASE, (long)bytes, prot, 0, 0, 0) != 0)
        abort();
}

void tl_emu_kit_pages_map(void)
{
    if (opened)
        return;
    uintptr_t low = TL_EMU_KIT_BASE - ((size_t)4 << 30);
    void *p = mmap((void *)low, WINDOW_BYTES, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != (void *)low) {
        static const char say[] = "tilelab emulator: the address range it keeps its counts in is taken\n";
        (void)!write(2, say, sizeof say - 1);
        abort();
    }
    opened = 1;
    protect(TL_EMU_KIT_HEAP, PROT_READ | PROT_WRITE);
    HEADER->writable_to = TL_EMU_KIT_HEAP;
    protect(TL_EMU_KIT_HEAP, PROT_READ);
}

/* Mapped before main in every program the emulator is part of, since its code reads the counts
 * (whether counting is on) without opening them; the confined lab process maps them earlier
 * still, from .preinit_array, before its filter refuses fixed mappings (confine.c). */
__attribute__((constructor)) static void map_at_start(void)
{
    tl_emu_kit_pages_map();
}

void tl_emu_kit_write(int on)
{
    if (!opened)
        tl_emu_kit_pages_map();
    if (on) {
        /* the depth is read before the pages open: it is 0 exactly when they are closed */
        if (HEADER->depth == 0)
            protect(HEADER->writable_to, PROT_READ | PROT_WRITE);
        HEADER->depth++;
    } else if (HEADER->depth > 0 && --HEADER->depth == 0) {
        protect(HEADER->writable_to, PROT_READ);
    }
}

void *tl_emu_kit_alloc(size_t bytes)
{
    tl_emu_kit_write(1);
    size_t at = TL_EMU_KIT_HEAP + HEADER->heap_used, rounded = (bytes + 15) & ~(size_t)15;
    if (HEADER->heap_used + rounded > HEAP_BYTES)
        abort();
    HEADER->heap_used += rounded;
    size_t need = (at + rounded + PAGE - 1) / PAGE * PAGE;
    if (need > HEADER->writable_to) {
        protect(need, PROT_READ | PROT_WRITE);
        HEADER->writable_to = need;
    }
    void *p = (void *)(TL_EMU_KIT_BASE + at);
    memset(p, 0, bytes);
    tl_emu_kit_write(0);
    return p;
}

size_t tl_emu_counts_bytes(void)
{
    if (!opened)
        tl_emu_kit_pages_map();
    return HEADER->heap_used;
}

void tl_emu_kit_free_all(void)
{
    tl_emu_kit_write(1);
    HEADER->heap_used = 0;
    tl_emu_kit_write(0);
}
