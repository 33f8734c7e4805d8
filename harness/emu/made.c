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

static tl_emu_stats unit[UNITS + 1], spill;
static uint64_t read_from[UNITS + 1][(UNITS + 64) / 64];
static unsigned n_units;
static int too_many;
/* The output named last (tl_emu_output): the units that made it, in the order they ran. */
static const tl_emu_stats *made[UNITS];
static int n_made;

typedef struct {
    uintptr_t base;
    size_t words;
    uint8_t *writer; /* per word: the unit that wrote it last */
} region;

static region *regions;
static size_t n_regions, cap_regions;

void tl_emu_made_reset(void)
{
    for (size_t i = 0; i < n_regions; i++)
        free(regions[i].writer);
    n_regions = 0;
    n_units = 0;
    too_many = 0;
    n_made = 0;
}

tl_emu_stats *tl_emu_unit_begin(const char *name)
{
    if (n_units == UNITS) {
        too_many = 1;
        return &spill;
    }
    unsigned u = ++n_units;
    memset(&unit[u], 0, sizeof unit[u]);
    memset(read_from[u], 0, sizeof read_from[u]);
    unit[u].kernel = name;
    return &unit[u];
}

void tl_emu_unit_drop(void)
{
    if (!too_many && n_units)
        n_units--;
}

/* The region holding a, made where a belongs to device memory not met before; NULL if none. */
static region *region_of(uintptr_t a)
{
    static size_t last;
    if (last < n_regions && a - regions[last].base < regions[last].words * 4)
        return &regions[last];
    for (size_t i = 0; i < n_regions; i++)
        if (a - regions[i].base < regions[i].words * 4)
            return &regions[last = i];
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
    if (n_regions == cap_regions) {
        size_t cap = cap_regions ? 2 * cap_regions : 16;
        region *grown = realloc(regions, cap * sizeof *grown);
        if (!grown)
            abort();
        regions = grown, cap_regions = cap;
    }
    region *r = &regions[n_regions];
    r->base = base & ~(uintptr_t)3;
    r->words = (base + bytes - r->base + 3) / 4;
    if (!(r->writer = calloc(r->words, 1)))
        abort();
    last = n_regions++;
    return r;
}

/* The current unit: its number, 0 once there are too many to tell apart. */
static unsigned current(void)
{
    return too_many ? 0 : n_units;
}

void tl_emu_made_access(uintptr_t a, size_t bytes, int writes, int reads)
{
    unsigned u = current();
    for (uintptr_t end = a + bytes; a < end;) {
        region *r = region_of(a);
        if (!r)
            return;
        size_t w = (a - r->base) / 4, last = (end - 1 - r->base) / 4;
        if (last >= r->words)
            last = r->words - 1;
        for (; w <= last; w++) {
            unsigned by = r->writer[w];
            if (reads && by)
                read_from[u][by / 64] |= 1ull << (by % 64);
            if (writes)
                r->writer[w] = (uint8_t)u;
        }
        a = r->base + 4 * (last + 1);
    }
}

void tl_emu_output(const void *p, size_t bytes)
{
    n_made = 0;
    if (too_many) {
        n_made = -1;
        return;
    }
    uint64_t in[(UNITS + 64) / 64] = {0};
    for (uintptr_t a = (uintptr_t)p, end = a + bytes; a < end;) {
        region *r = region_of(a);
        if (!r)
            break;
        size_t w = (a - r->base) / 4, last = (end - 1 - r->base) / 4;
        if (last >= r->words)
            last = r->words - 1;
        for (; w <= last; w++)
            in[r->writer[w] / 64] |= 1ull << (r->writer[w] % 64);
        a = r->base + 4 * (last + 1);
    }
    /* A unit reads only what earlier units wrote (or itself): one pass back closes the set. */
    for (unsigned u = n_units; u >= 1; u--)
        if (in[u / 64] >> (u % 64) & 1)
            for (size_t i = 0; i < sizeof in / sizeof *in; i++)
                in[i] |= read_from[u][i];
    for (unsigned u = 1; u <= n_units; u++)
        if (in[u / 64] >> (u % 64) & 1)
            made[n_made++] = &unit[u];
}

int tl_emu_made_count(void)
{
    return n_made;
}

const tl_emu_stats *tl_emu_made_get(int i)
{
    return i >= 0 && i < n_made ? made[i] : NULL;
}
