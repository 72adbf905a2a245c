/* hdrtone's pcond preset (CPU reference) against Radiance pcond's own output, for every
 * folder of $HT_SHARED/pcond-reference (its README says what pcond did and what each file
 * holds). Per folder, from input_decoded.exr (the pixels pcond worked with, cd/m^2):
 *  - the foveal grid equals pcond's, the foveal image is within RGBE quantisation of pcond's
 *    (pfilt writes it as RGBE: 1/256 of a pixel's largest channel at most; we allow 0.6 %);
 *  - the point samples are at pcond's positions, with pcond's luminances;
 *  - for the six runs (default, -s, -l, each with and without point samples) the mapping kind
 *    equals params.tsv's and the curve is within 0.005 log10 of pcond's -x file at its 100
 *    points (printed as pcond prints it, -x quirk of the linear mapping included);
 *  - the 64 pixels of pixels_default.tsv come out within 1 % (of the pixel's largest output
 *    channel: pcond's output is RGBE too).
 * It prints the worst deviations per folder and run (the numbers README.md's 'Faithful to
 * pcond' quotes). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcond_ref.h"
#include "testutil.h"

#define CURVE_TOL 0.005
#define PIXEL_TOL 0.01
#define FOVEAL_TOL 0.006

static double worst_mode[6], worst_pixels, worst_foveal;

static void check_foveal(const char *dir, const char *name, const hdr_image *img,
                         const tonemap_params *p, const tsv *params)
{
    int fw, fh;
    float *rgb;
    CHECK(tonemap_cpu_foveal_image(img, p, &fw, &fh, &rgb), "%s: foveal image", name);
    if (!rgb)
        return;
    const char *px = param_value(params, "fvxr", "default");
    const char *py = param_value(params, "fvyr", "default");
    CHECK(px && py && fw == atoi(px) && fh == atoi(py), "%s: foveal grid %dx%d, pcond %sx%s", name,
          fw, fh, px ? px : "?", py ? py : "?");
    const char *path;
    path = ref_path(dir, name, "fovimg.tsv");
    tsv t;
    if (!tsv_read(path, 0, &t)) {
        CHECK(0, "%s: cannot read fovimg.tsv", name);
        free(rgb);
        return;
    }
    int cx = tsv_col(&t, "fx"), cy = tsv_col(&t, "frow_from_top"), cr = tsv_col(&t, "R");
    double worst = 0;
    int rows = 0;
    for (int i = 1; i < t.nrows; i++) {
        int x = atoi(t.cells[i][cx]), y = atoi(t.cells[i][cy]);
        if (x < 0 || x >= fw || y < 0 || y >= fh)
            continue;
        const float *c = rgb + 3 * ((size_t)y * fw + x);
        double ref[3], big = 0;
        for (int ch = 0; ch < 3; ch++) {
            ref[ch] = atof(t.cells[i][cr + ch]);
            big = fmax(big, fabs(ref[ch]));
        }
        for (int ch = 0; ch < 3; ch++)
            if (big > 0)
                worst = fmax(worst, fabs(c[ch] - ref[ch]) / big);
        rows++;
    }
    CHECK(rows == fw * fh, "%s: fovimg.tsv has %d of %d pixels", name, rows, fw * fh);
    CHECK(worst <= FOVEAL_TOL, "%s: foveal image off by %.3g of a pixel's largest channel", name,
          worst);
    worst_foveal = fmax(worst_foveal, worst);
    printf("%-18s foveal %dx%d, worst %.2e of the largest channel", name, fw, fh, worst);
    tsv_free(&t);

    /* Point samples: positions exactly, luminance to float rounding. */
    uint32_t n = tonemap_point_count(img->width, img->height, fw, fh);
    const char *pn = param_value(params, "nlumsamp", "default");
    CHECK(pn && (uint32_t)atol(pn) == n, "%s: %u point samples, pcond %s", name, n, pn ? pn : "?");
    uint32_t *xy = malloc(sizeof *xy * n);
    CHECK(xy && tonemap_point_positions(img->width, img->height, n, xy), "%s: point walk", name);
    path = ref_path(dir, name, "ptsamples.tsv");
    if (xy && tsv_read(path, 0, &t)) {
        int ck = tsv_col(&t, "k"), cxx = tsv_col(&t, "x"), crow = tsv_col(&t, "row_from_top");
        int cl = tsv_col(&t, "L");
        uint32_t wrong = 0, seen = 0;
        double lworst = 0, w[3];
        tonemap_luminance_weights(HT_LUMINANCE_RADIANCE, w);
        for (int i = 1; i < t.nrows; i++) {
            uint32_t k = (uint32_t)atol(t.cells[i][ck]);
            uint32_t x = (uint32_t)atol(t.cells[i][cxx]), y = (uint32_t)atol(t.cells[i][crow]);
            seen++;
            if (k >= n || xy[k] != (x | y << 16)) {
                wrong++;
                continue;
            }
            const float *c = img->rgba + 4 * ((size_t)y * img->width + x);
            double l = w[0] * c[0] + w[1] * c[1] + w[2] * c[2], ref = atof(t.cells[i][cl]);
            if (ref > 0)
                lworst = fmax(lworst, fabs(l - ref) / ref);
        }
        CHECK(seen == n && wrong == 0, "%s: %u of %u point samples at other positions (file %u)",
              name, wrong, n, seen);
        CHECK(lworst < 1e-6, "%s: point-sample luminance off by %.3g", name, lworst);
        printf("; %u point samples, %u misplaced, L within %.1e\n", n, wrong, lworst);
        tsv_free(&t);
    }
    free(xy);
    free(rgb);
}

static void check_pixels(const char *dir, const char *name, const hdr_image *img,
                         const tonemap_params *p, const tonemap_result *r)
{
    const char *path;
    path = ref_path(dir, name, "pixels_default.tsv");
    tsv t;
    if (!tsv_read(path, 0, &t)) {
        CHECK(0, "%s: cannot read pixels_default.tsv", name);
        return;
    }
    int cx = tsv_col(&t, "x"), cy = tsv_col(&t, "row_from_top"), cin = tsv_col(&t, "in_R");
    int cout = tsv_col(&t, "out_R");
    double w[3], worst = 0;
    tonemap_weights(p, w);
    int n = 0;
    for (int i = 1; i < t.nrows; i++) {
        int x = atoi(t.cells[i][cx]), y = atoi(t.cells[i][cy]);
        const float *c = img->rgba + 4 * ((size_t)y * img->width + x);
        float lw = (float)(w[0] * c[0] + w[1] * c[1] + w[2] * c[2]);
        double factor = tonemap_pixel_factor(r, p, lw), big = 0, d = 0;
        for (int ch = 0; ch < 3; ch++) {
            double in = atof(t.cells[i][cin + ch]);
            CHECK(fabs(in - c[ch]) <= 1e-6 * fabs(in), "%s: pixel (%d,%d) input %g vs tsv %g", name,
                  x, y, c[ch], in);
            big = fmax(big, atof(t.cells[i][cout + ch]));
        }
        for (int ch = 0; ch < 3; ch++) {
            double ref = atof(t.cells[i][cout + ch]), ours = factor * c[ch];
            d = fmax(d, big > 0 ? fabs(ours - ref) / big : fabs(ours));
        }
        CHECK(d <= PIXEL_TOL, "%s: pixel (%d,%d) off by %.3g of its largest channel", name, x, y,
              d);
        worst = fmax(worst, d);
        n++;
    }
    CHECK(n == 64, "%s: %d pixels in pixels_default.tsv", name, n);
    worst_pixels = fmax(worst_pixels, worst);
    printf("%-18s 64 pixels: worst %.2e of the largest channel\n", name, worst);
    tsv_free(&t);
}

int main(void)
{
    const char *dir = test_shared_path("pcond-reference");
    char names[64][64];
    int nf = pcond_folders(dir, names, 64);
    if (nf == 0) {
        printf("no pcond-reference folders in %s: skipped\n", dir);
        return SKIP_CODE;
    }
    tonemap_result *r = malloc(sizeof *r);
    for (int f = 0; f < nf; f++) {
        char err[HT_ERR_MAX];
        const char *path;
        const char *name = names[f];
        tsv params;
        path = ref_path(dir, name, "params.tsv");
        if (!tsv_read(path, 0, &params)) {
            CHECK(0, "%s: cannot read params.tsv", name);
            continue;
        }
        hdr_image img;
        path = ref_path(dir, name, "input_decoded.exr");
        if (!image_load(path, NULL, &img, err, sizeof err)) {
            CHECK(0, "%s", err);
            tsv_free(&params);
            continue;
        }
        tonemap_params p;
        pcond_mode_params(&PCOND_MODES[0], &p);
        check_foveal(dir, name, &img, &p, &params);
        printf("%-18s", name);
        for (int m = 0; m < 6; m++) {
            const pcond_mode *mode = &PCOND_MODES[m];
            pcond_mode_params(mode, &p);
            tonemap_cpu_analyze(&img, &p, r);
            const char *want = param_value(&params, "mapping", mode->column);
            CHECK(want && strcmp(want, tonemap_mapping_pcond_name(r->mapping)) == 0,
                  "%s %s: mapping %s, pcond %s", name, mode->column,
                  tonemap_mapping_pcond_name(r->mapping),
                  want ? want : "?");
            path = ref_path(dir, name, mode->curve);
            int npts = 0;
            double at = 0;
            double d = curve_deviation(path, r, &p, tonemap_curve_ld_pcond, &npts, &at);
            CHECK(npts == 100 && d >= 0 && d <= CURVE_TOL,
                  "%s %s: curve off by %.4f log10 at Lw %.4g (%d points; %s, iterations %u)", name,
                  mode->column, d, at, npts, tonemap_mapping_pcond_name(r->mapping), r->iterations);
            worst_mode[m] = fmax(worst_mode[m], d);
            printf(" %s %.4f%s", mode->column, d, r->mapping == HT_MAP_HISTOGRAM ? "" : "(lin)");
            if (m == 0) {
                printf("\n");
                check_pixels(dir, name, &img, &p, r);
                printf("%-18s", name);
                pcond_mode_params(mode, &p);
                tonemap_cpu_analyze(&img, &p, r);
            }
        }
        printf("\n");
        image_free(&img);
        tsv_free(&params);
    }
    printf("worst over %d folders: foveal image %.2e; pixels %.2e; curves (log10):", nf,
           worst_foveal, worst_pixels);
    for (int m = 0; m < 6; m++)
        printf(" %s %.4f", PCOND_MODES[m].column, worst_mode[m]);
    printf("\n");
    free(r);
    return test_finish("test_pcond_reference");
}
