/* Host timing and the statistics a bench reports. */
#ifndef TILELAB_TIMER_H
#define TILELAB_TIMER_H

#include <stddef.h>

/* Seconds on the monotonic clock. */
double tl_now(void);

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
