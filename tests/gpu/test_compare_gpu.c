/* compare_gpu.h against the CPU reference (flip.h, metrics.h) on synthetic pairs: LDR-FLIP of
 * linear and of sRGB-encoded pictures, HDR-FLIP with each tone mapper; the map within 1 grey level on >= 99.5 % of
 * the pixels, pooled mean within 0.001, weighted median and quartiles within 0.003 (whole
 * image and a rectangle); the metrics within 1e-5 relative; every mode's display texture
 * within one colour-bar entry of the CPU's on >= 99.5 % of the pixels; poll never waits and
 * hands each run out once; images of different sizes are refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "compare_gpu.h"
#include "testutil.h"

enum { W = 83, H = 61 };

/* A picture with edges, gradients and noise; HDR scales it over several stops. */
static void make_pair(float *ref, float *test, bool hdr, unsigned seed)
{
    unsigned s = seed;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float *r = ref + (y * W + x) * 3, *t = test + (y * W + x) * 3;
            bool box = x > 20 && x < 50 && y > 15 && y < 40;
            for (int c = 0; c < 3; c++) {
                float v = 0.15f + 0.6f * (float)x / W * (c == 1 ? 0.5f : 1.0f) + (box ? 0.2f : 0);
                if (hdr)
                    v = powf(2.0f, 10.0f * v - 4.0f);
                r[c] = v;
                t[c] = v * (1.0f + 0.2f * (test_rand(&s) - 0.5f)) + (x == 60 ? 0.1f * v : 0);
            }
        }
}

static void check_pooled(const char *what, const flip_pooled *g, const flip_pooled *c)
{
    CHECK(fabs(g->mean - c->mean) <= 0.001, "%s mean %g cpu %g", what, g->mean, c->mean);
    CHECK(fabs(g->weighted_median - c->weighted_median) <= 0.003, "%s median %g cpu %g", what,
          g->weighted_median, c->weighted_median);
    CHECK(fabs(g->q1 - c->q1) <= 0.003 && fabs(g->q3 - c->q3) <= 0.003, "%s quartiles", what);
    CHECK(fabs(g->min - c->min) <= 0.003 && fabs(g->max - c->max) <= 0.003, "%s min max", what);
    uint64_t moved = 0;
    for (int i = 0; i < FLIP_HIST_BINS; i++)
        moved += g->hist[i] > c->hist[i] ? g->hist[i] - c->hist[i] : 0;
    CHECK(moved * 200 <= c->count, "%s histogram: %llu values in another bucket", what,
          (unsigned long long)moved);
}

static void check_metrics(const char *what, const metrics_values *g, const metrics_values *c)
{
    const double gv[] = {g->mse, g->relmse, g->mae, g->mean_diff, g->max_abs};
    const double cv[] = {c->mse, c->relmse, c->mae, c->mean_diff, c->max_abs};
    for (int i = 0; i < 5; i++)
        CHECK(fabs(gv[i] - cv[i]) <= 1e-5 * fabs(cv[i]) + 1e-9, "%s metric %d: %.9g cpu %.9g",
              what, i, gv[i], cv[i]);
    CHECK(g->count == c->count, "%s count", what);
}

/* The display texture of MODE against the CPU's colours of the CPU's values. */
static void check_texture(compare_gpu *c, metrics_map mode, const float *ref, const float *test,
                          const float *cpu_map, const metrics_values *cpu_m)
{
    uint8_t *px = malloc(W * H * 4);
    glBindTexture(GL_TEXTURE_2D, compare_gpu_texture(c));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    metrics_colorbar cb = metrics_colorbar_for(mode, cpu_m);
    int off = 0;
    for (int i = 0; i < W * H; i++) {
        float v = mode == METRICS_MAP_FLIP ? cpu_map[i] : metrics_pixel(mode, ref, test, 3, i);
        int k = metrics_colorbar_index(&cb, v), near = 0;
        for (int j = k > 0 ? k - 1 : 0; j <= (k < 255 ? k + 1 : 255); j++)
            near |= memcmp(px + i * 4, cb.lut[j], 3) == 0;
        off += !near;
    }
    CHECK(off * 200 <= W * H, "mode %d: %d of %d pixels not the CPU's colour", mode, off, W * H);
    free(px);
}

static void run_case(compare_gpu *c, flip_source_kind kind, flip_tonemapper tm, unsigned seed)
{
    float *ref = malloc(W * H * 3 * sizeof(float)), *test = malloc(W * H * 3 * sizeof(float));
    float *lin_ref = malloc(W * H * 3 * sizeof(float)), *lin_test = malloc(W * H * 3 * sizeof(float));
    float *cpu = malloc(W * H * sizeof(float)), *gpu = malloc(W * H * sizeof(float));
    char err[HT_ERR_MAX];
    make_pair(ref, test, kind == FLIP_SRC_HDR, seed);
    for (int i = 0; i < W * H * 3; i++) {
        if (kind == FLIP_SRC_SRGB) {   /* stored encoded: the CPU gets them decoded */
            ref[i] = fminf(ref[i], 1.0f);
            test[i] = fminf(fmaxf(test[i], 0.0f), 1.0f);
        }
        lin_ref[i] = kind == FLIP_SRC_SRGB ? flip_srgb_to_linear(ref[i]) : ref[i];
        lin_test[i] = kind == FLIP_SRC_SRGB ? flip_srgb_to_linear(test[i]) : test[i];
    }
    compare_gpu_image ri = {0}, ti = {0};
    CHECK(compare_gpu_image_upload(&ri, ref, W, H, err, sizeof err), "%s", err);
    CHECK(compare_gpu_image_upload(&ti, test, W, H, err, sizeof err), "%s", err);
    flip_params p = {.tonemapper = tm};
    compare_gpu_desc d = {.ref = ri, .test = ti, .source = kind, .rect = {10, 7, 31, 22},
                          .flip = p};
    flip_exposures ex = {0};
    bool ok = kind == FLIP_SRC_HDR
                  ? flip_exposures_for(lin_ref, W, H, 3, &p, &ex, err, sizeof err) &&
                        flip_hdr(lin_ref, lin_test, W, H, 3, &p, &ex, cpu, err, sizeof err)
                  : flip_ldr(lin_ref, lin_test, W, H, 3, &p, cpu, err, sizeof err);
    CHECK(ok, "%s", err);
    d.exposures = ex;
    flip_pooled cw, cr;
    metrics_values mw, mr;
    flip_pool(cpu, W, H, NULL, &cw, err, sizeof err);
    flip_pool(cpu, W, H, &d.rect, &cr, err, sizeof err);
    metrics_compute(lin_ref, lin_test, W, H, 3, NULL, &mw, err, sizeof err);
    metrics_compute(lin_ref, lin_test, W, H, 3, &d.rect, &mr, err, sizeof err);
    for (int mode = 0; mode < METRICS_MAP_COUNT; mode++) {
        d.mode = (metrics_map)mode;
        compare_gpu_numbers n;
        CHECK(compare_gpu_run(c, &d, err, sizeof err), "%s", err);
        CHECK(compare_gpu_wait(c, &n) && n.has_flip && n.has_rect, "wait");
        CHECK(compare_gpu_read_map(c, gpu), "read map");
        int off = 0;
        for (int i = 0; i < W * H; i++)
            off += labs(lroundf(255 * cpu[i]) - lroundf(255 * gpu[i])) > 1;
        CHECK(off * 200 <= W * H, "kind %d: %d map pixels off", kind, off);
        check_pooled("whole", &n.flip, &cw);
        check_pooled("rect", &n.flip_rect, &cr);
        check_metrics("whole", &n.metrics, &mw);
        check_metrics("rect", &n.metrics_rect, &mr);
        check_texture(c, d.mode, lin_ref, lin_test, cpu, &mw);
    }
    printf("kind %d, tone mapper %s: CPU FLIP mean %.6f (rectangle %.6f)\n", kind,
           ht_enum_name(flip_tonemappers, tm), cw.mean, cr.mean);
    compare_gpu_image_free(&ri);
    compare_gpu_image_free(&ti);
    free(ref), free(test), free(lin_ref), free(lin_test), free(cpu), free(gpu);
}

/* Poll hands out each finished run once and never blocks; sizes must agree. */
static void check_contract(compare_gpu *c)
{
    char err[HT_ERR_MAX];
    float px[2 * 2 * 3] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 1, 1, 1};
    compare_gpu_image a = {0}, b = {0};
    compare_gpu_image_upload(&a, px, 2, 2, err, sizeof err);
    compare_gpu_image_upload(&b, px, 2, 1, err, sizeof err);
    compare_gpu_desc d = {.ref = a, .test = b};
    CHECK(!compare_gpu_run(c, &d, err, sizeof err) && strstr(err, "different sizes"),
          "mismatched sizes accepted (%s)", err);
    d.test = a;
    compare_gpu_numbers n;
    CHECK(compare_gpu_run(c, &d, err, sizeof err), "%s", err);
    CHECK(compare_gpu_run(c, &d, err, sizeof err), "%s", err);
    glFinish();
    CHECK(compare_gpu_poll(c, &n) && n.flip.max == 0 && n.metrics.mse == 0, "poll after finish");
    uint64_t last = n.run;
    CHECK(!compare_gpu_poll(c, &n), "a run handed out twice");
    CHECK(compare_gpu_run(c, &d, err, sizeof err), "%s", err);
    CHECK(compare_gpu_wait(c, &n) && n.run == last + 1, "wait: run %llu", (unsigned long long)n.run);
    /* flip_unchanged reuses the map and the whole image's numbers (the test is changed here,
     * against the promise, to see it): the rectangle's metrics move, its FLIP stays 0. */
    px[0] = 0.9f;
    compare_gpu_image_upload(&b, px, 2, 2, err, sizeof err);
    d.test = b;
    d.flip_unchanged = true;
    d.rect = (flip_rect){0, 0, 2, 2};
    CHECK(compare_gpu_run(c, &d, err, sizeof err) && compare_gpu_wait(c, &n), "%s", err);
    CHECK(n.flip.max == 0 && n.metrics.mse == 0 && n.flip_rect.max == 0 &&
          n.metrics_rect.mse > 0, "reused: FLIP max %g, MSE %g, rectangle's FLIP max %g, MSE %g",
          n.flip.max, n.metrics.mse, n.flip_rect.max, n.metrics_rect.mse);
    d.flip_unchanged = false;
    CHECK(compare_gpu_run(c, &d, err, sizeof err) && compare_gpu_wait(c, &n), "%s", err);
    CHECK(n.flip.max > 0 && n.metrics.mse > 0, "recomputed: FLIP max %g", n.flip.max);
    compare_gpu_image_free(&a);
    compare_gpu_image_free(&b);
}

int main(void)
{
    test_require_gl();
    char err[HT_ERR_MAX];
    compare_gpu *c = compare_gpu_create(err, sizeof err);
    if (!c) {
        fprintf(stderr, "compare_gpu_create: %s\n", err);
        return 1;
    }
    compare_gpu_numbers n;
    CHECK(!compare_gpu_poll(c, &n) && !compare_gpu_wait(c, &n), "numbers before any run");
    run_case(c, FLIP_SRC_LINEAR, FLIP_TM_ACES, 1);
    run_case(c, FLIP_SRC_SRGB, FLIP_TM_ACES, 2);
    run_case(c, FLIP_SRC_HDR, FLIP_TM_ACES, 3);
    run_case(c, FLIP_SRC_HDR, FLIP_TM_HABLE, 4);
    run_case(c, FLIP_SRC_HDR, FLIP_TM_REINHARD, 5);
    check_contract(c);
    compare_gpu_destroy(&c);
    return test_finish("test_compare_gpu");
}
