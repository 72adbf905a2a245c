/* Tiny images whose range, histogram, mapping and output can be worked out by hand (the
 * expected values below are derived in the comments, not taken from the code). Each case is
 * checked on the CPU reference and, when a GL context exists, on the GPU. */
#include <math.h>
#include <string.h>

#include "gl_context.h"
#include "gpucpu.h"
#include "testutil.h"

static bool have_gl;
static float level_a, level_b;   /* two grey levels for two_level() */

static void two_level(int x, int y, float rgb[3])
{
    float l = ((x + y) % 2) ? level_b : level_a;
    rgb[0] = rgb[1] = rgb[2] = l;   /* grey: Y = l (weights sum to 1) */
}

static void analyse(const char *label, const hdr_image *img, const tonemap_params *p,
                    tonemap_result *r, uint8_t *rgb)
{
    tonemap_cpu_analyze(img, p, r);
    tonemap_cpu_apply(img, p, r, rgb);
    if (have_gl)
        compare_backends(label, img, p, NULL, NULL);
}

/* Cases 1-3: two grey levels. */
static void two_level_cases(void)
{
    tonemap_params p;
    tonemap_result r;
    uint8_t rgb[3 * 100];
    hdr_image img;

    /* 1. Two levels 0.01 and 100 cd/m^2, 10x10, 50 pixels each, 100 bins.
     *    bwmax = ln(1.01*100) = ln 101; bwmin = ln101 - (ln101 - ln 0.01)*100/99, widened.
     *    Range 9.30 > ln 100 = 4.61: the ceiling loop runs. After the half-bin move the
     *    histogram is 25 | 25 | ... | 50 (3 bins) with T = 100 and the ceiling
     *    T*db/ln(100) = 100*0.0930/4.605 = 2.02: everything above is cut (trimmings 93.9 >
     *    2.5), then T = 6.06, ceiling 0.1224, T = 0.367 <= 2.5 = 0.025*T0: it gives up ->
     *    linear. Lwa = exp((ln 0.01 + ln 100)/2) = 1, scale = sqrt(1*100)/1 = 10.
     *    Output: 100 -> 100*10/100 = 10, clipped: 255. 0.01 -> 0.001 -> sRGB 12.92*0.001 =
     *    0.01292 -> 3.29 -> 3. */
    level_a = 0.01f;
    level_b = 100.0f;
    test_make_image(&img, 10, 10, two_level);
    tonemap_params_default(&p);
    analyse("two levels", &img, &p, &r, rgb);
    CHECK_EQ(r.n_valid, 100);
    CHECK_EQ(r.n_counted, 100);
    CHECK_EQ(r.widened, 1);
    CHECK_NEAR(r.bw_max, log(101.0), 1e-6);
    CHECK_NEAR(r.bw_min, log(101.0) - (log(101.0) - log(0.01)) * 100 / 99, 1e-5);
    CHECK_EQ(r.hist[1], 50);
    CHECK_EQ(r.hist[99], 50);
    CHECK_EQ(r.mapping, HT_MAP_LINEAR_GAVE_UP);
    CHECK_EQ(r.iterations, 2);
    CHECK_NEAR(r.ln_avg, 0.0, 1e-6);
    CHECK_NEAR(r.linear_scale, 10.0, 1e-4);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(rgb[k], 3);       /* (0,0): a */
        CHECK_EQ(rgb[3 + k], 255); /* (1,0): b */
    }
    image_free(&img);

    /* 2. A scene that fits the display: levels 1 and 50. bwmax = ln 50.5 = 3.922,
     *    bwmin = 3.922 - 3.922*100/99 = -0.0396: range 3.962 <= ln 100 -> linear.
     *    Lwa = sqrt(50) = 7.071, scale = 10/7.071 = 1.41421. Pixel 1: 1*1.41421/100 =
     *    0.0141421 -> sRGB 1.055*0.0141421^(1/2.4)-0.055 = 1.055*0.16955-0.055 = 0.12388
     *    -> 31.59 -> 32. Pixel 50: 0.70711 -> 1.055*0.86554-0.055 = 0.85814 -> 218.8 -> 219. */
    level_a = 1.0f;
    level_b = 50.0f;
    test_make_image(&img, 10, 10, two_level);
    analyse("fits display", &img, &p, &r, rgb);
    CHECK_EQ(r.mapping, HT_MAP_LINEAR_FITS);
    CHECK_NEAR(r.linear_scale, 10.0 / sqrt(50.0), 1e-5);
    CHECK_EQ(rgb[0], 32);
    CHECK_EQ(rgb[3], 219);
    /* The same with gamma 2.2: 0.0141421^(1/2.2) = 0.14466 -> 36.9 -> 37. */
    p.transfer = HT_TRANSFER_GAMMA;
    p.gamma = 2.2;
    analyse("fits display, gamma", &img, &p, &r, rgb);
    CHECK_EQ(rgb[0], 37);
    image_free(&img);

    /* 3. User range 1..1000 with levels 0.5 and 2000: both outside, nothing counted; the
     *    empty histogram gives a straight log-log line; 0.5 is below the range -> Ld = Ldmin
     *    -> black; 2000 is above -> Ld = Ldmax -> (100-1)/(99*2000) * 2000 = 1 -> 255. */
    level_a = 0.5f;
    level_b = 2000.0f;
    test_make_image(&img, 10, 10, two_level);
    tonemap_params_default(&p);
    p.lmin = 1;
    p.lmax = 1000;
    analyse("user range outside", &img, &p, &r, rgb);
    CHECK_EQ(r.n_counted, 0);
    CHECK_EQ(r.widened, 0);
    CHECK_NEAR(r.bw_min, 0.0, 1e-7);
    CHECK_NEAR(r.bw_max, log(1000.0), 1e-6);
    CHECK_EQ(rgb[0], 0);
    CHECK_EQ(rgb[3], 255);
    /* Ld at the middle of the range: cumf is linear, so ln Ld = ln 1 + ln 100 * 0.5 -> 10. */
    CHECK_NEAR(tonemap_curve_ld(&r, &p, sqrt(1000.0)), 10.0, 1e-4);
    image_free(&img);
}

/* Cases 4-5: pixels that are not counted. */
static void bad_pixel_cases(void)
{
    tonemap_params p;
    tonemap_result r;
    uint8_t rgb[3 * 100];
    hdr_image img;

    /* 4. A 2x2 with one NaN, one zero, one negative-luminance and one valid pixel: only the
     *    valid one counts; the others come out black. */
    test_make_image(&img, 2, 2, two_level);
    float bad[4][3] = {{NAN, 1, 1}, {0, 0, 0}, {-5, 0.1f, 0.1f}, {2, 2, 2}};
    for (int k = 0; k < 4; k++)
        memcpy(img.rgba + 4 * k, bad[k], sizeof bad[k]);
    tonemap_params_default(&p);
    analyse("2x2 bad pixels", &img, &p, &r, rgb);
    CHECK_EQ(r.n_total, 4);
    CHECK_EQ(r.n_valid, 1);
    CHECK_EQ(r.n_nonfinite, 1);
    CHECK_EQ(r.n_nonpositive, 2);
    CHECK_EQ(r.mapping, HT_MAP_LINEAR_FITS);
    /* The single valid pixel is the log-average: Ld = 10, out = 2*10/2/100 = 0.1 ->
     *    sRGB 0.3492 -> 89.05 -> 89. */
    CHECK_EQ(rgb[0], 0);
    CHECK_EQ(rgb[3], 0);
    CHECK_EQ(rgb[6], 0);
    CHECK_EQ(rgb[9], 89);
    image_free(&img);

    /* 5. All NaN: no mapping, all black. */
    test_make_image(&img, 3, 3, two_level);
    for (int k = 0; k < 9; k++)
        img.rgba[4 * k] = NAN;
    analyse("all NaN", &img, &p, &r, rgb);
    CHECK_EQ(r.mapping, HT_MAP_NONE);
    CHECK_EQ(r.n_nonfinite, 9);
    for (int k = 0; k < 27; k++)
        CHECK(rgb[k] == 0, "value %d at %d", rgb[k], k);
    image_free(&img);
}

/* Case 6: a log-uniform ramp. */
static void ramp_case(void)
{
    tonemap_params p;
    tonemap_result r;
    hdr_image img;
    memset(&img, 0, sizeof img);
    tonemap_params_default(&p);

    /* 6. A ramp, ln L uniform over ln 1e-2..ln 1e4 (one pixel per step): the histogram is
     *    flat, every bin holds ~1 % of T, under the ceiling T*db/ln 100 = 3 % of T, so
     *    nothing is cut and the curve is the straight line ln Ld = ln Ldmin + ln(100) * P,
     *    P = (b - bwmin)/(bwmax - bwmin), to within the bin quantisation (~1 %). */
    int w = 5000;
    img.width = w;
    img.height = 1;
    img.rgba = malloc(sizeof(float) * 4 * w);
    for (int x = 0; x < w; x++) {
        float l = (float)exp(log(1e-2) + (log(1e4) - log(1e-2)) * (x + 0.5) / w);
        img.rgba[4 * x] = img.rgba[4 * x + 1] = img.rgba[4 * x + 2] = l;
        img.rgba[4 * x + 3] = 1;
    }
    uint8_t *ramp = malloc(3 * (size_t)w);
    tonemap_cpu_analyze(&img, &p, &r);
    tonemap_cpu_apply(&img, &p, &r, ramp);
    if (have_gl)
        compare_backends("ramp", &img, &p, NULL, NULL);
    CHECK_EQ(r.mapping, HT_MAP_HISTOGRAM);
    CHECK_EQ(r.iterations, 1);
    double worst = 0;
    for (int i = 1; i < 100; i++) {
        double b = r.bw_min + (i + 0.5) * (r.bw_max - r.bw_min) / 100;
        double expect = log(100.0) * (b - log(1e-2)) / (log(1.01e4) - log(1e-2));
        worst = fmax(worst, fabs(log(tonemap_curve_ld(&r, &p, exp(b))) - expect));
    }
    CHECK(worst < 0.03 * log(100.0), "ramp curve off the line by %g (ln)", worst);
    for (int x = 1; x < w; x++)
        CHECK(ramp[3 * x] >= ramp[3 * (x - 1)], "ramp output not monotonic at %d", x);
    free(ramp);
    image_free(&img);
}

int main(void)
{
    have_gl = getenv("HT_NO_GL") == NULL;
    if (have_gl) {
        /* Not test_require_gl: without GL the CPU half must still run. */
        char err[HT_ERR_MAX];
        have_gl = gl_context_create_headless(err, sizeof err) != NULL;
        if (!have_gl)
            printf("note: no headless GL (%s): CPU reference only\n", err);
    }
    two_level_cases();
    bad_pixel_cases();
    ramp_case();
    return test_finish("test_known_answers");
}
