#include "timer.h"

#include <stdlib.h>
#include <time.h>

double tl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

tl_stats tl_stats_of(double *t, int n)
{
    tl_stats s = {0, 0, 0, n};
    if (n <= 0)
        return s;
    qsort(t, (size_t)n, sizeof *t, by_value);
    s.min = t[0];
    s.max = t[n - 1];
    s.median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    return s;
}
