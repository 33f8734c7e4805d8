/*
 * The totals of a callgrind output (--cache-sim=yes), read strictly: a
 * callgrind output names the files and functions of the program it ran,
 * and a lab file chooses some of those names, so nothing but the lines
 * callgrind writes where it writes them is believed (grade_callgrind.c).
 */
#ifndef TILELAB_GRADE_CALLGRIND_H
#define TILELAB_GRADE_CALLGRIND_H

#include <stddef.h>

/* The events read, in this order: instructions, data reads and writes, and the simulated
 * misses of both cache levels. */
#define TL_CG_EVENTS 7
extern const char *const tl_cg_events[TL_CG_EVENTS];
#define TL_CG_FIRST_MISS 3 /* tl_cg_events[3 ..] are misses */

typedef struct {
    double total[TL_CG_EVENTS];
    /* the matrix the run transposed (the "cmd:" line: grade-perf-* ROWSxCOLS), 0 if not
     * said; the simulated first-level data cache ("desc: D1 cache: SIZE B, LINE B, ...") */
    double elements, d1_bytes, line_bytes;
} tl_cg_run;

/* 0, or -1 with why (a sentence for the summary) in why. */
int tl_cg_read(const char *path, tl_cg_run *run, char *why, size_t why_len);

#endif
