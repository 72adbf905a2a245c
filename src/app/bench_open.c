/* bench --open: start to first picture of one file, beside OpenEXR's floor. */
#include "bench_open.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "bench_decode.h"
#include "commands.h"
#include "gl_context.h"
#include "gpu_timer.h"
#include "pipeline.h"

enum { OPEN_MAX_RUNS = 51 };

/* Per run: the open (decode + upload + first frame), its decode, the floor's upload, and (a
 * load of its own, with the progress hook set) start to the first rows told. */
enum { T_OPEN, T_DECODE, T_UPLOAD, T_FIRST_ROWS, T_COUNT };

typedef struct open_run {
    const ht_options *o;
    const char *file;
    pipeline *pipe;
    image_load_options lo;
    uint16_t *copy;          /* the first image's halves in a buffer of the pool's */
    size_t copy_bytes;
    hdr_image img0;          /* its size and kind, for the floor's upload (no pixels owned) */
    double ms[T_COUNT][OPEN_MAX_RUNS];
} open_run;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n ? v[n / 2] : -1;
}

/* The frame of what pipeline_upload sent last, waited for. */
static bool first_frame(open_run *r, char *err, size_t errlen)
{
    ht_source src = pipeline_image_source(r->pipe);
    bool ok = pipeline_frame(r->pipe, src, src, &r->o->tm, err, errlen);
    glFinish();
    return ok;
}

/* Keeps IMG's halves in R->copy (the floor uploads from there, as from a reused buffer). */
static bool keep_copy(open_run *r, const hdr_image *img)
{
    r->copy_bytes = (size_t)img->width * img->height * 4 * sizeof *r->copy;
    if (!img->half || !(r->copy = image_pool_get(r->copy_bytes)))
        return false;
    memcpy(r->copy, img->half, r->copy_bytes);
    r->img0 = *img;
    r->img0.half = r->copy;
    r->img0.rgba = NULL;
    r->img0.parts = NULL;
    return true;
}

/* When a load began, and when its progress first told rows since (-1: not yet). */
typedef struct first_rows {
    double start, ms;
} first_rows;

static void on_first_rows(void *ctx, const uint16_t *half, int width, int done, int height)
{
    (void)half, (void)width, (void)done, (void)height;
    first_rows *f = ctx;
    if (f->ms < 0)
        f->ms = gpu_timer_clock_ms() - f->start;
}

/* Run I's load with the progress hook set (image_progress: what a viewer could show first),
 * apart from the open so that its time stays the hook-less one: start to the first rows told,
 * -1 when the decoder tells none. */
static bool first_rows_run(open_run *r, int i, char *err, size_t errlen)
{
    first_rows f = {.ms = -1};
    image_progress pr = {on_first_rows, &f};
    image_load_options lo = r->lo;
    lo.progress = &pr;
    hdr_image img = {0};
    f.start = gpu_timer_clock_ms();
    bool ok = image_load(r->file, &lo, &img, err, errlen);
    image_free(&img);
    if (i >= 0)
        r->ms[T_FIRST_ROWS][i] = f.ms;
    return ok;
}

/* Run I (-1: the warm-up): open, then the floor's upload. */
static bool one_run(open_run *r, int i, char *err, size_t errlen)
{
    hdr_image img = {0};
    double t0 = gpu_timer_clock_ms();
    if (!image_load(r->file, &r->lo, &img, err, errlen))
        return false;
    double t1 = gpu_timer_clock_ms();
    bool ok = pipeline_upload(r->pipe, &img, err, errlen) && first_frame(r, err, errlen);
    double t2 = gpu_timer_clock_ms();
    if (ok && !r->copy && !keep_copy(r, &img)) {
        snprintf(err, errlen, "%s: no half floats to upload (not a half-exact image)", r->file);
        ok = false;
    }
    image_free(&img);
    ok = ok && pipeline_upload(r->pipe, &r->img0, err, errlen);
    glFinish();
    double t3 = gpu_timer_clock_ms();
    if (i >= 0) {
        r->ms[T_OPEN][i] = t2 - t0;
        r->ms[T_DECODE][i] = t1 - t0;
        r->ms[T_UPLOAD][i] = t3 - t2;
    }
    return ok;
}

static void print_open(const open_run *r, double open, double decode, double floor_decode,
                       double upload, double first)
{
    double floor = floor_decode >= 0 ? floor_decode + upload : -1;
    double ratio = floor > 0 ? open / floor : -1;
    if (r->o->json) {
        fputs("{\"device\": ", stdout);
        commands_json_str(stdout, gl_renderer());
        fputs(", \"file\": ", stdout);
        commands_json_str(stdout, r->file);
        printf(", \"width\": %d, \"height\": %d, \"compression\": ", r->img0.width,
               r->img0.height);
        commands_json_str(stdout, r->img0.compression);
        printf(", \"open_ms\": %.3f, \"decode_ms\": %.3f, \"floor_ms\": %.3f, "
               "\"floor_decode_ms\": %.3f, \"floor_upload_ms\": %.3f, \"ratio\": %.3f, "
               "\"first_rows_ms\": %.3f}\n",
               open, decode, floor, floor_decode, upload, ratio, first);
        return;
    }
    printf("open of %s (%d x %d, %s) on %s: first tone-mapped frame after %.1f ms (decode "
           "%.1f ms)\n", r->file, r->img0.width, r->img0.height, r->img0.compression,
           gl_renderer(), open, decode);
    if (first >= 0)
        printf("first rows told by the decode's progress after %.1f ms\n", first);
    else
        printf("no rows told before the whole decode (its decoder tells no progress)\n");
    if (floor > 0)
        printf("floor (OpenEXR on all cores into a reused buffer %.1f ms + upload %.1f ms): "
               "%.1f ms; ratio %.2f\n", floor_decode, upload, floor, ratio);
    else
        printf("no floor: not an OpenEXR file the library reads\n");
}

int bench_open(cmd_backend *be, const ht_options *o, char **files, int n)
{
    char err[HT_ERR_MAX];
    if (n != 1)
        return commands_usage_error("bench", "--open needs one FILE");
    open_run *r = calloc(1, sizeof *r);
    if (!r || !(r->pipe = backend_pipeline(be, err, sizeof err))) {
        fprintf(stderr, "hdrtone bench: %s\n", r ? err : "out of memory");
        free(r);
        return 1;
    }
    r->o = o;
    r->file = files[0];
    r->lo = options_load(o);
    r->lo.threads = 0;
    r->lo.half_only = true;
    r->lo.half_alloc = pipeline_upload_allocator(r->pipe, 2);
    int runs = o->runs < OPEN_MAX_RUNS ? o->runs : OPEN_MAX_RUNS, status = 0;
    for (int i = -1; i < runs && status == 0; i++)
        if (!one_run(r, i, err, sizeof err) || !first_rows_run(r, i, err, sizeof err)) {
            fprintf(stderr, "hdrtone bench: %s\n", err);
            status = 1;
        }
    if (status == 0) {
        double open = median(r->ms[T_OPEN], runs), decode = median(r->ms[T_DECODE], runs);
        double upload = median(r->ms[T_UPLOAD], runs), first = median(r->ms[T_FIRST_ROWS], runs);
        print_open(r, open, decode, bench_decode_floor_threads_ms(r->file, 0), upload, first);
    }
    image_pool_put(r->copy, r->copy_bytes);
    free(r);
    return status;
}
