/* Image statistics: the GPU against the CPU reference (exact: positions, values, counts) on
 * random images of awkward sizes; ties; float-rounding near-ties; all-NaN and all-zero
 * images; peaks on synthetic markers; the three grey-histogram strategies. */
#include <math.h>
#include <string.h>

#include "imgstats_gpu.h"
#include "pipeline.h"
#include "testutil.h"

static const double REC709_W[3] = {HT_LUM_R, HT_LUM_G, HT_LUM_B};
static unsigned seed = 4242;
static pipeline *pipe;
static imgstats_gpu_ctx *ctx;

static void check_pixel(const char *label, const char *what, const imgstats_pixel *g,
                        const imgstats_pixel *c)
{
    CHECK(g->valid == c->valid, "%s: %s valid gpu %d cpu %d", label, what, g->valid, c->valid);
    if (!g->valid || !c->valid)
        return;
    CHECK(g->x == c->x && g->y == c->y && g->abs_x == c->abs_x && g->abs_y == c->abs_y,
          "%s: %s at (%d,%d) abs (%d,%d) on the GPU, (%d,%d) abs (%d,%d) on the CPU", label, what,
          g->x, g->y, g->abs_x, g->abs_y, c->x, c->y, c->abs_x, c->abs_y);
    CHECK(g->luminance == c->luminance && memcmp(g->rgb, c->rgb, sizeof g->rgb) == 0,
          "%s: %s Y %.17g vs %.17g", label, what, g->luminance, c->luminance);
}

static void check_same(const char *label, const imgstats *g, const imgstats *c)
{
    check_pixel(label, "brightest", &g->brightest, &c->brightest);
    check_pixel(label, "darkest", &g->darkest, &c->darkest);
    CHECK(g->peaks_asked == c->peaks_asked && g->n_peaks == c->n_peaks,
          "%s: %d of %d peaks on the GPU, %d of %d on the CPU", label, g->n_peaks,
          g->peaks_asked, c->n_peaks, c->peaks_asked);
    for (int i = 0; i < g->n_peaks && i < c->n_peaks; i++) {
        char what[32];
        snprintf(what, sizeof what, "peak %d", i);
        check_pixel(label, what, &g->peaks[i], &c->peaks[i]);
    }
    CHECK(g->have_hist && c->have_hist, "%s: histograms missing", label);
    CHECK(memcmp(g->rgba_hist, c->rgba_hist, sizeof g->rgba_hist) == 0,
          "%s: RGBA histograms differ", label);
    CHECK(memcmp(g->grey_hist, c->grey_hist, sizeof g->grey_hist) == 0,
          "%s: grey histograms differ", label);
}

/* Tone-maps IMG on the GPU, then the statistics with every grey strategy against the CPU
 * reference of the GPU's own output pixels. The CPU answer goes to *cpu (may be NULL). */
static void compare(const char *label, const hdr_image *img, int peaks, int min_distance,
                    imgstats *cpu_out)
{
    char err[HT_ERR_MAX];
    tonemap_params tp;
    tonemap_params_default(&tp);
    uint8_t *rgb = malloc((size_t)img->width * img->height * 3);
    if (!rgb)
        abort();
    if (!pipeline_tonemap_image(pipe, img, &tp, NULL, rgb, err, sizeof err)) {
        CHECK(false, "%s: tone mapping: %s", label, err);
        free(rgb);
        return;
    }
    imgstats cpu;
    CHECK(imgstats_cpu(img, rgb, peaks, min_distance, &cpu), "%s: CPU out of memory", label);
    ht_source src = pipeline_image_source(pipe);
    ht_source out = {pipeline_output_texture(pipe), src.width, src.height, 1};
    CHECK(imgstats_gpu_prepare(ctx, src, out, err, sizeof err), "%s: %s", label, err);
    const int kernels[] = {HT_GREY_GLOBAL, HT_GREY_SHARED, HT_GREY_PRIVATE};
    for (int k = 0; k < 3; k++) {
        imgstats gpu;
        char l[128];
        snprintf(l, sizeof l, "%s [grey kernel %d]", label, kernels[k]);
        if (!imgstats_gpu_run(ctx, img, kernels[k], peaks, min_distance, &gpu, err, sizeof err)) {
            CHECK(false, "%s: %s", l, err);
            continue;
        }
        check_same(l, &gpu, &cpu);
        imgstats_free(&gpu);
    }
    free(rgb);
    if (cpu_out)
        *cpu_out = cpu;
    else
        imgstats_free(&cpu);
}

/* Log-uniform luminance with varied colours and a few NaN, Inf, zero and negative pixels. */
static void random_scene(int x, int y, float rgb[3])
{
    (void)x, (void)y;
    float l = powf(10.0f, -3.0f + 7.0f * test_rand(&seed));
    for (int c = 0; c < 3; c++)
        rgb[c] = l * (0.2f + 1.6f * test_rand(&seed));
    float u = test_rand(&seed);
    if (u < 0.01f)
        rgb[0] = NAN;
    else if (u < 0.02f)
        rgb[1] = -INFINITY;
    else if (u < 0.03f)
        rgb[0] = rgb[1] = rgb[2] = 0.0f;
    else if (u < 0.04f)
        rgb[2] = -rgb[2] * 20.0f;
}

/* Few distinct values: many exact ties of the maximum and the minimum. */
static void coarse_scene(int x, int y, float rgb[3])
{
    (void)x, (void)y;
    float v = (float)(int)(test_rand(&seed) * 4.0f);
    rgb[0] = rgb[1] = rgb[2] = v;
}

static void nan_scene(int x, int y, float rgb[3])
{
    (void)x, (void)y;
    rgb[0] = rgb[1] = rgb[2] = NAN;
}

static void zero_scene(int x, int y, float rgb[3])
{
    (void)x, (void)y;
    rgb[0] = rgb[1] = rgb[2] = 0.0f;
}

/* Grey 1 with four equal maxima (value 5) and four equal minima (0.25). */
static const int tie_max[4][2] = {{40, 9}, {7, 20}, {33, 20}, {3, 30}};   /* first: (40,9) */
static const int tie_min[4][2] = {{50, 2}, {2, 3}, {60, 40}, {1, 41}};   /* first: (50,2) */
/* Returns from the loop: GCC 12.2 -O2 vectorises the form "v = 5; ... v = 0.25;" over both
 * tables wrongly and loses the maxima. */
static float tie_value(int x, int y)
{
    for (int i = 0; i < 4; i++) {
        if (x == tie_max[i][0] && y == tie_max[i][1])
            return 5.0f;
        if (x == tie_min[i][0] && y == tie_min[i][1])
            return 0.25f;
    }
    return 1.0f;
}

static void tie_scene(int x, int y, float rgb[3])
{
    rgb[0] = rgb[1] = rgb[2] = tie_value(x, y);
}

/* Two colours whose order by Y_f and by double Y disagree, found by a search. */
static float near_a[3], near_b[3];
static bool find_near_tie(void)
{
    unsigned s = 99;
    for (int tries = 0; tries < 1000000; tries++) {
        float a[3], b[3];
        for (int c = 0; c < 3; c++) {
            a[c] = 1.0f + test_rand(&s);
            b[c] = a[c];
        }
        for (int c = 0; c < 3; c++)
            b[c] = nextafterf(b[c], test_rand(&s) < 0.5f ? 0.0f : 4.0f);
        /* B brighter in double, but not in float. */
        if (imgstats_luminance(REC709_W, b) > imgstats_luminance(REC709_W, a) &&
            imgstats_luminance_f(REC709_W, b) <= imgstats_luminance_f(REC709_W, a)) {
            memcpy(near_a, a, sizeof a);
            memcpy(near_b, b, sizeof b);
            return true;
        }
    }
    return false;
}

/* Dim grey with A first and B later: the float keys point at A, the answer is B. The darkest
 * side gets the mirror case. */
static void near_tie_scene(int x, int y, float rgb[3])
{
    for (int c = 0; c < 3; c++)
        rgb[c] = 0.5f;
    if (x == 5 && y == 3)
        memcpy(rgb, near_a, 3 * sizeof *rgb);
    if (x == 100 && y == 90)   /* another tile */
        memcpy(rgb, near_b, 3 * sizeof *rgb);
}

/* Markers: Gaussian blobs (sigma 1.5) of known centres and heights on low noise. */
static const struct { int x, y; float h; } blobs[] = {
    {20, 30, 40.0f}, {100, 15, 90.0f}, {60, 60, 20.0f}, {150, 70, 60.0f}, {5, 75, 70.0f},
    {66, 64, 10.0f},   /* within 8 px of (60,60): suppressed at min distance 8 */
};
enum { NBLOBS = sizeof blobs / sizeof blobs[0] };
static void blob_scene(int x, int y, float rgb[3])
{
    float v = 0.1f + 0.05f * test_rand(&seed);
    for (int i = 0; i < NBLOBS; i++) {
        float dx = (float)(x - blobs[i].x), dy = (float)(y - blobs[i].y);
        v += blobs[i].h * expf(-(dx * dx + dy * dy) / (2.0f * 1.5f * 1.5f));
    }
    rgb[0] = v * 1.1f;
    rgb[1] = v;
    rgb[2] = v * 0.8f;
}

static void check_at(const char *label, const imgstats_pixel *p, int x, int y)
{
    CHECK(p->valid && p->x == x && p->y == y, "%s: (%d,%d) valid %d, expected (%d,%d)", label,
          p->x, p->y, p->valid, x, y);
}

int main(void)
{
    test_require_gl();
    char err[HT_ERR_MAX];
    if (!(pipe = pipeline_create(err, sizeof err)) ||
        !(ctx = imgstats_gpu_create(err, sizeof err))) {
        fprintf(stderr, "GPU setup: %s\n", err);
        return 1;
    }
    hdr_image img;
    imgstats cpu;

    /* Awkward sizes: partial tiles and groups, one row or column of tiles. */
    const int sizes[][2] = {{1, 1}, {2, 2}, {257, 3}, {3, 257}, {131, 77}, {300, 200}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char label[64];
        snprintf(label, sizeof label, "random %dx%d", sizes[i][0], sizes[i][1]);
        test_make_image(&img, sizes[i][0], sizes[i][1], random_scene);
        compare(label, &img, 8, 3, NULL);
        image_free(&img);
    }
    test_make_image(&img, 190, 130, coarse_scene);
    compare("coarse (many ties)", &img, 5, 4, NULL);
    image_free(&img);

    /* Every local maximum (K = pixels, D 1), across tile borders and on plateaus of ties. */
    test_make_image(&img, 300, 200, random_scene);
    compare("random 300x200, every maximum", &img, 300 * 200, 1, NULL);
    image_free(&img);
    test_make_image(&img, 190, 130, coarse_scene);
    compare("coarse, every maximum", &img, 190 * 130, 1, NULL);
    image_free(&img);

    /* A data window off the origin: abs = rel + origin. */
    test_make_image(&img, 70, 50, tie_scene);
    img.data_window[0] = 19;
    img.data_window[1] = -34;
    compare("ties", &img, 0, 1, &cpu);
    check_at("ties: brightest = first maximum", &cpu.brightest, 40, 9);
    check_at("ties: darkest = first minimum", &cpu.darkest, 50, 2);
    CHECK_EQ(cpu.brightest.abs_x, 59);
    CHECK_EQ(cpu.brightest.abs_y, -25);
    CHECK_EQ(cpu.brightest.luminance, imgstats_luminance(REC709_W, (float[3]){5, 5, 5}));
    imgstats_free(&cpu);
    image_free(&img);

    CHECK(find_near_tie(), "no near tie found");
    test_make_image(&img, 130, 100, near_tie_scene);
    compare("near tie", &img, 0, 1, &cpu);
    check_at("near tie: brightest by double Y", &cpu.brightest, 100, 90);
    imgstats_free(&cpu);
    image_free(&img);

    /* No pixel with Y > 0: no brightest, darkest or peaks; the output is black. */
    const struct { const char *name; void (*fn)(int, int, float *); } empty[] = {
        {"all NaN", nan_scene}, {"all zero", zero_scene}};
    for (int i = 0; i < 2; i++) {
        test_make_image(&img, 67, 45, empty[i].fn);
        compare(empty[i].name, &img, 3, 2, &cpu);
        uint32_t n = 67 * 45;
        CHECK(!cpu.brightest.valid && !cpu.darkest.valid && cpu.n_peaks == 0,
              "%s: found a pixel", empty[i].name);
        CHECK(cpu.rgba_hist[0][0] == n && cpu.rgba_hist[1][0] == n && cpu.rgba_hist[2][0] == n &&
                  cpu.rgba_hist[3][255] == n && cpu.grey_hist[0] == n,
              "%s: counts not all in bin 0 (alpha 255)", empty[i].name);
        imgstats_free(&cpu);
        image_free(&img);
    }

    /* Markers: the five separated blobs in height order; the sixth is within 8 px of a
     * higher one. */
    test_make_image(&img, 170, 90, blob_scene);
    compare("markers", &img, 5, 8, &cpu);
    const int order[] = {1, 4, 3, 0, 2};
    CHECK_EQ(cpu.n_peaks, 5);
    for (int i = 0; i < cpu.n_peaks && i < 5; i++)
        check_at("markers: peak", &cpu.peaks[i], blobs[order[i]].x, blobs[order[i]].y);
    imgstats_free(&cpu);
    /* With min distance 1 the sixth blob is a peak of its own, before the noise. */
    compare("markers, D 1", &img, 6, 1, &cpu);
    CHECK_EQ(cpu.n_peaks, 6);
    if (cpu.n_peaks == 6)
        check_at("markers D 1: sixth peak", &cpu.peaks[5], blobs[5].x, blobs[5].y);
    imgstats_free(&cpu);
    /* More peaks than markers: the rest are noise maxima, still identical on both sides. */
    compare("markers + noise", &img, 40, 4, NULL);
    image_free(&img);

    /* The file's own primaries: in CIE XYZ the luminance is G alone, so the brightest is
     * the pixel of the largest G, whatever R and B (Rec. 709's weights would pick another). */
    test_make_image(&img, 131, 77, random_scene);
    img.colour = (image_colour){{{1, 0}, {0, 1}, {0, 0}, {1.0 / 3, 1.0 / 3}}, {0, 0},
                                IMAGE_COLOUR_CHROMATICITIES, ""};
    size_t best = 0, n = (size_t)img.width * img.height;
    for (size_t k = 1; k < n; k++)
        if (img.rgba[4 * k + 1] > img.rgba[4 * best + 1])
            best = k;
    compare("XYZ primaries", &img, 8, 3, &cpu);
    check_at("XYZ: brightest by G", &cpu.brightest, (int)(best % 131), (int)(best / 131));
    CHECK_EQ(cpu.brightest.luminance, (double)img.rgba[4 * best + 1]);
    imgstats_free(&cpu);
    image_free(&img);

    imgstats_gpu_destroy(&ctx);
    pipeline_destroy(&pipe);
    return test_finish("test_imgstats");
}
