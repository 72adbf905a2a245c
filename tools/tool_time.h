/* The clock and the median the measuring tools share (each tool a program of its own). */
#ifndef HT_TOOL_TIME_H
#define HT_TOOL_TIME_H

#include <stdlib.h>
#include <time.h>

/* Milliseconds of CLOCK_MONOTONIC (needs _POSIX_C_SOURCE 200809L before the first include). */
static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* qsort's order of doubles, ascending. */
static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the N values of V (sorted in place). */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

#endif
