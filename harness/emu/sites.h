/*
 * The table of a lab object's memory access checks, section tl_sites: what
 * nvcc makes of each check, for the emulator's counts (emulator.c,
 * "instructions"). emu-sites writes it into g++'s assembly of the lab file
 * (sites.c); emulator.c reads it where the linker gathers every object's
 * entries, from __start_tl_sites to __stop_tl_sites. Both take the layout
 * from this one struct, the writer each field at its offsetof with its
 * sizeof, so that a change here changes both (tests/emu_tools_test.sh
 * plants a writer of another layout and sees the reader catch it).
 */
#ifndef TILELAB_EMU_SITES_H
#define TILELAB_EMU_SITES_H

#include <stdint.h>

/* The kinds of access nvcc's instructions are counted by, in the order of a
 * site's widths and of a line of emu-sass-widths' output. */
enum { TL_SITE_GLOBAL_LOAD, TL_SITE_GLOBAL_STORE, TL_SITE_SHARED_LOAD, TL_SITE_SHARED_STORE,
       TL_SITE_KINDS };

typedef struct tl_site {
    /* The check's return address: the pc the emulator records for the access. 0 in the
     * entry each object's table starts with. */
    uintptr_t pc;
    /* The first check of the same source expression (line and column): copies of one
     * expression that g++ unrolled or inlined are one site. */
    const struct tl_site *first;
    /* Its line in the lab file, 0 where it lies elsewhere (a header). In the first entry:
     * 1 where the widths are known, 0 where nvcc's SASS was not read and the emulator
     * counts accesses as written. */
    uint32_t line;
    /* Per kind, the sizes in bytes of nvcc's instructions on that line, one bit each
     * (4 | 16 = 20: LDS and LDS.128). */
    uint8_t widths[TL_SITE_KINDS];
} tl_site;

#endif
