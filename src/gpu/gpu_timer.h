/* GPU time of a piece of GL work, from GL_TIME_ELAPSED queries: the one timing mechanism of
 * the pipeline, the scene pass, the viewer and the benchmark. Read in one of two ways:
 *  - per frame (pipeline, scene pass, viewer): gpu_timer_poll reads what the GPU has finished
 *    and never waits, so the time is a frame or two late;
 *  - synchronously (benchmark): gpu_timer_wait waits for every interval, for a median.
 * GL_TIME_ELAPSED queries cannot nest: an interval begun while another timer's is open is not
 * timed (the open one includes its work). Some drivers report 0 for compute (llvmpipe):
 * gpu_timer_measure then times with glFinish and the clock. Needs a current GL context. */
#ifndef HT_GPU_TIMER_H
#define HT_GPU_TIMER_H

#include <stdbool.h>

typedef struct gpu_timer gpu_timer;

/* A timer that holds up to DEPTH intervals not yet read (an interval begun when DEPTH are
 * unread replaces the oldest). NULL when out of memory. */
gpu_timer *gpu_timer_create(int depth);
/* Accepts NULL; sets *t to NULL. */
void gpu_timer_destroy(gpu_timer **t);

/* Bracket the GL commands to time. T may be NULL (nothing timed). */
void gpu_timer_begin(gpu_timer *t);
void gpu_timer_end(gpu_timer *t);

/* Reads the intervals the GPU has finished, oldest first, without waiting; returns the
 * newest in milliseconds (the last one read when none has finished since; 0 before any).
 * Accepts NULL (0). */
double gpu_timer_poll(gpu_timer *t);
/* Waits for every interval not yet read and writes them in milliseconds, oldest first, to MS
 * (at most MAX; the rest are dropped). Returns how many it wrote. */
int gpu_timer_wait(gpu_timer *t, double *ms, int max);

/* Median and minimum of a set of times. */
typedef struct gpu_timing {
    double median_ms, min_ms;
} gpu_timing;
/* Of MS[0..N), N >= 1 (sorts MS). */
gpu_timing gpu_timing_of(double *ms, int n);

/* The benchmark's measurement: median and minimum of RUNS (>= 1) calls of FN(ARG) after 5
 * warm-up calls, each between GL_TIME_ELAPSED queries read synchronously. Where those sum to
 * under 1 % of the wall clock (llvmpipe reports 0 for compute), or *WALL_CLOCK is already set,
 * each call is timed with glFinish and the clock instead and *WALL_CLOCK becomes true. */
typedef void (*gpu_timer_fn)(void *arg);
gpu_timing gpu_timer_measure(gpu_timer_fn fn, void *arg, int runs, bool *wall_clock);

/* A monotonic clock in milliseconds (the wall-clock fallback's). */
double gpu_timer_clock_ms(void);

#endif
