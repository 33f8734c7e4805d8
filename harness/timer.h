/* Host timing and the statistics a bench reports. */
#ifndef TILELAB_TIMER_H
#define TILELAB_TIMER_H

#include <stddef.h>

/* Seconds on the monotonic clock. */
double tl_now(void);

typedef struct {
    double median, min, max;
    int n;
} tl_stats;

/* Sorts t in place. */
tl_stats tl_stats_of(double *t, int n);

#endif
