/*
 * Fibers: one small stack per emulated GPU thread, so a thread can stop at
 * __syncthreads() and let the others of its block catch up.
 */
#ifndef TILELAB_EMU_FIBER_H
#define TILELAB_EMU_FIBER_H

#include <stddef.h>

typedef struct tl_fiber tl_fiber;
typedef void (*tl_fiber_fn)(void);

/* Prepares f to call fn on the given stack when first switched to. */
tl_fiber *tl_fiber_at(void *stack, size_t stack_bytes, tl_fiber_fn fn);
/* The context of whoever calls tl_fiber_switch from outside any fiber. */
tl_fiber *tl_fiber_main(void);
/* Asks the cache for f's record (deep 0), or the top of its saved stack (deep 1, once its
 * record has come), ahead of a switch to f; NULL: nothing. */
void tl_fiber_prefetch(const tl_fiber *f, int deep);
/* Saves the running context into from and resumes to. */
void tl_fiber_switch(tl_fiber *from, tl_fiber *to);

#endif
