/* icc.h's two ways through a profile agree: 8- and 16-bit codes with more pixels than codes
 * take the per-channel tables of a matrix/TRC profile, the same codes as floats take lcms2's
 * pipeline on every pixel; their linear Rec. 709 values agree within float rounding (RGB with
 * alpha, grey with alpha, into 3 and 4 floats a pixel, the slot after B left as it was).
 * Hostile profiles (random bytes, a real one cut short, with 2^30 tags or every tag past its
 * end, a CMYK one, a grey one on RGB pixels) are refused with the path and "ICC profile" in
 * one line. The values themselves are checked against independent references by
 * tests/cli/test_ldr_colour.py. */
#include <lcms2.h>
#include <math.h>
#include <string.h>

#include "icc.h"
#include "testutil.h"

enum { MAXP = 1 << 16, MARK = -7 };

/* A profile made by lcms2 (P3-D65 with sRGB's curve, or grey with gamma 2.2) into BUF. */
static size_t make_profile(bool grey, uint8_t *buf)
{
    static const double srgb[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE prim = {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
    cmsToneCurve *c = grey ? cmsBuildGamma(NULL, 2.2) : cmsBuildParametricToneCurve(NULL, 4, srgb);
    cmsToneCurve *cs[3] = {c, c, c};
    cmsHPROFILE p = grey ? cmsCreateGrayProfile(&white, c) : cmsCreateRGBProfile(&white, &prim, cs);
    cmsUInt32Number n = 0;   /* its size first: with a buffer, n stays the buffer's */
    if (!p || !cmsSaveProfileToMem(p, NULL, &n) || n > MAXP || !cmsSaveProfileToMem(p, buf, &n))
        n = 0;
    cmsFreeToneCurve(c);
    cmsCloseProfile(p);
    return n;
}

/* COUNT pixels of CHANNELS codes (16-bit when WIDE) through PROFILE as integers and as floats:
 * equal within 2e-6 relative; OUT_CHANNELS' extra slot untouched. */
static void two_ways(const uint8_t *profile, size_t n, int channels, bool wide, size_t count,
                     int out_channels)
{
    size_t nv = count * (size_t)channels, no = count * (size_t)out_channels;
    uint16_t *codes = malloc(nv * sizeof *codes);
    uint8_t *codes8 = malloc(nv);
    float *f = malloc(nv * sizeof *f), *a = malloc(no * sizeof *a), *b = malloc(no * sizeof *b);
    srand(28);
    for (size_t i = 0; i < nv; i++) {
        codes[i] = (uint16_t)(wide ? rand() & 0xffff : rand() & 0xff);
        codes8[i] = (uint8_t)codes[i];
        f[i] = codes[i] / (wide ? 65535.0f : 255.0f);
    }
    for (size_t i = 0; i < no; i++)
        a[i] = b[i] = MARK;
    icc_pixels pi = {wide ? (void *)codes : (void *)codes8, wide ? ICC_U16 : ICC_U8, channels,
                     count, a, out_channels};
    icc_pixels pf = {f, ICC_F32, channels, count, b, out_channels};
    image_colour c1, c2;
    char err[HT_ERR_MAX];
    CHECK(icc_to_linear(profile, n, &pi, &c1, "ints", err, sizeof err), "%s", err);
    CHECK(icc_to_linear(profile, n, &pf, &c2, "floats", err, sizeof err), "%s", err);
    CHECK(c1.source == IMAGE_COLOUR_ICC && c2.source == IMAGE_COLOUR_ICC, "source %d %d",
          c1.source, c2.source);
    double worst = 0;
    bool marks = true;
    for (size_t i = 0; i < count; i++)
        for (int k = 0; k < out_channels; k++) {
            double x = a[i * (size_t)out_channels + (size_t)k];
            double y = b[i * (size_t)out_channels + (size_t)k];
            if (k == 3)
                marks = marks && x == MARK && y == MARK;
            else
                worst = fmax(worst, fabs(x - y) / fmax(1.0, fabs(y)));
        }
    CHECK(worst <= 2e-6, "%d channels, %s, %zu pixels: tables and lcms2 %.3g apart", channels,
          wide ? "16-bit" : "8-bit", count, worst);
    CHECK(marks, "the slot after B was written");
    free(codes);
    free(codes8);
    free(f);
    free(a);
    free(b);
}

/* PROFILE (N bytes) refused for 3-channel pixels with "path: the ICC profile" in one line. */
static void refused(const char *what, const uint8_t *profile, size_t n)
{
    uint8_t px[12] = {0, 1, 2, 3, 200, 255, 9, 8, 7, 128, 128, 128};
    float out[12];
    icc_pixels p = {px, ICC_U8, 3, 4, out, 3};
    image_colour c;
    char err[HT_ERR_MAX] = "";
    bool ok = icc_to_linear(profile, n, &p, &c, "x.png", err, sizeof err);
    CHECK(!ok && strncmp(err, "x.png: the ICC profile ", 23) == 0 && !strchr(err, '\n'),
          "%s: %s", what, ok ? "accepted" : err);
}

int main(void)
{
    static uint8_t rgb[MAXP], grey[MAXP], bad[MAXP];
    size_t nr = make_profile(false, rgb), ng = make_profile(true, grey);
    CHECK(nr > 0 && ng > 0, "lcms2 made no profiles");
    two_ways(rgb, nr, 3, false, 1000, 3);
    two_ways(rgb, nr, 4, false, 1000, 4);
    two_ways(rgb, nr, 3, true, 70000, 4);
    two_ways(grey, ng, 2, false, 1000, 4);
    two_ways(grey, ng, 1, true, 70000, 3);
    srand(5);
    for (size_t i = 0; i < 4000; i++)
        bad[i] = (uint8_t)rand();
    refused("random bytes", bad, 4000);
    refused("cut short", rgb, nr / 2);
    refused("too short", rgb, 100);
    memcpy(bad, rgb, nr);
    bad[128] = 0x7f;   /* the tag count */
    refused("2^30 tags", bad, nr);
    memcpy(bad, rgb, nr);
    memset(bad + 132, 0xee, nr - 132);   /* every tag's place and size past the end */
    refused("tags past the end", bad, nr);
    refused("grey on RGB", grey, ng);
    memcpy(bad, rgb, nr);
    memcpy(bad + 16, "CMYK", 4);
    refused("CMYK", bad, nr);
    return test_finish("test_icc");
}
