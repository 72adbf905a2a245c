/* Images larger than one texture: pipeline_upload splits them into pieces of at most
 * GL_MAX_TEXTURE_SIZE, the analysis reads every piece into one tile grid, the apply pass runs
 * per piece, the viewer's scene pass draws every piece.
 *
 *  - Ordinary images split into small pieces (pipeline_set_max_piece) against the same images
 *    in one texture: with pixel sampling the frame (histogram, range, curve, everything) and
 *    the pixels are identical, bit for bit (tiles never span pieces and keep their numbers);
 *    with foveal sampling the foveal boxes that straddle pieces are summed in another order,
 *    so COMPARE_TOL_FOVEAL (compare.h) applies, against the CPU reference too.
 *  - The viewer: pass_scene_run_image of the pieces against pass_scene_run of one texture
 *    (target values, and the tone-mapped window with the whole-image analysis).
 *  - A synthetic 20000x700 image (two pieces on llvmpipe, whose limit is 16384) against the
 *    CPU reference with COMPARE_TOL_PIXELS (compare.h), and drawn zoomed out. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "gpucpu.h"
#include "pass_scene.h"
#include "pipeline.h"
#include "synthetic.h"
#include "testutil.h"

static pipeline *whole, *split;   /* the GL limit; pieces of at most PIECE */
static pass_scene *scene_a, *scene_b;
enum { PIECE = 64 };

static int expected_pieces(int w, int h, int side)
{
    return ((w + side - 1) / side) * ((h + side - 1) / side);
}

/* Offset of the first differing byte of two frames, named by field where it is one of those
 * listed, or -1. */
static long frame_diff(const tonemap_result *a, const tonemap_result *b, const char **field)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (size_t i = 0; i < sizeof *a; i++)
        if (x[i] != y[i]) {
#define HT_FIELD_AT_(type, name, dims)                                                         \
    if (i - offsetof(ht_frame, name) < sizeof a->name) /* unsigned: wraps below */          \
        *field = #name;
            *field = "?";
            HT_FRAME_FIELDS(HT_FIELD_AT_)
#undef HT_FIELD_AT_
            return (long)i;
        }
    return -1;
}

/* GOT against REF (results and W x H RGB8 pixels) within COMPARE_TOL_FOVEAL (as in
 * test_pcond_gpu.c) but with the displayed curve (tonemap_curve_ld), not pcond's -x form. */
static void compare_tolerant(const char *label, const tonemap_params *p, const tonemap_result *ref,
                             const uint8_t *refrgb, const tonemap_result *got,
                             const uint8_t *gotrgb, int w, int h)
{
    compare_tol t = COMPARE_TOL_FOVEAL;
    t.curve_pcond = false;
    check_tonemap(label, p, got, gotrgb, ref, refrgb, w, h, &t);
}

/* CHECKs that the RGB8 outputs A and B of W x H pixels are identical. */
static void check_same_rgb(const char *label, const uint8_t *a, const uint8_t *b, int w, int h)
{
    static const compare_tol exact;   /* no value may differ */
    compare_rgb_report r;
    compare_rgb8(a, b, w, h, &exact, &r);
    CHECK(r.ok, "%s: %zu of %zu output values differ, worst by %d at (%d,%d) channel %d", label,
          r.over_max, r.n_values, r.worst, r.worst_x, r.worst_y, r.worst_c);
}

/* IMG through the whole and the split pipeline: identical with pixel sampling (EXACT; the one
 * texture then against the CPU reference with COMPARE_TOL_PIXELS), else within
 * COMPARE_TOL_FOVEAL, and the split one against the CPU reference with it. */
static void compare_split(const char *label, const hdr_image *img, const tonemap_params *p,
                          bool exact)
{
    char err[HT_ERR_MAX];
    size_t n = (size_t)img->width * img->height;
    tonemap_result *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b), *c = calloc(1, sizeof *c);
    uint8_t *argb = malloc(n * 3), *brgb = malloc(n * 3), *crgb = malloc(n * 3);
    if (!a || !b || !c || !argb || !brgb || !crgb)
        abort();
    bool ok = pipeline_tonemap_image(whole, img, p, a, argb, err, sizeof err);
    CHECK(ok, "%s: whole: %s", label, err);
    ok = ok && pipeline_tonemap_image(split, img, p, b, brgb, err, sizeof err);
    CHECK(ok, "%s: split: %s", label, err);
    int pieces = expected_pieces(img->width, img->height, PIECE);
    CHECK(pipeline_image_pieces(whole) == 1 && pipeline_image_pieces(split) == pieces,
          "%s: pieces %d and %d (expected 1 and %d)", label, pipeline_image_pieces(whole),
          pipeline_image_pieces(split), pieces);
    if (ok && exact) {
        const char *field = "";
        long at = frame_diff(a, b, &field);
        CHECK(at < 0, "%s: frames differ at byte %ld (%s)", label, at, field);
        check_same_rgb(label, argb, brgb, img->width, img->height);
        /* What the viewer's whole-image adaptation runs: the analysis of the image source. */
        char ferr[HT_ERR_MAX];
        CHECK(pipeline_frame(split, pipeline_image_source(split), pipeline_image_source(split),
                             p, ferr, sizeof ferr), "%s: %s", label, ferr);
        pipeline_read_result(split, c);
        c->rebinned = a->rebinned;   /* the binning is the previous run's now */
        at = frame_diff(a, c, &field);
        CHECK(at < 0, "%s: the analysis of the image source differs at byte %ld (%s)", label, at,
              field);
    } else if (ok) {
        char what[200];
        snprintf(what, sizeof what, "%s (split vs one texture)", label);
        compare_tolerant(what, p, a, argb, b, brgb, img->width, img->height);
    }
    if (ok && exact) {
        compare_backends(label, img, p, NULL, NULL);   /* one texture vs CPU */
    } else if (ok) {
        tonemap_cpu_analyze(img, p, c);
        tonemap_cpu_apply(img, p, c, crgb);
        char what[200];
        snprintf(what, sizeof what, "%s (split vs CPU)", label);
        compare_tolerant(what, p, c, crgb, b, brgb, img->width, img->height);
    }
    free(a), free(b), free(c), free(argb), free(brgb), free(crgb);
}

/* The scene target (samples 1, RGBA float) read back: W*H*4 floats, bottom row first. */
static float *read_target(ht_source t)
{
    float *v = malloc(sizeof *v * 4 * (size_t)t.width * t.height);
    if (!v)
        abort();
    glBindTexture(GL_TEXTURE_2D, t.texture);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, v);
    return v;
}

/* The viewer's frame on IMG uploaded to both pipelines (already done): the scene drawn from
 * one texture and from the pieces, then tone-mapped with the whole image's analysis. The
 * targets must hold the same values (samples 1) and the windows the same pixels. */
static void compare_scene(const char *label, const hdr_image *img, int tw, int th,
                          scene_view view, int samples, const tonemap_params *p)
{
    bool f32 = !img->half_exact;
    ht_source sa =
        pass_scene_run(scene_a, pipeline_image_source(whole), f32, tw, th, samples, view);
    ht_source sb = pass_scene_run_image(scene_b, split, f32, tw, th, samples, view);
    if (samples == 1) {
        float *va = read_target(sa), *vb = read_target(sb);
        size_t diff = 0, nonzero = 0;
        for (size_t k = 0; k < 4 * (size_t)tw * th; k++) {
            diff += memcmp(&va[k], &vb[k], sizeof *va) != 0;
            nonzero += va[k] != 0;
        }
        CHECK(diff == 0 && nonzero > 0, "%s: %zu of %zu target values differ (%zu non-zero)",
              label, diff, 4 * (size_t)tw * th, nonzero);
        free(va);
        free(vb);
    }
    size_t n = (size_t)tw * th;
    uint8_t *ra = malloc(n * 3), *rb = malloc(n * 3);
    if (!ra || !rb)
        abort();
    char ferr[HT_ERR_MAX];
    CHECK(pipeline_frame(whole, pipeline_image_source(whole), sa, p, ferr, sizeof ferr), "%s",
          ferr);
    pipeline_read_rgb(whole, ra);
    CHECK(pipeline_frame(split, pipeline_image_source(split), sb, p, ferr, sizeof ferr), "%s",
          ferr);
    pipeline_read_rgb(split, rb);
    char what[200];
    snprintf(what, sizeof what, "%s (window, %d samples)", label, samples);
    check_same_rgb(what, ra, rb, tw, th);
    free(ra);
    free(rb);
}

static void split_tests(void)
{
    tonemap_params p;
    hdr_image img;
    char err[HT_ERR_MAX];

    /* 300x200 at 64: 5x4 pieces, the last column 44 wide, the last row 8 high. */
    test_make_image(&img, 300, 200, test_scene_random);
    tonemap_params_default(&p);
    compare_split("random default", &img, &p, true);
    p.ceiling = HT_CEILING_NONE;
    compare_split("random ceiling none", &img, &p, true);
    tonemap_params_default(&p);
    p.lmin = 0.1;
    p.lmax = 500;
    p.bins = HT_MAX_BINS;
    compare_split("random user range, 1024 bins", &img, &p, true);
    tonemap_params_default(&p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    compare_split("random pcond preset (foveal, points)", &img, &p, false);
    image_free(&img);

    /* 130x65: pieces 2 wide and 1 high at the edges. */
    test_make_image(&img, 130, 65, test_scene_lamp);
    tonemap_params_default(&p);
    compare_split("lamp 130x65", &img, &p, true);
    p.ceiling = HT_CEILING_HUMAN;
    compare_split("lamp 130x65 human ceiling", &img, &p, true);
    tonemap_params_default(&p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    compare_split("lamp 130x65 pcond preset", &img, &p, false);
    image_free(&img);

    /* The viewer on a half image of 5x4 pieces (RGBA16F pieces, RGBA16F target). */
    if (!synthetic_image(&img, 300, 200, 5))
        abort();
    tonemap_params_default(&p);
    bool ok = pipeline_upload(whole, &img, err, sizeof err) &&
              pipeline_upload(split, &img, err, sizeof err);
    CHECK(ok, "upload: %s", err);
    if (ok) {
        const struct { const char *label; scene_view v; } views[] = {
            {"scene 1:1 panned", {3, 5, 1}},
            {"scene zoomed out", {-20.25, 7.5, 0.37}},
            {"scene fit", {0, 12.5, 2.0 / 3}},
            {"scene zoomed in", {-101.5, -40.25, 2.5}},
        };
        for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
            compare_scene(views[i].label, &img, 200, 150, views[i].v, 1, &p);
            int ms = pass_scene_samples(scene_a, 4, !img.half_exact);
            char what[100];
            snprintf(what, sizeof what, "%s, MSAA", views[i].label);
            compare_scene(what, &img, 200, 150, views[i].v, ms, &p);
        }
    }
    image_free(&img);
}

/* 20000x700 with the GL limit (16384 on llvmpipe: two pieces), against the CPU reference. */
static void large_test(void)
{
    GLint limit = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &limit);
    const int w = 20000, h = 700;
    hdr_image img;
    if (!synthetic_image(&img, w, h, 20000))
        abort();
    tonemap_params p;
    tonemap_params_default(&p);
    tonemap_result *g = calloc(1, sizeof *g), *c = calloc(1, sizeof *c);
    if (!g || !c)
        abort();
    compare_backends("20000x700", &img, &p, g, c);
    CHECK_EQ(g->n_total, (unsigned)w * h);

    /* The viewer: uploaded into pieces, drawn zoomed out to 1000x35 (one texel per target
     * pixel at zoom 1/20, the pixel centres on texel centres 20 i + 10.5), analysed as a
     * whole. */
    char err[HT_ERR_MAX];
    bool ok = pipeline_upload(whole, &img, err, sizeof err);
    CHECK(ok, "20000x700 upload: %s", err);
    int pieces = pipeline_image_pieces(whole);
    int expect = expected_pieces(w, h, (int)limit - (int)limit % HT_TILE_X);
    CHECK_EQ(pieces, expect);
    printf("20000x700: GL_MAX_TEXTURE_SIZE %d, %d piece(s)\n", (int)limit, pieces);
    if (ok) {
        ht_source t = pass_scene_run_image(scene_a, whole, false, w / 20, h / 20, 1,
                                           (scene_view){-0.025, -0.025, 1.0 / 20});
        float *v = read_target(t);
        size_t diff = 0;
        for (int j = 0; j < h / 20; j++)
            for (int i = 0; i < w / 20; i++) {
                /* Target row 0 is the bottom one. */
                const float *tv = v + 4 * ((size_t)(h / 20 - 1 - j) * (w / 20) + i);
                const float *iv = img.rgba + 4 * ((size_t)(20 * j + 10) * w + 20 * i + 10);
                diff += memcmp(tv, iv, 3 * sizeof *tv) != 0;
            }
        CHECK(diff == 0, "20000x700 zoomed out: %zu of %d target pixels are not their texel", diff,
              (w / 20) * (h / 20));
        free(v);
        tonemap_result *r = calloc(1, sizeof *r);
        if (!r)
            abort();
        int ms = pass_scene_samples(scene_a, 4, false);
        t = pass_scene_run_image(scene_a, whole, false, 800, 600, ms, (scene_view){0, 286, 0.04});
        char ferr[HT_ERR_MAX];
        CHECK(pipeline_frame(whole, pipeline_image_source(whole), t, &p, ferr, sizeof ferr),
              "%s", ferr);
        pipeline_read_result(whole, r);
        /* Left from earlier runs of the pipeline: the binning, and the point-sample counts
         * (unused with pixel sampling; foveal runs above filled them). */
        r->rebinned = g->rebinned;
        memcpy(r->pt_hist, g->pt_hist, sizeof r->pt_hist);
        const char *field = "";
        long at = frame_diff(g, r, &field);
        CHECK(at < 0, "20000x700: the viewer's whole-image analysis differs at byte %ld (%s)", at,
              field);
        free(r);
    }
    pipeline_release_textures(whole);
    free(g);
    free(c);
    image_free(&img);
}

int main(void)
{
    test_scene_seed = 777;
    test_lamp_x = 90.0f;
    test_lamp_y = 40.0f;
    test_require_gl();
    char err[HT_ERR_MAX];
    if (!(whole = pipeline_create(err, sizeof err)) ||
        !(split = pipeline_create(err, sizeof err)) ||
        !(scene_a = pass_scene_create(err, sizeof err)) ||
        !(scene_b = pass_scene_create(err, sizeof err))) {
        CHECK(0, "create: %s", err);
        return test_finish("test_large_image");
    }
    pipeline_set_max_piece(split, PIECE);
    split_tests();
    pipeline_release_textures(split);
    large_test();
    pass_scene_destroy(&scene_a);
    pass_scene_destroy(&scene_b);
    pipeline_destroy(&split);
    pipeline_destroy(&whole);
    return test_finish("test_large_image");
}
