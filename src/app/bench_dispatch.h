/* bench --dispatches: the GPU time of each piece of GL work in a frame (every dispatch, buffer
 * copy or clear, upload, read-back and fence wait), from GL_TIMESTAMP queries issued around
 * each, and the GPU's idle time before each (what it waited for the CPU). The GL entry points
 * are wrapped while a frame is recorded, so no pass needs a hook of its own. Needs a current GL
 * 4.3 context. */
#ifndef HT_BENCH_DISPATCH_H
#define HT_BENCH_DISPATCH_H

#include <stdbool.h>
#include <stdio.h>

/* Runs FRAME(ARG) 5 times, then RUNS (>= 1) times recorded, and writes to F a table titled
 * TITLE: per piece of work in the frame's order its kind, program (its GL label) and groups,
 * the median GPU time, the median GPU idle time before it and the CPU's median time from the
 * previous piece's return to this one's call (its state changes, uniforms, bindings), in
 * microseconds; then the frame's GPU span, busy and idle sums, and its CPU span. False (nothing written
 * but a line saying why) when the frames' sequences differ or the driver gives no timestamps. */
bool bench_dispatches(FILE *f, const char *title, void (*frame)(void *), void *arg, int runs);

#endif
