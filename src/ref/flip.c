/* LDR-FLIP and HDR-FLIP on the CPU. The image is cut into strips of rows, taken by the
 * threads in turn; a thread runs down its strip keeping the x-filtered rows within the filter
 * radius of the current row in a ring, so each row is converted and x-filtered once (the
 * strip's halo rows above and below once more), and the intermediates take a few rows'
 * memory. Per row, in the tool's order (flip_rows.h): linear RGB -> YCxCz; the spatial filters
 * (x, then y); back to linear RGB, clamped; CIELab with Hunt's adjustment; HyAB colour
 * distance, remapped to [0, 1]. The feature filters (edges, points) on the normalised
 * achromatic channel; the feature difference raises the colour error to 1 - feature.
 * HDR-FLIP runs that per exposure on the tone-mapped images, strip by strip, and keeps the
 * maximum. */
#include "flip.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flip_rows.h"
#include "parallel.h"

/* Strips a worker gets on average (more balance the load on a busy machine; each costs its
 * halo's rows again), and the fewest rows a strip has. */
enum { STRIPS_PER_WORKER = 2, MIN_STRIP_ROWS = 32 };

typedef struct flip_job {
    flip_source ref, test;
    int w, h;
    const flip_filters *f;
    flip_color_consts cc;
    float *map;
    const flip_exposures *ex;   /* HDR-FLIP: map = max over these; NULL: LDR-FLIP */
    int halo, workers, strips, strip_rows;
    atomic_int next_strip;
    float *scratch[PARALLEL_MAX_WORKERS];
} flip_job;

/* One input's working rows in a worker's scratch: the converted row (4 planes of w + 2 halo),
 * the ring of 2 halo + 1 x-filtered rows, the y-filtered output row. */
typedef struct flip_side {
    flip_source src;
    float *conv, *ring, *yrows;
} flip_side;

static size_t side_floats(int w, int halo)
{
    size_t ring = (size_t)(2 * halo + 1) * FLIP_XPLANES * w;
    return 4 * (size_t)(w + 2 * halo) + ring + (size_t)FLIP_YPLANES * w;
}

static flip_side side_at(const flip_source *s, float *scratch, int w, int halo)
{
    flip_side d = {*s, scratch, NULL, NULL};
    d.ring = d.conv + 4 * (size_t)(w + 2 * halo);
    d.yrows = d.ring + (size_t)(2 * halo + 1) * FLIP_XPLANES * w;
    return d;
}

/* The ring's slot of row Y (rows count from the strip's first halo row, FIRST). */
static float *ring_slot(const flip_job *j, const flip_side *d, int y, int first)
{
    return d->ring + (size_t)((y - first) % (2 * j->halo + 1)) * FLIP_XPLANES * j->w;
}

/* Converts and x-filters image row Y (clamped to the image: the edge rows repeat) into its
 * ring slot. */
static void side_row(const flip_job *j, flip_side *d, int y, int first)
{
    int w = j->w, halo = j->halo, wp = w + 2 * halo;
    int sy = y < 0 ? 0 : y >= j->h ? j->h - 1 : y;
    float *cy = d->conv, *cx = cy + wp, *cz = cx + wp, *yn = cz + wp;
    flip_row_convert(&d->src, sy, w, halo, cy, cx, cz, yn);
    flip_row_filter_x(j->f, w, halo, cy, cx, cz, yn, ring_slot(j, d, y, first));
}

/* LDR-FLIP of rows [y0, y1) into the map (the maximum with it when MAX_INTO). */
static void strip_run(const flip_job *j, flip_side d[2], int y0, int y1, bool max_into)
{
    int halo = j->halo, first = y0 - halo;
    for (int y = first; y < y0 + halo; y++)
        for (int k = 0; k < 2; k++)
            side_row(j, &d[k], y, first);
    const float *rows[2 * FLIP_MAX_RADIUS + 1];
    for (int y = y0; y < y1; y++) {
        for (int k = 0; k < 2; k++) {
            side_row(j, &d[k], y + halo, first);
            for (int i = 0; i <= 2 * halo; i++)
                rows[i] = ring_slot(j, &d[k], y - halo + i, first);
            flip_row_filter_y(j->f, j->w, halo, rows, d[k].yrows);
        }
        flip_row_error(d[0].yrows, d[1].yrows, j->w, j->cc, max_into,
                       j->map + (size_t)y * j->w);
    }
}

static void worker(void *ctx, int k)
{
    flip_job *j = ctx;
    size_t n = side_floats(j->w, j->halo);
    flip_side d[2] = {side_at(&j->ref, j->scratch[k], j->w, j->halo),
                      side_at(&j->test, j->scratch[k] + n, j->w, j->halo)};
    int s;
    while ((s = atomic_fetch_add(&j->next_strip, 1)) < j->strips) {
        int y0 = s * j->strip_rows, y1 = y0 + j->strip_rows < j->h ? y0 + j->strip_rows : j->h;
        if (!j->ex) {
            strip_run(j, d, y0, y1, false);
            continue;
        }
        for (int i = 0; i < j->ex->count; i++) {
            d[0].src.scale = d[1].src.scale = powf(2.0f, flip_exposure_at(j->ex, i));
            strip_run(j, d, y0, y1, true);
        }
    }
}

static int thread_count(int threads)
{
    if (threads > 0)
        return threads < PARALLEL_MAX_WORKERS ? threads : PARALLEL_MAX_WORKERS;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static bool check_args(int w, int h, int channels, float ppd, char *err, size_t errlen)
{
    if (w <= 0 || h <= 0 || (channels != 3 && channels != 4)) {
        snprintf(err, errlen, "FLIP: bad image (%dx%d, %d channels)", w, h, channels);
        return false;
    }
    if (!(ppd >= FLIP_MIN_PPD && ppd <= FLIP_MAX_PPD)) {
        snprintf(err, errlen, "FLIP: %g pixels per degree is outside %g..%g", ppd,
                 FLIP_MIN_PPD, FLIP_MAX_PPD);
        return false;
    }
    return true;
}

/* FLIP over the whole image with J's sources (and exposures); scratch per worker. */
static bool run_job(flip_job *j, int threads, char *err, size_t errlen)
{
    j->halo = j->f->spatial_radius > j->f->feature_radius ? j->f->spatial_radius
                                                          : j->f->feature_radius;
    j->workers = thread_count(threads);
    int rows = (j->h + STRIPS_PER_WORKER * j->workers - 1) / (STRIPS_PER_WORKER * j->workers);
    j->strip_rows = rows > MIN_STRIP_ROWS ? rows : MIN_STRIP_ROWS;
    j->strips = (j->h + j->strip_rows - 1) / j->strip_rows;
    if (j->workers > j->strips)
        j->workers = j->strips;
    atomic_init(&j->next_strip, 0);
    bool ok = true;
    for (int k = 0; k < j->workers; k++) {
        j->scratch[k] = malloc(2 * side_floats(j->w, j->halo) * sizeof(float));
        ok = ok && j->scratch[k];
    }
    if (ok)
        parallel_run(j->workers, worker, j);
    else
        snprintf(err, errlen, "FLIP: out of memory for %d threads' rows", j->workers);
    for (int k = 0; k < j->workers; k++)
        free(j->scratch[k]);
    return ok;
}

static float ppd_of(const flip_params *p)
{
    return p->ppd > 0 ? p->ppd : flip_default_ppd();
}

bool flip_ldr(const float *ref, const float *test, int w, int h, int channels,
              const flip_params *p, float *map, char *err, size_t errlen)
{
    float ppd = ppd_of(p);
    if (!check_args(w, h, channels, ppd, err, errlen))
        return false;
    flip_filters f;
    flip_filters_make(ppd, &f);
    flip_job j = {.ref = {ref, channels, false, 1.0f, FLIP_TM_ACES},
                  .test = {test, channels, false, 1.0f, FLIP_TM_ACES},
                  .w = w, .h = h, .f = &f, .cc = flip_color_constants(), .map = map};
    return run_job(&j, p->threads, err, errlen);
}

bool flip_hdr(const float *ref, const float *test, int w, int h, int channels,
              const flip_params *p, const flip_exposures *ex, float *map, char *err,
              size_t errlen)
{
    float ppd = ppd_of(p);
    if (!check_args(w, h, channels, ppd, err, errlen))
        return false;
    flip_filters f;
    flip_filters_make(ppd, &f);
    memset(map, 0, (size_t)w * h * sizeof *map);
    flip_job j = {.ref = {ref, channels, true, 1.0f, p->tonemapper},
                  .test = {test, channels, true, 1.0f, p->tonemapper},
                  .w = w, .h = h, .f = &f, .cc = flip_color_constants(), .map = map, .ex = ex};
    return run_job(&j, p->threads, err, errlen);
}
