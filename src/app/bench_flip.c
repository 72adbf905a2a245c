#include "bench_flip.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "compare_gpu.h"
#include "gpu_timer.h"
#include "image.h"
#include "synthetic.h"

/* The target per LDR-FLIP or per HDR-FLIP exposure at 3840x2160 (BENCHMARKS.md). */
#define FLIP_TARGET_MS 3.0

typedef struct flip_bench {
    compare_gpu *cmp;
    flip_gpu *flip;
    compare_gpu_image ldr[2], hdr[2];
    flip_exposures ex;
    compare_gpu_desc desc;       /* for the frame rows */
    bool hdr_run;
    int w, h;
    char err[HT_ERR_MAX];
} flip_bench;

static void run_flip(void *arg)
{
    flip_bench *b = arg;
    compare_gpu_image *im = b->hdr_run ? b->hdr : b->ldr;
    flip_params p = {0};
    if (!flip_gpu_run(b->flip, im[0].texture, im[1].texture, b->w, b->h,
                      b->hdr_run ? FLIP_SRC_HDR : FLIP_SRC_LINEAR, &p, &b->ex, b->err,
                      sizeof b->err))
        return;
}

static void run_frame(void *arg)
{
    flip_bench *b = arg;
    compare_gpu_numbers n;
    compare_gpu_run(b->cmp, &b->desc, b->err, sizeof b->err);
    compare_gpu_poll(b->cmp, &n);   /* as the viewer: the finished run's numbers, no wait */
}

/* The synthetic pair: HDR, log-uniform luminance and its render noise (x (1 + 0.15 g),
 * uniform g here); LDR, both through x / (1 + x). RGB floats, 3 a pixel. */
static bool make_pairs(int w, int h, float *rgb[4])
{
    hdr_image img;
    size_t n = (size_t)w * h;
    if (!synthetic_image(&img, w, h, 7))
        return false;
    for (int i = 0; i < 4; i++)
        rgb[i] = malloc(n * 3 * sizeof(float));
    bool ok = rgb[0] && rgb[1] && rgb[2] && rgb[3];
    unsigned s = 12345;
    for (size_t i = 0; ok && i < n * 3; i++) {
        float v = img.rgba[i / 3 * 4 + i % 3];
        s = s * 1664525u + 1013904223u;
        float t = v * (1.0f + 0.15f * ((float)(s >> 8) / 16777216.0f * 2.0f - 1.0f));
        rgb[0][i] = v, rgb[1][i] = t, rgb[2][i] = v / (1 + v), rgb[3][i] = t / (1 + t);
    }
    image_free(&img);
    return ok;
}

/* The GPU's FLIP of the pair's top-left S x S corner against the CPU reference's. */
static bool check_corner(flip_bench *b, float *rgb[4], int s)
{
    size_t n = (size_t)s * s;
    float *c[2] = {malloc(n * 3 * sizeof(float)), malloc(n * 3 * sizeof(float))};
    float *cpu = malloc(n * sizeof(float));
    bool ok = c[0] && c[1] && cpu;
    compare_gpu_image im[2] = {{0}, {0}};
    for (int k = 0; ok && k < 2; k++) {
        for (int y = 0; y < s; y++)
            memcpy(c[k] + (size_t)y * s * 3, rgb[2 + k] + (size_t)y * b->w * 3, s * 3 * sizeof(float));
        ok = compare_gpu_image_upload(&im[k], c[k], s, s, b->err, sizeof b->err);
    }
    flip_params p = {0};
    flip_pooled cp;
    compare_gpu_numbers g;
    compare_gpu_desc d = {.ref = im[0], .test = im[1]};
    ok = ok && flip_ldr(c[0], c[1], s, s, 3, &p, cpu, b->err, sizeof b->err) &&
         flip_pool(cpu, s, s, NULL, &cp, b->err, sizeof b->err) &&
         compare_gpu_run(b->cmp, &d, b->err, sizeof b->err) && compare_gpu_wait(b->cmp, &g);
    if (ok && !(fabs(g.flip.mean - cp.mean) <= 0.001 &&
                fabs(g.flip.weighted_median - cp.weighted_median) <= 0.003)) {
        snprintf(b->err, sizeof b->err, "GPU FLIP differs from the CPU reference: mean %.6f "
                 "against %.6f", g.flip.mean, cp.mean);
        ok = false;
    }
    compare_gpu_image_free(&im[0]);
    compare_gpu_image_free(&im[1]);
    free(c[0]), free(c[1]), free(cpu);
    return ok;
}

typedef struct flip_row {
    const char *name;
    gpu_timing t;
    double per;      /* divide by this for the row's per-exposure time (1: none) */
} flip_row;

static void print_rows(FILE *f, bool json, const flip_bench *b, const flip_row *r, int n,
                       bool wall_clock)
{
    if (json) {
        fprintf(f, ", \"flip\": {\"timer\": \"%s\", \"flip_exposures\": %d, "
                "\"target_ms\": %.1f, \"passes\": [", wall_clock ? "wall clock (glFinish)"
                : "GL_TIME_ELAPSED", b->ex.count, FLIP_TARGET_MS);
        for (int i = 0; i < n; i++)
            fprintf(f, "%s\n  {\"name\": \"%s\", \"median_us\": %.2f, \"min_us\": %.2f, "
                    "\"vs\": \"target\", \"ratio\": %.3f}", i ? "," : "", r[i].name,
                    r[i].t.median_ms * 1e3, r[i].t.min_ms * 1e3,
                    r[i].t.median_ms / r[i].per / FLIP_TARGET_MS);
        fputs("]}", f);
        return;
    }
    fprintf(f, "FLIP, synthetic pair %dx%d (HDR: %d exposures, %.2f..%.2f); %s\n", b->w, b->h,
            b->ex.count, b->ex.start, b->ex.stop,
            wall_clock ? "timer: wall clock with glFinish" : "timer: GL_TIME_ELAPSED");
    fprintf(f, "%-44s %10s %10s  %s\n", "pass", "median us", "min us", "ratio to 3 ms target");
    for (int i = 0; i < n; i++)
        fprintf(f, "%-44s %10.1f %10.1f  %.2f%s\n", r[i].name, r[i].t.median_ms * 1e3,
                r[i].t.min_ms * 1e3, r[i].t.median_ms / r[i].per / FLIP_TARGET_MS,
                r[i].per > 1 ? " (per exposure)" : "");
}

static int time_rows(flip_bench *b, int runs, bool *wc, flip_row *r)
{
    int n = 0;
    b->hdr_run = false;
    r[n++] = (flip_row){"FLIP: LDR-FLIP", gpu_timer_measure(run_flip, b, runs, wc), 1};
    b->hdr_run = true;
    static char name[64];
    snprintf(name, sizeof name, "FLIP: HDR-FLIP, %d exposures", b->ex.count);
    r[n++] = (flip_row){name, gpu_timer_measure(run_flip, b, runs, wc), b->ex.count};
    b->desc = (compare_gpu_desc){.ref = b->ldr[0], .test = b->ldr[1],
                                 .rect = {b->w / 4, b->h / 4, b->w / 2, b->h / 2}};
    r[n++] = (flip_row){"compare frame: LDR-FLIP map + numbers",
                        gpu_timer_measure(run_frame, b, runs, wc), 1};
    b->desc.flip_unchanged = true;
    r[n++] = (flip_row){"compare frame: FLIP reused, new rectangle",
                        gpu_timer_measure(run_frame, b, runs, wc), 1};
    b->desc.flip_unchanged = false;
    b->desc.mode = METRICS_MAP_DIFF;
    b->desc.skip_flip = true;
    r[n++] = (flip_row){"compare frame: difference map + numbers",
                        gpu_timer_measure(run_frame, b, runs, wc), 1};
    return n;
}

bool bench_flip(FILE *f, bool json, int w, int h, int runs, bool *wall_clock)
{
    flip_bench b = {.w = w, .h = h};
    float *rgb[4] = {0};
    flip_params p = {0};
    bool ok = make_pairs(w, h, rgb) &&
              (b.cmp = compare_gpu_create(b.err, sizeof b.err)) &&
              (b.flip = flip_gpu_create(b.err, sizeof b.err)) &&
              flip_exposures_for(rgb[0], w, h, 3, &p, &b.ex, b.err, sizeof b.err);
    for (int k = 0; ok && k < 2; k++)
        ok = compare_gpu_image_upload(&b.hdr[k], rgb[k], w, h, b.err, sizeof b.err) &&
             compare_gpu_image_upload(&b.ldr[k], rgb[2 + k], w, h, b.err, sizeof b.err);
    ok = ok && check_corner(&b, rgb, w < 256 || h < 256 ? (w < h ? w : h) : 256);
    if (ok) {
        flip_row rows[8];
        int n = time_rows(&b, runs, wall_clock, rows);
        ok = !b.err[0];
        print_rows(f, json, &b, rows, n, *wall_clock);
    }
    if (!ok)
        fprintf(stderr, "hdrtone bench: FLIP: %s\n", b.err[0] ? b.err : "out of memory");
    for (int k = 0; k < 2; k++) {
        compare_gpu_image_free(&b.hdr[k]);
        compare_gpu_image_free(&b.ldr[k]);
        free(rgb[k]), free(rgb[2 + k]);
    }
    flip_gpu_destroy(&b.flip);
    compare_gpu_destroy(&b.cmp);
    return ok;
}
