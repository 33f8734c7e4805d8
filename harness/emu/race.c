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
 * Each byte of shared memory has a shadow: the last write (epoch, thread,
 * its count, the instruction) and up to three reads of the same epoch
 * since (the last, the one before it by another lane of the same warp, and
 * one by a lane of another warp), which a later write is checked against.
 * Only shared memory has one, made a page at a time where it is first
 * touched; an access costs a look-up and a few comparisons a byte.
 */
#include "emulator.h"

#include <stdlib.h>
#include <string.h>

#define PAGE_BITS 12
#define PAGE ((uintptr_t)1 << PAGE_BITS)
#define MAX_PAGES 1024 /* 4 MiB of shared memory; the H100 gives a block 227 KiB */

/* One access: its epoch (0: none), thread, the thread's count then, and where. */
typedef struct {
    uint32_t epoch, clock;
    uint16_t thread;
    uintptr_t pc;
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

void tl_emu_race_epoch(void)
{
    epoch++;
}

void tl_emu_race_meet(int first, unsigned group)
{
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

static cell *cell_at(uintptr_t a)
{
    uintptr_t page = a >> PAGE_BITS;
    if (last_page && last_page->page == page)
        return &last_page->cells[a & (PAGE - 1)];
    size_t h = (size_t)((page * 0x9e3779b97f4a7c15ull) >> 40) % (2 * MAX_PAGES);
    while (pages[h].page && pages[h].page != page)
        h = (h + 1) % (2 * MAX_PAGES);
    if (!pages[h].page) {
        if (n_pages == MAX_PAGES || !(pages[h].cells = calloc(PAGE, sizeof(cell))))
            return NULL; /* more shared memory than any GPU has: not checked */
        pages[h].page = page;
        n_pages++;
    }
    last_page = &pages[h];
    return &last_page->cells[a & (PAGE - 1)];
}

/* Whether m, an access of this epoch, races with one by thread y now. */
static int races(const mark *m, int y)
{
    if (m->epoch != epoch || m->thread == y)
        return 0;
    return m->thread / 32 != y / 32 || known[y][m->thread % 32] <= m->clock;
}

static int found(tl_emu_race *r, const mark *m, uintptr_t a, int other_stored)
{
    r->thread = m->thread, r->pc = m->pc, r->addr = a, r->stored = other_stored;
    return 1;
}

int tl_emu_race_check(int y, uintptr_t a, size_t size, int store, uintptr_t pc, tl_emu_race *r)
{
    const mark me = {epoch, clocks[y], (uint16_t)y, pc};
    for (uintptr_t b = a; b < a + size; b++) {
        cell *c = cell_at(b);
        if (!c)
            return 0;
        if (races(&c->write, y))
            return found(r, &c->write, b, 1);
        if (store) {
            const mark *reads[3] = {&c->read, &c->read_by_lane, &c->read_by_warp};
            for (int k = 0; k < 3; k++)
                if (races(reads[k], y))
                    return found(r, reads[k], b, 0);
            c->write = me;
            c->read.epoch = c->read_by_lane.epoch = c->read_by_warp.epoch = 0;
            continue;
        }
        /* A read: kept as the last, and the one it replaces kept where another may race. */
        if (c->read.epoch != epoch) {
            c->read_by_lane.epoch = c->read_by_warp.epoch = 0;
        } else if (c->read.thread / 32 != y / 32) {
            c->read_by_warp = c->read;
            c->read_by_lane.epoch = 0; /* a lane of the warp read_by_warp now names */
        } else if (c->read.thread != y) {
            c->read_by_lane = c->read;
        }
        c->read = me;
    }
    return 0;
}
