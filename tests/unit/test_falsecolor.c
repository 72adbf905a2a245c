/* False colour (display.c, falsecolor.c) against Radiance falsecolor's formulas written out
 * again here from its script's calc expressions (if(c,a,b) is "c > 0 ? a : b"), on synthetic
 * luminance ramps: linear and logarithmic scales, smooth, bands (-cb) and contour lines
 * (-cl); and the legend: its labels name the values of the strip's rows they stand at, in
 * falsecolor's text, drawn where they say. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "falsecolor.h"
#include "font.h"
#include "legend.h"
#include "testutil.h"

/* falsecolor.pl's pc0.cal, transcribed. */
static double cal_if(double c, double a, double b) { return c > 0 ? a : b; }
static double clip(double x) { return cal_if(x - 1, 1, cal_if(x, x, 0)); }
static double btwn(double a, double x, double b) { return cal_if(a - x, -1, b - x); }
static double neq(double a, double b) { return cal_if(a - b - 1e-7, 1, b - a - 1e-7); }
static double cal_or(double a, double b) { return cal_if(a, a, b); }
static double frac(double x) { return x - floor(x); }

/* def_red(x) etc.: interp_arr(x/0.0454545+1, f), f(0) the count, f(i) 1-based. */
static double def(int c, double x)
{
    double t = x / 0.0454545 + 1;
    if (!(t - 1 > 0))
        return falsecolor_palette[0][c];
    if (!(HT_FC_PALETTE_N - t > 0))
        return falsecolor_palette[HT_FC_PALETTE_N - 1][c];
    int i = (int)floor(t);
    return (i + 1 - t) * falsecolor_palette[i - 1][c] + (t - i) * falsecolor_palette[i][c];
}

/* ro, go, bo for scale position V, neighbours NB, N steps, STYLE. */
static void expected(int style, int n, double v, const double nb[4], double out[3])
{
    double in = 1, x = v;
    if (style != HT_FC_SMOOTH) {
        double inside = btwn(1.0 / n / 2, v, 1 + 1.0 / n / 2);
        double boundary_lr = neq(floor(n * nb[0]), floor(n * nb[1]));
        double boundary_ab = neq(floor(n * nb[2]), floor(n * nb[3]));
        in = style == HT_FC_BANDS ? cal_if(inside, -btwn(.1, frac(n * v), .9), -1)
                                  : cal_if(inside, cal_or(boundary_lr, boundary_ab), -1);
        x = (v - 1.0 / n) * n / (n - 1);
    }
    for (int c = 0; c < 3; c++)
        out[c] = cal_if(in, clip(def(c, x)), 0);
}

/* A W x 2 grey ramp (R = G = B, so Rec. 709 luminance = the value) from LO to HI, linear or
 * (LOG) geometric. */
static void ramp(hdr_image *img, int w, double lo, double hi, bool log_steps)
{
    memset(img, 0, sizeof *img);
    img->width = w;
    img->height = 2;
    img->rgba = malloc((size_t)w * 2 * 4 * sizeof(float));
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < w; x++) {
            double t = (double)x / (w - 1);
            float v = (float)(log_steps ? lo * pow(hi / lo, t) : lo + t * (hi - lo));
            float *p = img->rgba + 4 * ((size_t)y * w + x);
            p[0] = p[1] = p[2] = v;
            p[3] = 1;
        }
}

static void check_ramp(int style, int decades, double scale)
{
    hdr_image img;
    int w = 997;
    ramp(&img, w, decades ? 1e-5 * 100 : 0, 130, decades > 0);
    tonemap_params tm;
    tonemap_params_default(&tm);
    display_params d;
    display_params_default(&d);
    d.mode = HT_VIEW_FALSECOLOR;
    d.fc_max = 100;
    d.fc_decades = decades;
    d.fc_style = style;
    d.units_scale = scale;
    uint8_t *rgb = malloc((size_t)w * 2 * 3);
    display_cpu_apply(&img, &tm, &d, rgb);
    int bad = 0, drawn = 0;
    for (int x = 0; x < w; x++) {
        double v[3];
        for (int k = -1; k <= 1; k++) {
            int xx = x + k < 0 ? 0 : x + k >= w ? w - 1 : x + k;
            double lum = scale * img.rgba[4 * xx];
            double m = lum / 100;
            v[k + 1] = decades ? cal_if(m - pow(10, -decades), log10(m) / decades + 1, 0) : m;
        }
        double nb[4] = {v[0], v[2], v[1], v[1]}, want[3];
        expected(style, d.fc_steps, v[1], nb, want);
        for (int c = 0; c < 3; c++) {
            int got = rgb[3 * x + c], exp8 = tonemap_encode(&tm, want[c]);
            bad += got != exp8;
            drawn += got != 0;
        }
    }
    CHECK(bad == 0, "style %d, %d decades, scale %g: %d values differ", style, decades, scale,
          bad);
    CHECK(drawn > (style == HT_FC_SMOOTH ? 2 * w : 10), "style %d: %d values drawn", style, drawn);
    free(rgb);
    image_free(&img);
}

/* The legend: labels at the values they name, drawn there. */
static void check_legend(int style, int decades)
{
    display_params d;
    display_params_default(&d);
    d.mode = HT_VIEW_FALSECOLOR;
    d.fc_max = 1234.5678;
    d.fc_decades = decades;
    d.fc_style = style;
    tonemap_params tm;
    tonemap_params_default(&tm);
    font_file font;
    char err[512];
    if (!font_load(FONT_DEFAULT_PATTERN, &font, err, sizeof err)) {
        CHECK(false, "%s", err);
        return;
    }
    legend_layout l;
    uint8_t *rgb = NULL;
    CHECK(legend_draw(&d, &tm, &font, "cd/m2", 8, &l, &rgb, err, sizeof err), "%s", err);
    CHECK(l.nlabels == d.fc_steps + (style == HT_FC_SMOOTH), "%d labels", l.nlabels);
    const char *top = "1234.567";   /* falsecolor: at most 3 decimals, cut, not rounded */
    CHECK(strcmp(l.labels[0].text, top) == 0, "top label '%s'", l.labels[0].text);
    for (int i = 0; rgb && i < l.nlabels; i++) {
        const falsecolor_label *lb = &l.labels[i];
        double imap = (double)(d.fc_steps - i) / d.fc_steps;
        double want = decades ? d.fc_max * pow(10, (imap - 1) * decades) : d.fc_max * imap;
        CHECK_NEAR(lb->value, want, 1e-9 * want);
        CHECK_NEAR(falsecolor_map(&d, lb->value), lb->v, 1e-9);
        /* The row it stands at shows its value's scale position (to half a row). */
        double at = legend_row_position(&l, l.label_row[i]);
        CHECK(fabs(at - lb->v) <= 0.5 / (l.step * l.steps) + 1e-12, "label %d at v %g, names %g",
              i, at, lb->v);
        /* Ink of the label's text right of the strip, around that row. */
        int ink = 0;
        for (int y = l.label_row[i] - l.text_px / 3; y <= l.label_row[i] + l.text_px / 3; y++)
            for (int x = LEGEND_STRIP + 2; x < l.width; x++)
                ink += rgb[3 * ((size_t)(l.strip_top + y) * l.width + x)] > 128;
        CHECK(ink > 10, "label %d '%s': %d pixels of text at its row", i, lb->text, ink);
        /* The strip there: falsecolor's colour of that position. */
        double c[3], nb[4] = {at, at, legend_row_position(&l, l.label_row[i] - 1),
                              legend_row_position(&l, l.label_row[i] + 1)};
        falsecolor_rgb(&d, at, nb, c);
        const uint8_t *px = rgb + 3 * ((size_t)(l.strip_top + l.label_row[i]) * l.width + 2);
        for (int k = 0; k < 3; k++)
            CHECK_EQ(px[k], tonemap_encode(&tm, c[k]));
    }
    free(rgb);
    font_free(&font);
}

int main(void)
{
    int styles[] = {HT_FC_SMOOTH, HT_FC_BANDS, HT_FC_CONTOURS};
    for (int s = 0; s < 3; s++)
        for (int dec = 0; dec <= 3; dec += 3) {
            check_ramp(styles[s], dec, 1.0);
            check_ramp(styles[s], dec, 179.0 / 100);
            check_legend(styles[s], dec);
        }
    /* The palette's ends and a control point exactly. */
    double c[3];
    falsecolor_palette_rgb(0, c);
    CHECK_NEAR(c[2], 0.2666, 1e-7);
    falsecolor_palette_rgb(2, c);
    CHECK_NEAR(c[1], 0.9707, 1e-7);
    falsecolor_palette_rgb(10 * 0.0454545, c);   /* control point 11 */
    CHECK_NEAR(c[0], 0.1739422, 1e-6);
    return test_finish("test_falsecolor");
}
