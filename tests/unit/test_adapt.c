/* Temporal adaptation (src/ref/adapt.c) on the CPU reference: a static scene stays the
 * still; a step moves the state by exactly 1 - exp(-dt/T) per frame for exp:T and ends
 * exact; the weights keep their sum through the resampling; a cut starts afresh; human
 * adapts to light faster than to dark; analysis files round-trip bit for bit and refuse
 * other options. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapt.h"
#include "testutil.h"

static float g_gain = 1.0f;

static void ramp(int x, int y, float rgb[3])
{
    float l = 0.01f * powf(10.0f, 4.0f * (float)(x + y * 64) / (64 * 48 - 1)) * g_gain;
    rgb[0] = l * 1.1f;
    rgb[1] = l;
    rgb[2] = l * 0.8f;
}

/* Frame FRAME of the ramp at GAIN: its image (freed by the caller), still result, analysis. */
static void frame_of(float gain, int frame, const tonemap_params *p, hdr_image *img,
                     tonemap_result *r, adapt_frame *f)
{
    g_gain = gain;
    test_make_image(img, 64, 48, ramp);
    tonemap_cpu_analyze(img, p, r);
    adapt_frame_of(r, frame, f);
}

static void test_static_and_step(const tonemap_params *p)
{
    adapt_params a = {HT_ADAPT_EXP, 0.1, 24, 0};
    adapt_state *s = malloc(sizeof *s);
    adapt_frame *f = malloc(sizeof *f), *f1 = malloc(sizeof *f1);
    tonemap_result *still = malloc(sizeof *still), *r = malloc(sizeof *r);
    uint8_t *out = malloc(64 * 48 * 3), *want = malloc(64 * 48 * 3);
    hdr_image img = {0};
    adapt_init(s);
    for (int n = 0; n < 5; n++) {   /* static: the still, exactly */
        frame_of(1, n, p, &img, still, f);
        adapt_update(&a, s, f);
        memcpy(r, still, sizeof *r);
        adapt_result(s, p, r);
        CHECK(s->exact && memcmp(r, still, sizeof *r) == 0, "static frame %d changed", n);
        image_free(&img);
    }
    frame_of(20, 5, p, &img, still, f1);
    double k = 1 - exp(-1 / (24 * 0.1)), ln0 = s->ln_avg;
    tonemap_cpu_apply(&img, p, still, want);
    int n = 5;
    for (double left = 1; n < 200; n++) {
        f1->frame = n;
        adapt_update(&a, s, f1);
        left *= 1 - k;
        if (!s->exact)
            CHECK_NEAR((s->ln_avg - f1->ln_avg) / (ln0 - f1->ln_avg), left, 1e-9);
        CHECK_NEAR(s->rate, k, 1e-12);
        double sum = 0;
        for (int i = 0; i < s->bins; i++)
            sum += s->w[i];
        CHECK_NEAR(sum, 1.0, 1e-12);
        memcpy(r, still, sizeof *r);
        adapt_result(s, p, r);
        tonemap_cpu_apply(&img, p, r, out);
        if (s->exact)
            break;
        int brighter = 0;   /* the still of the dark frames, adapting: brighter */
        for (int i = 0; i < 64 * 48 * 3; i++)
            brighter += out[i] >= want[i];
        CHECK(brighter == 64 * 48 * 3, "frame %d: darker than the still", n);
    }
    CHECK(s->exact, "not exact after %d frames", n);
    CHECK(n - 5 < 17 * 2.4 + 2, "exact only after %d frames", n - 5);
    int ndiff = 0;
    for (int i = 0; i < 64 * 48 * 3; i++)
        ndiff += out[i] != want[i];
    CHECK(ndiff == 0, "the converged frame is not the still (%d values differ)", ndiff);
    image_free(&img);
    free(s), free(f), free(f1), free(still), free(r), free(out), free(want);
}

static void test_cut_and_human(const tonemap_params *p)
{
    adapt_state *s = malloc(sizeof *s);
    adapt_frame *lo = malloc(sizeof *lo), *hi = malloc(sizeof *hi);
    tonemap_result *r = malloc(sizeof *r);
    hdr_image img = {0};
    frame_of(1, 0, p, &img, r, lo);
    image_free(&img);
    frame_of(20, 1, p, &img, r, hi);
    image_free(&img);
    adapt_params cut = {HT_ADAPT_EXP, 10, 24, 4};   /* x20 = 4.3 stops: a cut */
    adapt_init(s);
    adapt_update(&cut, s, lo);
    adapt_update(&cut, s, hi);
    CHECK(s->exact && s->rate == 1, "a cut did not start afresh");
    adapt_params human = {HT_ADAPT_HUMAN, 0, 24, 0};
    adapt_init(s);
    adapt_update(&human, s, lo);
    double light = adapt_rate(&human, s, hi, 1 / 24.0);
    adapt_init(s);
    adapt_update(&human, s, hi);
    double dark = adapt_rate(&human, s, lo, 1 / 24.0);
    CHECK(light > 0.3 && dark < light / 10, "human: light %g, dark %g", light, dark);
    adapt_params none = {HT_ADAPT_NONE, 0, 24, 0};
    CHECK(adapt_rate(&none, s, lo, 1 / 24.0) == 1, "none adapts");
    free(s), free(lo), free(hi), free(r);
}

static void test_parse_and_files(const tonemap_params *p)
{
    adapt_params a = {0};
    char err[256];
    CHECK(adapt_parse("exp:0.5", &a, err, sizeof err) && a.mode == HT_ADAPT_EXP &&
              a.seconds == 0.5, "exp:0.5");
    CHECK(adapt_parse("human", &a, err, sizeof err) && a.mode == HT_ADAPT_HUMAN, "human");
    CHECK(adapt_parse("none", &a, err, sizeof err) && a.mode == HT_ADAPT_NONE, "none");
    const char *bad[] = {"exp:", "exp:0", "exp:-1", "exp:1x", "slow", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!adapt_parse(bad[i], &a, err, sizeof err), "'%s' accepted", bad[i]);

    char dir[] = "/tmp/test_adapt_XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    adapt_frame *f = malloc(sizeof *f), *g = malloc(sizeof *g);
    tonemap_result *r = malloc(sizeof *r);
    hdr_image img = {0};
    frame_of(3, 17, p, &img, r, f);
    image_free(&img);
    uint64_t fp = adapt_fingerprint(p);
    CHECK(adapt_frame_path(dir, 17, path, sizeof path) && strstr(path, "analysis.000000017"),
          "path %s", path);
    CHECK(adapt_frame_write(path, f, fp, err, sizeof err), "write: %s", err);
    memset(g, 0xff, sizeof *g);
    CHECK(adapt_frame_read(path, g, fp, err, sizeof err), "read: %s", err);
    CHECK(g->frame == 17 && g->valid && g->bins == f->bins && g->bw_min == f->bw_min &&
              g->bw_max == f->bw_max && g->ln_avg == f->ln_avg &&
              memcmp(g->f, f->f, sizeof(double) * f->bins) == 0,
          "the analysis did not round-trip");
    tonemap_params other = *p;
    other.ldmax = 200;
    CHECK(!adapt_frame_read(path, g, adapt_fingerprint(&other), err, sizeof err) &&
              strstr(err, "other"), "other options accepted: %s", err);
    unlink(path);
    CHECK(!adapt_frame_read(path, g, fp, err, sizeof err) && strstr(err, path),
          "missing file: %s", err);
    rmdir(dir);
    free(f), free(g), free(r);
}

int main(void)
{
    tonemap_params p;
    tonemap_params_default(&p);
    test_static_and_step(&p);
    test_cut_and_human(&p);
    test_parse_and_files(&p);
    return test_finish("test_adapt");
}
