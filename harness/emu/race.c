/*
 * Races on shared memory, as compute-sanitizer's racecheck finds them: an
 * access to a byte of shared memory that another thread of the block wrote
 * (read after write, write after write), or read (write after read), with
 * nothing between the two that makes one thread wait for the other. The
 * emulator runs a block's threads one after another, so a race gives the
 * same result every time here where a GPU gives one that varies; this
 * makes it an error instead, whichever order the threads ran in.
 *
 * What orders two accesses of different threads of a block: a barrier
 * (__syncthreads() and its forms, a block's sync) both have passed since,
 * and for two lanes of one warp also a warp collective both took part in
 * (__syncwarp(), a shuffle, a vote, a tile's sync). Barriers count in
 * epochs: every block and every opening of its barrier starts a new one,
 * and only accesses of one epoch can race. Inside an epoch the lanes of a
 * warp keep vector clocks: each lane counts the collectives it took part
 * in, and knows of every other lane of its warp the count that lane had at
 * the last collective they shared; an access of lane x at its count c is
 * ordered before lane y iff y knows of x a count past c.
 *
 * Each 4-byte word of shared memory has a shadow: its last write (epoch,
 * thread, its count, the instruction, and which of the word's bytes) and up
 * to three reads of the same epoch since (the last, the one before it by
 * another lane of the same warp, and one by a lane of another warp), which
 * a later write is checked against; two accesses conflict where their bytes
 * do. Only shared memory has one, made a page at a time where it is first
 * touched; an access costs a look-up and a few comparisons a word.
 */
#include "emulator.h"

#include <stdlib.h>
#include <string.h>

#define PAGE_BITS 12
#define PAGE ((uintptr_t)1 << PAGE_BITS)
#define WORDS (PAGE / 4)
#define MAX_PAGES 1024 /* 4 MiB of shared memory; the H100 gives a block 227 KiB */

/* One access: its epoch (0: none), the thread's count then, where (from code_base),
 * the thread, which run of its expression in the epoch (0: not known), and its bytes of
 * the word (bit b: byte b). */
typedef struct {
    uint32_t epoch, clock;
    int32_t pc;
    uint16_t thread, nth;
    uint8_t bytes;
} mark;

typedef struct {
    mark write, read, read_by_lane, read_by_warp;
} cell;

typedef struct {
    uintptr_t page; /* address >> PAGE_BITS, 0 for a free slot */
    cell *cells;
} shadow_page;

static shadow_page pages[2 * MAX_PAGES];
static size_t n_pages;
static shadow_page *last_page;

static uint32_t epoch = 1;
static uint32_t clocks[TL_EMU_MAX_THREADS];
/* known[y][l]: the count of lane l of y's warp that y knows of. */
static uint32_t known[TL_EMU_MAX_THREADS][32];

/* Instructions are kept as 32-bit offsets from here: the program is smaller than 2 GiB. */
static uintptr_t code_base(void)
{
    return (uintptr_t)&tl_emu_race_epoch;
}

void tl_emu_race_epoch(void)
{
    epoch++;
}

/*
 * Per warp: the epoch of its lanes' last access to shared memory, whether one came
 * since its last meeting the clocks took in, and whether that meeting left every lane
 * still running knowing the same. A meeting before any access of the epoch orders
 * nothing that can race, and one after none since a meeting of the whole warp teaches
 * nothing: the clocks skip both (the collectives of a warp's sum in registers).
 */
static uint32_t access_epoch[TL_EMU_MAX_THREADS / 32];
static unsigned char pending[TL_EMU_MAX_THREADS / 32], uniform[TL_EMU_MAX_THREADS / 32];

void tl_emu_race_meet(int first, unsigned group, unsigned running)
{
    int w = first / 32;
    if (access_epoch[w] != epoch || (!pending[w] && uniform[w]))
        return;
    pending[w] = 0;
    uniform[w] = group == running;
    uint32_t joined[32] = {0};
    for (int l = 0; l < 32; l++) {
        if (!(group >> l & 1))
            continue;
        uint32_t *k = known[first + l];
        k[l] = ++clocks[first + l];
        for (int m = 0; m < 32; m++)
            joined[m] = k[m] > joined[m] ? k[m] : joined[m];
    }
    for (int l = 0; l < 32; l++)
        if (group >> l & 1)
            memcpy(known[first + l], joined, sizeof joined);
}

/* The shadow of a page of shared memory that lies outside the two regions below (the
 * __shared__ arrays of template kernels), made where first touched; NULL past MAX_PAGES. */
static cell *page_cell(uintptr_t a)
{
    uintptr_t page = a >> PAGE_BITS;
    if (last_page && last_page->page == page)
        return &last_page->cells[(a & (PAGE - 1)) / 4];
    size_t h = (size_t)((page * 0x9e3779b97f4a7c15ull) >> 40) % (2 * MAX_PAGES);
    while (pages[h].page && pages[h].page != page)
        h = (h + 1) % (2 * MAX_PAGES);
    if (!pages[h].page) {
        if (n_pages == MAX_PAGES || !(pages[h].cells = calloc(WORDS, sizeof(cell))))
            return NULL; /* more shared memory than any GPU has: not checked */
        pages[h].page = page;
        n_pages++;
    }
    last_page = &pages[h];
    return &last_page->cells[(a & (PAGE - 1)) / 4];
}

/* Shared memory is mostly two ranges: the __shared__ arrays' section and the dynamic
 * shared memory. Each has its shadow in one piece from the word that holds its first
 * byte, made at the first access (calloc's pages cost nothing until touched). */
typedef struct {
    uintptr_t base, bytes; /* base: a multiple of 4 */
    cell *cells;
    int tried;
} region;

static region section, dynamic;

static inline __attribute__((always_inline)) cell *region_cell(region *g, uintptr_t a)
{
    if (!g->cells && !g->tried) {
        g->tried = 1;
        g->cells = calloc(g->bytes / 4 + 1, sizeof(cell));
    }
    return g->cells ? &g->cells[(a - g->base) / 4] : NULL;
}

static void find_regions(void)
{
    uintptr_t start;
    size_t bytes;
    tl_emu_shared_section(&start, &bytes);
    section.base = start & ~(uintptr_t)3, section.bytes = bytes ? start + bytes - section.base : 0;
    dynamic.base = (uintptr_t)tl_emu_cuda_dynamic_shared, dynamic.bytes = TL_EMU_DYNAMIC_SHARED_BYTES;
}

static inline __attribute__((always_inline)) cell *cell_at(uintptr_t a)
{
    if (!dynamic.base)
        find_regions();
    if (a - section.base < section.bytes)
        return region_cell(&section, a);
    if (a - dynamic.base < dynamic.bytes)
        return region_cell(&dynamic, a);
    return page_cell(a);
}

/*
 * Per thread, how many times in this epoch it ran each source expression that reached
 * shared memory, so that a race can say which pass of a loop each access was in: a small
 * table by the expression's hash. Two expressions of one slot make its count unknown for
 * the rest of the epoch (0), never a count that is not true.
 */
#define RUN_SLOTS 32
typedef struct {
    uintptr_t key;
    uint32_t epoch;
    uint16_t n, shared_slot;
} run;
/* By slot, then thread: a block's threads run one expression one after another, and its
 * slot is the same for each, so their counts lie side by side (by thread first, each thread's
 * count lay 512 bytes from the last thread's, and missed the cache). */
static run runs[RUN_SLOTS][TL_EMU_MAX_THREADS];

unsigned tl_emu_race_run(int y, uintptr_t key)
{
    run *r = &runs[(key * 0x9e3779b97f4a7c15ull) >> 59][y];
    if (r->epoch != epoch) {
        *r = (run){key, epoch, 1, 0};
        return 1;
    }
    if (r->key != key)
        r->shared_slot = 1;
    if (r->shared_slot || r->n == UINT16_MAX)
        return 0;
    return ++r->n;
}

/* Whether m, an access of this epoch to some of bytes, races with one by thread y now. */
static inline __attribute__((always_inline)) int races(const mark *m, int y, unsigned bytes)
{
    if (m->epoch != epoch || m->thread == y || !(m->bytes & bytes))
        return 0;
    return m->thread / 32 != y / 32 || known[y][m->thread % 32] <= m->clock;
}

static int found(tl_emu_race *r, const mark *m, uintptr_t word, unsigned bytes, int other_stored)
{
    unsigned both = m->bytes & bytes, b = 0;
    while (!(both >> b & 1))
        b++;
    r->thread = m->thread, r->pc = code_base() + (uintptr_t)(intptr_t)m->pc;
    r->addr = word + b, r->stored = other_stored, r->nth = m->nth;
    return 1;
}

/* The bytes of word (bit b: byte b) that [a, a + size) covers. */
static inline unsigned bytes_of(uintptr_t word, uintptr_t a, size_t size)
{
    uintptr_t lo = a > word ? a : word, hi = a + size < word + 4 ? a + size : word + 4;
    return ((1u << (hi - word)) - 1) & ~((1u << (lo - word)) - 1);
}

/* One word's part of an access, me (its bytes set): 1 and *r on a race. */
static inline __attribute__((always_inline)) int check_word(cell *c, mark me, uintptr_t word, int store, tl_emu_race *r)
{
    int y = me.thread;
    unsigned bytes = me.bytes;
    if (races(&c->write, y, bytes))
        return found(r, &c->write, word, bytes, 1);
    if (store) {
        if (races(&c->read, y, bytes))
            return found(r, &c->read, word, bytes, 0);
        if (races(&c->read_by_lane, y, bytes))
            return found(r, &c->read_by_lane, word, bytes, 0);
        if (races(&c->read_by_warp, y, bytes))
            return found(r, &c->read_by_warp, word, bytes, 0);
        /* Bytes of a word written by two threads: the last keeps them (a race with the
         * other's may go unnoticed, never one that is not there). */
        if (c->write.epoch == epoch && c->write.thread == y)
            me.bytes |= c->write.bytes;
        c->write = me;
        c->read.epoch = c->read_by_lane.epoch = c->read_by_warp.epoch = 0;
        return 0;
    }
    /* A read: kept as the last, and the one it replaces kept where another may race. */
    if (c->read.epoch != epoch) {
        c->read_by_lane.epoch = c->read_by_warp.epoch = 0;
    } else if (c->read.thread == y) {
        if (c->read.clock == me.clock) {
            c->read.bytes |= (uint8_t)bytes;
            return 0;
        }
        me.bytes |= c->read.bytes;
    } else if (c->read.thread / 32 != y / 32) {
        c->read_by_warp = c->read;
        c->read_by_lane.epoch = 0; /* a lane of the warp read_by_warp now names */
    } else {
        c->read_by_lane = c->read;
    }
    c->read = me;
    return 0;
}

void tl_emu_race_wrote_same(int y, uintptr_t a, size_t size, uintptr_t pc, unsigned nth)
{
    mark me = {epoch, clocks[y], (int32_t)(intptr_t)(pc - code_base()), (uint16_t)y, (uint16_t)nth, 0};
    for (uintptr_t word = a & ~(uintptr_t)3; word < a + size; word += 4) {
        cell *c = cell_at(word);
        if (!c)
            return;
        me.bytes = (uint8_t)bytes_of(word, a, size);
        c->write = me;
        c->read.epoch = c->read_by_lane.epoch = c->read_by_warp.epoch = 0;
    }
}

int tl_emu_race_check(int y, uintptr_t a, size_t size, int store, uintptr_t pc, unsigned nth,
                      tl_emu_race *r)
{
    mark me = {epoch, clocks[y], (int32_t)(intptr_t)(pc - code_base()), (uint16_t)y, (uint16_t)nth, 0xf};
    access_epoch[y / 32] = epoch, pending[y / 32] = 1;
    if (size == 4 && a % 4 == 0) { /* the common case: one word, whole */
        cell *c = cell_at(a);
        return c && check_word(c, me, a, store, r);
    }
    if (a % 4 == 0 && size % 4 == 0) { /* whole words (a float4, a double) */
        for (uintptr_t word = a; word < a + size; word += 4) {
            cell *c = cell_at(word);
            if (!c)
                return 0;
            if (check_word(c, me, word, store, r))
                return 1;
        }
        return 0;
    }
    for (uintptr_t word = a & ~(uintptr_t)3; word < a + size; word += 4) {
        cell *c = cell_at(word);
        if (!c)
            return 0;
        me.bytes = (uint8_t)bytes_of(word, a, size);
        if (check_word(c, me, word, store, r))
            return 1;
    }
    return 0;
}
