/* bench's viewer frame with GUI rows (bench_gui.h). */
#include "bench_gui.h"

#include <stdio.h>

static bench_gui_fn g_run;

void bench_gui_register(bench_gui_fn fn) { g_run = fn; }

/* The floor of a frame whose viewport has PIXELS (bench_gui_floor): its ms, and *BYTES. */
static double floor_ms(const bench_gui_floor *f, double pixels, int samples, double *bytes)
{
    double picture = pixels * (f->texel * samples + 4) + 2 * 4 * pixels;
    *bytes = f->read_bytes + picture;
    return f->read_ms + f->copy_ms * picture / f->copy_bytes;
}

enum { GUI_ROWS = 10 };   /* a window's rows */

/* One window's rows, from N on (NAMES holds their text); the new count. */
static int window_rows(const bench_gui_times *t, const bench_gui_floor *f, int w, int h,
                       char (*names)[64], bench_row *rows, int n)
{
    enum { NONE, PANELS, PLAIN };   /* the floor of the viewport with the panels, without */
    double bytes[3] = {0}, fl[3] = {0};
    fl[PANELS] = floor_ms(f, (double)t->vp_w * t->vp_h, t->samples, &bytes[PANELS]);
    fl[PLAIN] = floor_ms(f, (double)t->plain_w * t->plain_h, t->samples, &bytes[PLAIN]);
    const struct {
        const char *what;
        gpu_timing tm;
        int floor;
    } r[] = {
        {"viewer frame with GUI", t->frame, PANELS},
        {"GUI frame: CPU", t->frame_cpu, NONE},
        {"GUI frame: until done", t->frame_done, PANELS},
        {"GUI frame: picture unchanged", t->still, NONE},
        {"viewer frame, panels hidden", t->plain, PLAIN},
        {"GUI: panels built (CPU)", t->panels_cpu, NONE},
        {"GUI: ui_render (CPU)", t->gui_cpu, NONE},
        {"GUI: ui_render (GPU)", t->gui, NONE},
        {"present (blit)", t->present, NONE},
        {"clear (around the picture)", t->clear, NONE},
    };
    _Static_assert(sizeof r / sizeof r[0] == GUI_ROWS, "GUI_ROWS counts them");
    for (size_t i = 0; i < GUI_ROWS; i++, n++) {
        int k = r[i].floor;
        snprintf(names[i], 64, "%s, %dx%d", r[i].what, w, h);
        rows[n] = (bench_row){names[i], r[i].tm, bytes[k], k ? "floor" : NULL,
                              k ? r[i].tm.median_ms / fl[k] : 0};
    }
    return n;
}

/* The window: --window, else the image's size, at least the viewer's smallest useful one. */
static bool window_size(const ht_options *o, int img_w, int img_h, int *w, int *h)
{
    if (!o->window) {
        *w = img_w < 640 ? 640 : img_w > 16384 ? 16384 : img_w;
        *h = img_h < 400 ? 400 : img_h > 16384 ? 16384 : img_h;
        return true;
    }
    if (sscanf(o->window, "%dx%d", w, h) == 2 && *w >= 64 && *h >= 64 && *w <= 16384 &&
        *h <= 16384)
        return true;
    fprintf(stderr, "hdrtone bench: --window %s: not WxH (64 to 16384 each); no viewer frame "
                    "with GUI\n", o->window);
    return false;
}

int bench_gui_rows(const ht_options *o, const char *file, int img_w, int img_h,
                   const bench_gui_floor *floor, bool wall_clock, bench_row *rows, int n,
                   int max)
{
    static char names[GUI_ROWS][64];
    bench_gui_times t = {0};
    char err[512];
    int w, h;
    if (!g_run || n + GUI_ROWS > max || !window_size(o, img_w, img_h, &w, &h))
        return n;
    if (!g_run(o, file, img_w, img_h, w, h, wall_clock, &t, err, sizeof err)) {
        fprintf(stderr, "hdrtone bench: viewer frame with GUI, %dx%d: %s (not timed)\n", w, h,
                err);
        return n;
    }
    return window_rows(&t, floor, w, h, names, rows, n);
}
