/* hdrtone bench's FLIP rows: LDR-FLIP, HDR-FLIP (in all and per exposure) and the viewer's
 * comparison frame (compare_gpu_run: FLIP, numbers, display texture) on a synthetic pair. */
#ifndef HT_BENCH_FLIP_H
#define HT_BENCH_FLIP_H

#include <stdbool.h>
#include <stdio.h>

/* Times the rows at W x H (RUNS runs each, after a warm-up) with the current GL context, first
 * checking the GPU's FLIP against the CPU reference on a 256 x 256 corner; prints a table, or
 * with JSON one more member of bench's object (", \"flip\": {...}"). *WALL_CLOCK: as
 * gpu_timer_measure's. False (message on stderr) when the check fails or a step cannot run. */
bool bench_flip(FILE *f, bool json, int w, int h, int runs, bool *wall_clock);

#endif
