#include "timer.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

double tl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double tl_children_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-quantile of sorted t, interpolated between neighbours. */
static double quantile(const double *t, int n, double p)
{
    double at = p * (n - 1);
    int i = (int)at;
    return i + 1 < n ? t[i] + (at - i) * (t[i + 1] - t[i]) : t[n - 1];
}

tl_stats tl_stats_of(double *t, int n)
{
    tl_stats s = {0, 0, 0, 0, 0, n};
    if (n <= 0)
        return s;
    qsort(t, (size_t)n, sizeof *t, by_value);
    s.min = t[0];
    s.max = t[n - 1];
    s.median = quantile(t, n, 0.5);
    s.q1 = quantile(t, n, 0.25);
    s.q3 = quantile(t, n, 0.75);
    return s;
}

double tl_stats_spread(const tl_stats *s)
{
    return s->median > 0 ? (s->q3 - s->q1) / s->median : 0;
}
