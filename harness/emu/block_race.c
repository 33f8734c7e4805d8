/*
 * Races between blocks on a __device__ variable.
 *
 * The emulator runs a launch's blocks one after another, so a __device__
 * array that every block uses as its own scratch (a tile, say, where a
 * __shared__ array belongs) works here: each block fills it, reads it back
 * and is done before the next begins. On a GPU the blocks run at the same
 * time, in no fixed order, and overwrite each other's values between a
 * block's write and its read: the result changes from run to run.
 *
 * So each 4-byte word of a __device__ variable keeps the block that last
 * wrote it in the current launch, and which of its threads (emulator.c
 * names the two threads of a race, and says which had run past a matrix). A store by another block to such a word
 * is a write-write race between blocks unless it stores the very value
 * already there (blocks that all write the same flag or the same result
 * give a GPU one answer whatever their order): the word's bytes are kept as
 * they were, and compared with what the block left there once it ends.
 * Atomics never come here (they are how blocks share a variable). A word
 * one block writes and another reads, in one launch, is not checked: its
 * order is the program's (a __threadfence() and an atomic ticket make the
 * last block read what the others wrote), which only a model of fences
 * would tell from a race.
 *
 * Memory from cudaMalloc is checked the same way where the allocation is
 * small (64 KiB at most: lab 10's one-float *d_out, which every block adding
 * to it with += instead of atomicAdd overwrites; emulator.c decides), not
 * where it holds a matrix: every block of a lab's kernel writes its own part
 * of the output, and a shadow of the matrices would cost as much again.
 */
#include "emulator.h"

#include <stdlib.h>
#include <string.h>

/* A variable's shadow: per word, the launch and the block (+1) of its last store, and who in
 * the block stored it (the emulator's word for the thread: emulator.h). */
typedef struct {
    uintptr_t beg;
    size_t words;
    uint32_t *launch, *block;
    uint16_t *writer;
} shadow;

#define MAX_SHADOWS 64
#define MAX_SHADOW_WORDS ((size_t)1 << 24) /* 160 MiB of shadow at most, all variables together */
#define MAX_PENDING 64

static shadow shadows[MAX_SHADOWS];
static int n_shadows;
static size_t shadow_words;
static uint32_t launch = 1;

/* Stores into words another block of the launch wrote: what the word held before. */
typedef struct {
    uintptr_t addr, pc;
    size_t size;
    uint32_t other;
    uint16_t writer, other_writer;
    unsigned char before[16];
} pending;

static pending pendings[MAX_PENDING];
static int n_pending;

void tl_emu_block_race_launch(void)
{
    launch++;
    n_pending = 0;
}

static shadow *shadow_of(uintptr_t beg, size_t bytes)
{
    for (int i = 0; i < n_shadows; i++)
        if (shadows[i].beg == beg)
            return &shadows[i];
    size_t words = (bytes + 3) / 4;
    if (n_shadows == MAX_SHADOWS || shadow_words + words > MAX_SHADOW_WORDS)
        return NULL;
    shadow *s = &shadows[n_shadows];
    s->launch = calloc(words, sizeof *s->launch);
    s->block = calloc(words, sizeof *s->block);
    s->writer = calloc(words, sizeof *s->writer);
    if (!s->launch || !s->block || !s->writer) {
        free(s->launch);
        free(s->block);
        free(s->writer);
        return NULL;
    }
    s->beg = beg, s->words = words;
    shadow_words += words;
    n_shadows++;
    return s;
}

void tl_emu_block_race_store(uintptr_t beg, size_t bytes, uintptr_t a, size_t size, uint32_t block,
                             uint16_t writer, uintptr_t pc)
{
    tl_emu_block_race_stored(beg, bytes, a, size, block, writer, pc, (const void *)a);
}

void tl_emu_block_race_stored(uintptr_t beg, size_t bytes, uintptr_t a, size_t size, uint32_t block,
                              uint16_t writer, uintptr_t pc, const void *was)
{
    shadow *s = shadow_of(beg, bytes);
    if (!s || size > sizeof pendings[0].before)
        return;
    size_t first = (a - beg) / 4, last = (a + size - 1 - beg) / 4;
    uint32_t other = 0;
    uint16_t other_writer = 0;
    for (size_t w = first; w <= last && w < s->words; w++) {
        if (s->launch[w] == launch && s->block[w] != block + 1)
            other = s->block[w], other_writer = s->writer[w];
        s->launch[w] = launch;
        s->block[w] = block + 1;
        s->writer[w] = writer;
    }
    if (other && n_pending < MAX_PENDING) {
        pending *p = &pendings[n_pending++];
        p->addr = a, p->size = size, p->pc = pc, p->other = other - 1;
        p->writer = writer, p->other_writer = other_writer;
        memcpy(p->before, was, size);
    }
}

int tl_emu_block_race_found(tl_emu_block_race *r)
{
    int found = 0;
    for (int i = 0; i < n_pending && !found; i++) {
        const pending *p = &pendings[i];
        if (memcmp(p->before, (const void *)p->addr, p->size) != 0) {
            r->addr = p->addr, r->size = p->size, r->pc = p->pc, r->other = p->other;
            r->writer = p->writer, r->other_writer = p->other_writer;
            found = 1;
        }
    }
    n_pending = 0;
    return found;
}
