/* bench's rows of the viewer's real frame with its GUI drawn (menu bar, dock with histogram,
 * curve and sections, status bar), headless, in a window of --window's size (default: the
 * image's, at least 640x400). The viewer, a layer above this one, draws the frames
 * (viewer_bench.c); main registers that function here, so that the arrows stay downward.
 * Without it (a program that links no viewer) the rows are left out. */
#ifndef HT_BENCH_GUI_H
#define HT_BENCH_GUI_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_timer.h"
#include "options.h"

/* A row of bench's tables: a time against the BYTES the work must move at least, and its
 * ratio to the probe or floor named VS (0: not compared). */
typedef struct bench_row {
    const char *name;
    gpu_timing t;
    double bytes;
    const char *vs;
    double ratio;
} bench_row;

/* What the viewer's frames measured in one window: medians and minima in ms. GPU times are
 * GL_TIME_ELAPSED, or the wall clock with glFinish where the driver's timer gives nothing
 * (then each equals its "until done"). */
typedef struct bench_gui_times {
    int vp_w, vp_h;            /* the picture's viewport with the panels, and without them */
    int plain_w, plain_h;
    int samples;               /* the scene's samples (the viewer's --msaa) */
    gpu_timing frame;          /* a frame whose picture changed (a slider moving): GPU */
    gpu_timing frame_cpu;      /*   its CPU time until submitted */
    gpu_timing frame_done;     /*   from its start until the GPU finished it (glFinish) */
    gpu_timing still;          /* a frame whose picture did not (a cursor moving): GPU */
    gpu_timing plain;          /* a changed frame with the panels hidden (Ctrl+H): GPU */
    gpu_timing panels_cpu;     /* the panels' widgets built (panels_build): CPU */
    gpu_timing gui_cpu, gui;   /* ui_render (draw lists, upload, ui_draw): CPU, GPU */
    gpu_timing present;        /* the picture blitted into the window (viewer_present): GPU */
    gpu_timing clear;          /* the frame's clear (viewer_clear): GPU */
} bench_gui_times;

/* Opens FILE (NULL: bench's synthetic image of IMG_W x IMG_H) in a viewer with O's settings
 * whose window is a WIN_W x WIN_H stand-in on the current GL context, and times RUNS frames
 * of each kind into *T (WALL_CLOCK: time with glFinish). False with the reason in ERR. */
typedef bool (*bench_gui_fn)(const ht_options *o, const char *file, int img_w, int img_h,
                             int win_w, int win_h, bool wall_clock, bench_gui_times *t,
                             char *err, size_t errlen);
void bench_gui_register(bench_gui_fn fn);

/* The floor of a viewer frame: the analysis reads the image once (READ_MS, the read probe),
 * the apply pass reads the scene and writes RGBA8 at the read+write probe's speed (COPY_MS
 * for COPY_BYTES), the present reads and writes RGBA8, all at the viewport's PIXELS. */
typedef struct bench_gui_floor {
    double read_ms, read_bytes, copy_ms, copy_bytes, texel;
} bench_gui_floor;

/* The rows of the window appended to ROWS from N on, at most MAX in all; returns the new
 * count. When the window cannot be measured that is said on stderr and the rows left out. */
int bench_gui_rows(const ht_options *o, const char *file, int img_w, int img_h,
                   const bench_gui_floor *floor, bool wall_clock, bench_row *rows, int n,
                   int max);

#endif
