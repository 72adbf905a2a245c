/* Image statistics of the real samples: the brightest pixel of every file of
 * $HT_SHARED/exr-samples/MANIFEST.tsv that loads is at the manifest's position (data-window
 * relative and absolute), on both backends, and the GPU equals the CPU reference exactly
 * (brightest, darkest, peaks, histograms of the GPU's output). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imgstats_gpu.h"
#include "pipeline.h"
#include "testutil.h"

enum { MAX_COLS = 40 };

static void check_brightest(const char *label, const imgstats_pixel *b, int rx, int ry, int ax,
                            int ay)
{
    CHECK(b->valid && b->x == rx && b->y == ry && b->abs_x == ax && b->abs_y == ay,
          "%s: brightest (%d,%d) abs (%d,%d), manifest (%d,%d) abs (%d,%d)", label, b->x, b->y,
          b->abs_x, b->abs_y, rx, ry, ax, ay);
}

static void check_pixel(const char *label, const imgstats_pixel *g, const imgstats_pixel *c)
{
    CHECK(g->valid == c->valid && g->x == c->x && g->y == c->y && g->luminance == c->luminance,
          "%s: GPU (%d,%d) %.17g, CPU (%d,%d) %.17g", label, g->x, g->y, g->luminance, c->x,
          c->y, c->luminance);
}

int main(void)
{
    const char *dir = test_shared_path("exr-samples");
    char path[4096];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("skipped: cannot open %s\n", path);
        return SKIP_CODE;
    }
    test_require_gl();
    char err[HT_ERR_MAX];
    pipeline *pipe = pipeline_create(err, sizeof err);
    imgstats_gpu_ctx *ctx = pipe ? imgstats_gpu_create(err, sizeof err) : NULL;
    if (!ctx) {
        fprintf(stderr, "GPU setup: %s\n", err);
        return 1;
    }
    static char header[8192], line[16384];
    char *names[MAX_COLS], *v[MAX_COLS];
    if (!fgets(header, sizeof header, f))
        return 1;
    int ncols = test_tsv_split(header, names, MAX_COLS);
    int c_file = test_tsv_column(names, ncols, "file");
    int c_rel = test_tsv_column(names, ncols, "brightest_xy_datawindow_rel");
    int c_abs = test_tsv_column(names, ncols, "brightest_xy_abs");
    int loaded = 0;
    while (fgets(line, sizeof line, f)) {
        if (test_tsv_split(line, v, MAX_COLS) != ncols)
            continue;
        int rx, ry, ax, ay;
        if (sscanf(v[c_rel], "(%d,%d)", &rx, &ry) != 2 ||
            sscanf(v[c_abs], "(%d,%d)", &ax, &ay) != 2) {
            CHECK(false, "%s: unreadable brightest columns", v[c_file]);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, v[c_file]);
        hdr_image img;
        if (!image_load(path, NULL, &img, err, sizeof err)) {
            printf("%s: not loaded (%s)\n", v[c_file], err);   /* test_load_manifest's job */
            continue;
        }
        loaded++;
        const char *name = v[c_file];
        imgstats cpu, gpu;
        tonemap_params tp;
        tonemap_params_default(&tp);
        uint8_t *rgb = malloc((size_t)img.width * img.height * 3);
        if (!rgb)
            abort();
        bool ok = pipeline_tonemap_image(pipe, &img, &tp, NULL, rgb, err, sizeof err);
        CHECK(ok, "%s: %s", name, err);
        ht_source src = pipeline_image_source(pipe);
        ht_source out = {pipeline_output_texture(pipe), src.width, src.height, 1};
        if (ok && imgstats_cpu(&img, rgb, 10, 16, &cpu)) {
            check_brightest(name, &cpu.brightest, rx, ry, ax, ay);
            ok = imgstats_gpu_prepare(ctx, src, out, err, sizeof err) &&
                 imgstats_gpu_run(ctx, &img, HT_GREY_PRIVATE, 10, 16, &gpu, err, sizeof err);
            CHECK(ok, "%s: GPU: %s", name, err);
            if (ok) {
                check_brightest(name, &gpu.brightest, rx, ry, ax, ay);
                check_pixel(name, &gpu.darkest, &cpu.darkest);
                CHECK(gpu.n_peaks == cpu.n_peaks, "%s: %d peaks vs %d", name, gpu.n_peaks,
                      cpu.n_peaks);
                for (int i = 0; i < gpu.n_peaks && i < cpu.n_peaks; i++)
                    check_pixel(name, &gpu.peaks[i], &cpu.peaks[i]);
                CHECK(memcmp(gpu.rgba_hist, cpu.rgba_hist, sizeof gpu.rgba_hist) == 0 &&
                          memcmp(gpu.grey_hist, cpu.grey_hist, sizeof gpu.grey_hist) == 0,
                      "%s: histograms differ", name);
                imgstats_free(&gpu);
            }
            imgstats_free(&cpu);
        }
        free(rgb);
        image_free(&img);
    }
    fclose(f);
    CHECK(loaded > 0, "no sample loaded");
    imgstats_gpu_destroy(&ctx);
    pipeline_destroy(&pipe);
    return test_finish("test_imgstats_samples");
}
