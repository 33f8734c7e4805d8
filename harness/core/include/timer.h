/* Host timing and the statistics a bench reports. */
#ifndef TILELAB_TIMER_H
#define TILELAB_TIMER_H

#include <stddef.h>

/* Seconds on the monotonic clock. */
double tl_now(void);

/* The CPU seconds, user and system, of this process's children that have
 * ended and been waited for (and of theirs that they waited for). */
double tl_children_cpu(void);

typedef struct {
    double median, min, max;
    double q1, q3; /* the quartiles: half of the repetitions lie between them */
    int n;
} tl_stats;

/* Sorts t in place. */
tl_stats tl_stats_of(double *t, int n);

/* The spread of the repetitions as a share of the median: (q3 - q1) / median. */
double tl_stats_spread(const tl_stats *s);

#endif
