/*
 * Which counted work made the output. While the emulator counts
 * (tl_emu_profile), each launch and each copy of the lab's is a unit of
 * work, numbered in the order it ran, with counts of its own. Every 4-byte
 * word of device memory a unit writes keeps the number of the last unit
 * that wrote it, and every unit keeps the set of units whose words it read.
 * The work that made a call's output is the last writers of its words and,
 * going back unit by unit, the units whose words that work read.
 *
 * The technique checks judge that work and no other (tests/gpu_technique.h):
 * a kernel run beside the one that does the work, whose stores are
 * overwritten or whose results nothing reads, is not part of the answer and
 * cannot stand for the kernel that is. A launch of a kernel counts apart
 * from its other launches, and a copy apart from the kernels, so that one
 * kernel run twice, once to show the technique and once to do the work,
 * is two units. Words are tracked per region (a cudaMalloc allocation or a
 * __device__ or __constant__ variable), a byte each, only while counting.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emulator.h"

/* Unit numbers fit a byte; 0 is no counted work (the harness's own copies,
 * or nothing). Work past the last number is counted in spill and told. */
#define UNITS 255
#define REGIONS 1024

typedef struct {
    uintptr_t base;
    size_t words;
    uint8_t *writer; /* per word: the unit that wrote it last (the kit's heap) */
} region;

/* All of it in the kit's pages (kit_pages.c), where the lab's code cannot write. */
typedef struct {
    tl_emu_stats unit[UNITS + 1], spill;
    uint64_t read_from[UNITS + 1][(UNITS + 64) / 64];
    unsigned n_units;
    int too_many;    /* more units than numbers, or more regions than the table holds */
    const tl_emu_stats *made[UNITS]; /* the output named last (tl_emu_output): its units */
    int n_made;
    region regions[REGIONS];
    size_t n_regions, last;
} made_state;

_Static_assert(TL_EMU_KIT_MADE + sizeof(made_state) <= TL_EMU_KIT_HEAP, "made.c's state overlaps the heap");
#define S TL_EMU_KIT_STATE(made_state, TL_EMU_KIT_MADE)

/* Everything here is bookkeeping: the kit's pages are open for it (kit_pages.c). */
void tl_emu_made_reset(void)
{
    tl_emu_kit_write(1);
    tl_emu_kit_free_all();
    S->n_regions = S->last = 0;
    S->n_units = 0;
    S->too_many = 0;
    S->n_made = 0;
    tl_emu_kit_write(0);
}

tl_emu_stats *tl_emu_unit_begin(const char *name)
{
    tl_emu_kit_write(1);
    tl_emu_stats *u = &S->spill;
    if (S->n_units == UNITS) {
        S->too_many = 1;
    } else {
        unsigned n = ++S->n_units;
        memset(&S->unit[n], 0, sizeof S->unit[n]);
        memset(S->read_from[n], 0, sizeof S->read_from[n]);
        S->unit[n].kernel = name;
        u = &S->unit[n];
    }
    tl_emu_kit_write(0);
    return u;
}

void tl_emu_unit_drop(void)
{
    tl_emu_kit_write(1);
    if (!S->too_many && S->n_units)
        S->n_units--;
    tl_emu_kit_write(0);
}

/* The region holding a, made where a belongs to device memory not met before; NULL if none. */
static region *region_of(uintptr_t a)
{
    if (S->last < S->n_regions && a - S->regions[S->last].base < S->regions[S->last].words * 4)
        return &S->regions[S->last];
    for (size_t i = 0; i < S->n_regions; i++)
        if (a - S->regions[i].base < S->regions[i].words * 4)
            return &S->regions[S->last = i];
    uintptr_t base;
    size_t bytes;
    const tl_emu_allocation *al = tl_emu_in_arena(a) ? tl_emu_allocation_of(a, 1) : NULL;
    const struct asan_global *g = al ? NULL : tl_emu_global_at(a);
    if (al)
        base = al->base, bytes = al->size;
    else if (g && a - g->beg < g->size)
        base = g->beg, bytes = g->size;
    else
        return NULL;
    if (S->n_regions == REGIONS) {
        S->too_many = 1;
        return NULL;
    }
    region *r = &S->regions[S->n_regions];
    r->base = base & ~(uintptr_t)3;
    r->words = (base + bytes - r->base + 3) / 4;
    r->writer = tl_emu_kit_alloc(r->words);
    S->last = S->n_regions++;
    return r;
}

/* The current unit: its number, 0 once there are too many to tell apart. */
static unsigned current(void)
{
    return S->too_many ? 0 : S->n_units;
}

/* The words of [a, a + bytes) in the regions tracked: the units that last wrote them added to
 * set (NULL: none), then, with mark, the words made the current unit's. */
static void span(uintptr_t a, size_t bytes, uint64_t *set, int mark)
{
    unsigned u = current();
    for (uintptr_t end = a + bytes; a < end;) {
        region *r = region_of(a);
        if (!r)
            break;
        size_t w = (a - r->base) / 4, last = (end - 1 - r->base) / 4;
        if (last >= r->words)
            last = r->words - 1;
        for (; w <= last; w++) {
            if (set)
                set[r->writer[w] / 64] |= 1ull << (r->writer[w] % 64);
            if (mark)
                r->writer[w] = (uint8_t)u;
        }
        a = r->base + 4 * (last + 1);
    }
}

void tl_emu_made_access(uintptr_t a, size_t bytes, int writes, int reads)
{
    tl_emu_kit_write(1);
    span(a, bytes, reads ? S->read_from[current()] : NULL, writes);
    tl_emu_kit_write(0);
}

void tl_emu_output(const void *p, size_t bytes)
{
    tl_emu_kit_write(1);
    S->n_made = 0;
    uint64_t in[(UNITS + 64) / 64] = {0};
    if (!S->too_many)
        span((uintptr_t)p, bytes, in, 0);
    /* A unit reads only what earlier units wrote (or itself): one pass back closes the set. */
    for (unsigned u = S->n_units; u >= 1; u--)
        if (in[u / 64] >> (u % 64) & 1)
            for (size_t i = 0; i < sizeof in / sizeof *in; i++)
                in[i] |= S->read_from[u][i];
    for (unsigned u = 1; u <= S->n_units; u++)
        if (in[u / 64] >> (u % 64) & 1)
            S->made[S->n_made++] = &S->unit[u];
    if (S->too_many)
        S->n_made = -1;
    tl_emu_kit_write(0);
}

int tl_emu_made_count(void)
{
    return S->n_made;
}

const tl_emu_stats *tl_emu_made_get(int i)
{
    return i >= 0 && i < S->n_made ? S->made[i] : NULL;
}
