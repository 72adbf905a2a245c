/* The CPU reference of pcond's human-vision options (human.h) against Radiance pcond's own
 * runs -h, -v, -a, -c and -v -s, for every folder of $HT_SHARED/pcond-reference with
 * params_human.tsv (README_human.md there says what pcond did and what each file holds).
 * Per folder and run, from input_decoded.exr:
 *  - the skip decisions (veil, acuity, colour) and the mapping kind equal params_human.tsv's,
 *    and so do the 5th-percentile luminance, the histogram after the veil and the pyramid;
 *  - the curve is within 0.005 log10 of pcond's -x file (linear -x quirk included);
 *  - the view-ray directions and the veil image match veil.tsv, the sample radii
 *    acuity_<run>.tsv;
 *  - the 32x32 grid of pixels_<run>.tsv and the whole pictures out_<run>.exr (where present)
 *    come out within 1 % plus one RGBE step (of the pixel's largest channel, and of its
 *    luminance) for at least 99 % of the pixels, and within 3 % plus a step for all.
 * It prints the measured agreement: worst and 99th-percentile pixel errors per run.
 * Before that, without the shared data: the models' invariants and the hooks in
 * tonemap_cpu_analyze / tonemap_cpu_apply on a synthetic scene (bad pixels included), in
 * foveal and in pixel sampling. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human.h"
#include "pcond_ref.h"
#include "testutil.h"

#define CURVE_TOL 0.005
#define PIXEL_TOL 0.01      /* for 99 % of the pixels, beyond one RGBE step */
#define PIXEL_TOL_ALL 0.03  /* for every pixel */
#define VEIL_TOL 0.006      /* of the largest channel: the foveal image is RGBE as pfilt's */
#define SR_TOL 0.005
#define HALF_STEP 6e-8      /* the out_*.exr are half: the subnormal step */

/* Pixel errors beyond one RGBE step, relative (see pixel_error), per run: grid and picture. */
typedef struct errs {
    double *e;
    size_t n, cap;
} errs;

static errs grid_errs[5], pic_errs[5], grid_raw[5], pic_raw[5];
static double worst_curve[5], worst_veil, worst_sr;

static void errs_add(errs *s, double e)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->e = realloc(s->e, s->cap * sizeof *s->e);
        if (!s->e)
            exit(1);
    }
    s->e[s->n++] = e;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The worst and the 99th percentile of E[FROM..n), and how many exceed TOL. */
static void errs_summary(errs *s, size_t from, double *worst, double *p99, size_t *over)
{
    size_t n = s->n - from;
    double *e = s->e + from;
    *worst = *p99 = 0;
    *over = 0;
    if (n == 0)
        return;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        exit(1);
    memcpy(sorted, e, n * sizeof *e);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    *worst = sorted[n - 1];
    *p99 = sorted[(size_t)(0.99 * (double)(n - 1))];
    for (size_t i = 0; i < n; i++)
        *over += sorted[i] > PIXEL_TOL;
    free(sorted);
}

static double param_num(const tonemap_params *unused, const tsv *t, const char *key,
                        const char *col)
{
    (void)unused;
    const char *v = param_value(t, key, col);
    return v && strcmp(v, "NA") != 0 ? atof(v) : NAN;
}

/* Skip decisions, mapping and the numbers they came from against params_human.tsv. */
static void check_params(const char *name, const human_mode *m, const tonemap_params *p,
                         const tsv *t, const tonemap_result *r, const human_state *hs)
{
    const char *col = m->column;
    const char *rows[3] = {"veil", "acuity", "colour"};
    int got[3] = {hs->report.veil, hs->report.acuity, hs->report.color};
    for (int i = 0; i < 3; i++) {
        const char *want = param_value(t, rows[i], col);
        CHECK(want && strcmp(want, human_outcome_name(got[i])) == 0, "%s -%s: %s %s, pcond %s",
              name, col, rows[i], human_outcome_name(got[i]), want ? want : "?");
    }
    const char *map = param_value(t, "mapping", col);
    CHECK(map && strcmp(map, tonemap_mapping_pcond_name(r->mapping)) == 0,
          "%s -%s: mapping %s, pcond %s", name, col, tonemap_mapping_pcond_name(r->mapping),
          map ? map : "?");
    double l5 = param_num(p, t, "c2d_p5_L_cdm2", col);
    if (hs->report.l5 > 0)
        CHECK(fabs(hs->report.l5 - l5) <= 1e-4 * l5, "%s -%s: L5 %.6g, pcond %.6g", name, col,
              hs->report.l5, l5);
    double bmin = param_num(p, t, "bwmin_final", col), bmax = param_num(p, t, "bwmax_final", col);
    double avg = param_num(p, t, "bwavg_final", col);
    CHECK(fabs(r->bw_min - bmin) < 1e-4 && fabs(r->bw_max - bmax) < 1e-4 &&
              fabs(r->ln_avg - avg) < 2e-3,
          "%s -%s: histogram range %.6f..%.6f avg %.5f, pcond %.6f..%.6f avg %.5f", name, col,
          r->bw_min, r->bw_max, r->ln_avg, bmin, bmax, avg);
    if (hs->report.acuity == HUMAN_APPLIED || hs->report.acuity == HUMAN_APPLIED_NOOP) {
        double maxsr = param_num(p, t, "acu_maxsr", col);
        double root = param_num(p, t, "acu_root_level", col);
        CHECK(fabs(hs->report.max_sr - maxsr) <= SR_TOL * maxsr && hs->report.root_level == root,
              "%s -%s: max sr %.5g root %d, pcond %.5g root %g", name, col, hs->report.max_sr,
              hs->report.root_level, maxsr, root);
    }
}

/* veil.tsv: the ray directions and the veil image. */
static void check_veil(const char *dir, const char *name, const human_state *hs)
{
    tsv t;
    if (!tsv_read(ref_path(dir, name, "veil.tsv"), 0, &t)) {
        CHECK(0, "%s: cannot read veil.tsv", name);
        return;
    }
    float *dirs = malloc((size_t)hs->fw * hs->fh * 3 * sizeof *dirs);
    if (!dirs)
        exit(1);
    human_ray_dirs(&hs->view, hs->fw, hs->fh, dirs);
    int cx = tsv_col(&t, "fx"), cy = tsv_col(&t, "frow_from_top"), cd = tsv_col(&t, "dir_x");
    int cv = tsv_col(&t, "veil_R");
    double wdir = 0, wveil = 0;
    int rows = 0;
    for (int i = 1; i < t.nrows; i++, rows++) {
        int x = atoi(t.cells[i][cx]), y = atoi(t.cells[i][cy]);
        if (x < 0 || x >= hs->fw || y < 0 || y >= hs->fh)
            continue;
        size_t k = 3 * ((size_t)y * hs->fw + x);
        double big = 0;
        for (int c = 0; c < 3; c++) {
            wdir = fmax(wdir, fabs(dirs[k + c] - atof(t.cells[i][cd + c])));
            big = fmax(big, atof(t.cells[i][cv + c]));
        }
        for (int c = 0; c < 3; c++)
            wveil = fmax(wveil, fabs(hs->veil[k + c] - atof(t.cells[i][cv + c])) / big);
    }
    CHECK(rows == hs->fw * hs->fh, "%s: veil.tsv has %d of %d pixels", name, rows,
          hs->fw * hs->fh);
    CHECK(wdir <= 1e-6, "%s: ray directions off by %.3g", name, wdir);
    CHECK(wveil <= VEIL_TOL, "%s: veil off by %.3g of its largest channel", name, wveil);
    worst_veil = fmax(worst_veil, wveil);
    printf("  veil.tsv: directions within %.1e, veil within %.2e\n", wdir, wveil);
    free(dirs);
    tsv_free(&t);
}

/* acuity_<run>.tsv: the sample radii. */
static void check_radii(const char *dir, const char *name, const human_mode *m,
                        const human_state *hs)
{
    char file[64];
    snprintf(file, sizeof file, "acuity_%s.tsv", m->column);
    tsv t;
    if (!hs->sr || !tsv_read(ref_path(dir, name, file), 0, &t))
        return;
    int cx = tsv_col(&t, "fx"), cy = tsv_col(&t, "frow_from_top"), cs = tsv_col(&t, "sr");
    double worst = 0;
    for (int i = 1; i < t.nrows; i++) {
        int x = atoi(t.cells[i][cx]), y = atoi(t.cells[i][cy]);
        double ref = atof(t.cells[i][cs]);
        if (x >= 0 && x < hs->fw && y >= 0 && y < hs->fh)
            worst = fmax(worst, fabs(hs->sr[(size_t)y * hs->fw + x] - ref) / fabs(ref));
    }
    CHECK(t.nrows - 1 == hs->fw * hs->fh && worst <= SR_TOL,
          "%s -%s: sample radii off by %.3g (%d rows)", name, m->column, worst, t.nrows - 1);
    worst_sr = fmax(worst_sr, worst);
    printf("  %s: sample radii within %.2e\n", file, worst);
    tsv_free(&t);
}

/* pixels_<run>.tsv: the 32x32 grid through every stage. */
static void check_grid(const char *dir, const char *name, int mi, const hdr_image *img,
                       const tonemap_params *p, const tonemap_result *r, const human_state *hs,
                       const human_pyramid *pyr)
{
    char file[64];
    snprintf(file, sizeof file, "pixels_%s.tsv", HUMAN_MODES[mi].column);
    tsv t;
    if (!tsv_read(ref_path(dir, name, file), 0, &t)) {
        CHECK(0, "%s: cannot read %s", name, file);
        return;
    }
    int cx = tsv_col(&t, "x"), cy = tsv_col(&t, "row_from_top"), co = tsv_col(&t, "out_R");
    int cpre = tsv_col(&t, "pre_R");
    size_t from = grid_errs[mi].n;
    double worst_pre = 0;
    for (int i = 1; i < t.nrows; i++) {
        int x = atoi(t.cells[i][cx]), y = atoi(t.cells[i][cy]);
        human_pixel o;
        human_cpu_pixel(img, p, hs, pyr, x, y, &o);
        double ours[3], ref[3], pre[3];
        human_mapped_rgb(r, p, o.pre, ours);
        for (int c = 0; c < 3; c++) {
            ref[c] = atof(t.cells[i][co + c]);
            pre[c] = atof(t.cells[i][cpre + c]);
        }
        double big = fmax(pre[0], fmax(pre[1], pre[2]));
        for (int c = 0; c < 3; c++)
            worst_pre = fmax(worst_pre, big > 0 ? fabs(o.pre[c] - pre[c]) / big : 0.0);
        double raw;
        errs_add(&grid_errs[mi], pcond_pixel_error(ours, ref, 0.0, &raw));
        errs_add(&grid_raw[mi], raw);
    }
    double worst, p99;
    size_t over;
    errs_summary(&grid_errs[mi], from, &worst, &p99, &over);
    size_t n = grid_errs[mi].n - from;
    CHECK(n == 1024 && over <= n / 100 && worst <= PIXEL_TOL_ALL,
          "%s -%s: %zu of %zu grid pixels beyond 1 %%, worst %.3g", name,
          HUMAN_MODES[mi].column, over, n, worst);
    printf("  %s: pre-mapping within %.2e; output beyond a step: worst %.2e, p99 %.2e, "
           "%zu > 1 %%\n", file, worst_pre, worst, p99, over);
    tsv_free(&t);
}

/* out_<run>.exr: the whole picture. */
static void check_picture(const char *dir, const char *name, int mi, const hdr_image *img,
                          const tonemap_params *p, const tonemap_result *r,
                          const human_state *hs)
{
    char file[64], err[HT_ERR_MAX];
    snprintf(file, sizeof file, "out_%s.exr", HUMAN_MODES[mi].column);
    const char *path = ref_path(dir, name, file);
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    fclose(f);
    hdr_image ref;
    if (!image_load(path, NULL, &ref, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    size_t npix = (size_t)img->width * img->height, from = pic_errs[mi].n;
    float *pre = malloc(npix * 3 * sizeof *pre);
    CHECK(ref.width == img->width && ref.height == img->height, "%s: %s is %dx%d", name, file,
          ref.width, ref.height);
    CHECK(pre && human_cpu_prepare(img, p, hs, pre), "%s: prepare", name);
    for (size_t k = 0; pre && ref.width == img->width && ref.height == img->height && k < npix;
         k++) {
        double ours[3], want[3];
        human_mapped_rgb(r, p, pre + 3 * k, ours);
        for (int c = 0; c < 3; c++)
            want[c] = ref.rgba[4 * k + c];
        double raw;
        errs_add(&pic_errs[mi], pcond_pixel_error(ours, want, HALF_STEP, &raw));
        errs_add(&pic_raw[mi], raw);
    }
    double worst, p99;
    size_t over, n = pic_errs[mi].n - from;
    errs_summary(&pic_errs[mi], from, &worst, &p99, &over);
    CHECK(n == npix && over <= n / 100 && worst <= PIXEL_TOL_ALL,
          "%s -%s: %zu of %zu picture pixels beyond 1 %%, worst %.3g", name, HUMAN_MODES[mi].column,
          over, n, worst);
    printf("  %s: beyond a step: worst %.2e, p99 %.2e, %zu of %zu > 1 %%\n", file, worst, p99,
           over, n);
    free(pre);
    image_free(&ref);
}

static void check_mode(const char *dir, const char *name, int mi, const hdr_image *img,
                       const tsv *params, tonemap_result *r, bool *veil_done)
{
    const human_mode *m = &HUMAN_MODES[mi];
    tonemap_params p;
    human_mode_params(m, &p);
    human_state hs;
    CHECK(human_cpu_analyze(img, &p, r, &hs), "%s -%s: analysis", name, m->column);
    check_params(name, m, &p, params, r, &hs);
    char file[64];
    snprintf(file, sizeof file, "curve_%s.txt", m->column);
    int npts = 0;
    double at = 0;
    double d = curve_deviation(ref_path(dir, name, file), r, &p, tonemap_curve_ld_pcond, &npts,
                               &at);
    CHECK(npts == 100 && d >= 0 && d <= CURVE_TOL, "%s -%s: curve off by %.4f log10 at Lw %.4g",
          name, m->column, d, at);
    worst_curve[mi] = fmax(worst_curve[mi], d);
    printf(" -%-2s %-30s veil %s, acuity %s, colour %s; curve within %.1e log10\n", m->column,
           tonemap_mapping_pcond_name(r->mapping), human_outcome_name(hs.report.veil),
           human_outcome_name(hs.report.acuity), human_outcome_name(hs.report.color), d);
    if (hs.veil && !*veil_done) {
        check_veil(dir, name, &hs);
        *veil_done = true;
    }
    check_radii(dir, name, m, &hs);
    human_pyramid pyr;
    bool blur = hs.sr && hs.report.acuity == HUMAN_APPLIED;
    CHECK(!blur || human_pyramid_build(img, hs.report.root_level, &pyr), "pyramid");
    check_grid(dir, name, mi, img, &p, r, &hs, blur ? &pyr : NULL);
    if (blur)
        human_pyramid_free(&pyr);
    check_picture(dir, name, mi, img, &p, r, &hs);
    human_state_free(&hs);
}

/* Invariants of the models: a uniform foveal image veils itself by HT_VEIL_ADAPT; greys keep
 * their colour; colour is kept above the mesopic range and lost below it. */
static void check_models(void)
{
    human_view v;
    human_view_default(64, 32, 40.0, &v);
    CHECK(fabs(v.horiz - 40.0) < 1e-9 && v.vert < 40.0, "view %g x %g", v.horiz, v.vert);
    enum { FW = 12, FH = 6 };
    float dirs[FW * FH * 3], fov[FW * FH * 3], veil[FW * FH * 3];
    human_ray_dirs(&v, FW, FH, dirs);
    for (int k = 0; k < FW * FH * 3; k++)
        fov[k] = 5.0f;
    human_veil_image(FW, FH, dirs, fov, veil);
    for (int k = 0; k < FW * FH * 3; k++)
        CHECK(fabs(veil[k] - 5.0 * HT_VEIL_ADAPT) < 1e-5, "uniform veil %g", veil[k]);
    double w[3];
    tonemap_luminance_weights(HT_LUMINANCE_RADIANCE, w);
    float grey[3] = {0.1f, 0.1f, 0.1f}, dark[3] = {0.004f, 0.001f, 0.0f};
    float bright[3] = {20.0f, 5.0f, 1.0f};
    double kept = human_color_loss(grey, 1.0, w);
    CHECK(kept > 0 && kept < 1 && fabs(grey[0] - 0.1f) < 1e-7 && fabs(grey[2] - 0.1f) < 1e-7,
          "grey %g %g %g", grey[0], grey[1], grey[2]);
    CHECK(human_color_loss(dark, 1.0, w) == 0.0 && dark[0] == dark[2], "dark keeps colour");
    CHECK(human_color_loss(bright, 1.0, w) == 1.0 && bright[0] == 20.0f, "bright loses colour");
    CHECK(human_hacuity(1e-10) < 0 && human_hacuity(1e4) > 45, "hacuity");
}

/* The hooks: tonemap_cpu_analyze and tonemap_cpu_apply with the options equal the human_*
 * calls; pixel sampling takes the veiled pixels for its second histogram. */
static void check_hooks(int sampling)
{
    hdr_image img;
    test_scene_seed = 7;
    test_make_image(&img, 160, 96, test_scene_random);
    tonemap_params p;
    tonemap_params_default(&p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    human_params_all(&p);
    p.sampling = sampling;
    p.point_samples = sampling == HT_SAMPLING_FOVEAL;
    tonemap_result *r = malloc(sizeof *r), *r2 = malloc(sizeof *r2);
    tonemap_result *plain = malloc(sizeof *plain);
    size_t npix = (size_t)img.width * img.height;
    uint8_t *rgb = malloc(npix * 3);
    float *pre = malloc(npix * 3 * sizeof *pre);
    if (!r || !r2 || !plain || !rgb || !pre)
        exit(1);
    human_state hs;
    tonemap_cpu_analyze(&img, &p, r);
    CHECK(human_cpu_analyze(&img, &p, r2, &hs), "analysis");
    CHECK(memcmp(r, r2, sizeof *r) == 0, "tonemap_cpu_analyze is human_cpu_analyze");
    CHECK(hs.report.veil == HUMAN_APPLIED && r->mapping == HT_MAP_HISTOGRAM,
          "veil %s, mapping %s", human_outcome_name(hs.report.veil),
          tonemap_mapping_pcond_name(r->mapping));
    tonemap_params q = p;
    q.veil = q.acuity = q.color_loss = false;
    tonemap_cpu_analyze(&img, &q, plain);
    /* The veil lifts the dark samples; pcond's point samples are not veiled. */
    if (sampling == HT_SAMPLING_PIXELS)
        CHECK(r->lw_min > plain->lw_min, "the veil lifts the darkest sample: %g, plain %g",
              r->lw_min, plain->lw_min);
    CHECK(r->ln_avg > plain->ln_avg, "the veil lifts the mean: %g, plain %g", r->ln_avg,
          plain->ln_avg);
    tonemap_cpu_apply(&img, &p, r, rgb);
    CHECK(human_cpu_prepare(&img, &p, &hs, pre), "prepare");
    size_t differ = 0;
    for (size_t k = 0; k < npix; k++) {
        double out[3];
        human_mapped_rgb(r, &p, pre + 3 * k, out);
        for (int c = 0; c < 3; c++)
            differ += rgb[3 * k + c] != tonemap_encode(&p, out[c]);
    }
    CHECK(differ == 0, "tonemap_cpu_apply: %zu channels differ from human_mapped_rgb", differ);
    printf("synthetic scene, %s sampling: veil %s, acuity %s, colour %s, %s\n",
           sampling == HT_SAMPLING_FOVEAL ? "foveal" : "pixel", human_outcome_name(hs.report.veil),
           human_outcome_name(hs.report.acuity), human_outcome_name(hs.report.color),
           tonemap_mapping_pcond_name(r->mapping));
    human_state_free(&hs);
    free(pre);
    free(rgb);
    free(plain);
    free(r2);
    free(r);
    image_free(&img);
}

int main(void)
{
    check_models();
    check_hooks(HT_SAMPLING_FOVEAL);
    check_hooks(HT_SAMPLING_PIXELS);
    const char *shared = getenv("HT_SHARED");
    if (!shared || !*shared) {
        printf("HT_SHARED not set: pcond's runs skipped\n");
        return test_failures ? test_finish("test_pcond_human") : SKIP_CODE;
    }
    const char *dir = test_shared_path("pcond-reference");
    char names[64][64];
    int nf = pcond_folders(dir, names, 64), used = 0;
    tonemap_result *r = malloc(sizeof *r);
    for (int f = 0; f < nf && r; f++) {
        char err[HT_ERR_MAX];
        const char *name = names[f];
        tsv params;
        if (!tsv_read(ref_path(dir, name, "params_human.tsv"), 0, &params))
            continue;
        hdr_image img;
        if (!image_load(ref_path(dir, name, "input_decoded.exr"), NULL, &img, err, sizeof err)) {
            CHECK(0, "%s", err);
            tsv_free(&params);
            continue;
        }
        printf("%s (%dx%d)\n", name, img.width, img.height);
        bool veil_done = false;
        for (int mi = 0; mi < 5; mi++)
            check_mode(dir, name, mi, &img, &params, r, &veil_done);
        image_free(&img);
        tsv_free(&params);
        used++;
    }
    free(r);
    if (used == 0) {
        printf("no pcond-reference folder with params_human.tsv in %s: skipped\n", dir);
        return SKIP_CODE;
    }
    printf("worst over %d folders: veil %.2e, sample radii %.2e\n", used, worst_veil, worst_sr);
    printf("pixel errors: relative (largest channel, luminance), raw / beyond one RGBE step\n");
    printf("run  curve(log10)  grid worst, p99 (raw)  beyond  picture worst, p99 (raw)  beyond\n");
    for (int mi = 0; mi < 5; mi++) {
        double v[8];
        size_t o[4];
        errs_summary(&grid_raw[mi], 0, &v[0], &v[1], &o[0]);
        errs_summary(&grid_errs[mi], 0, &v[2], &v[3], &o[1]);
        errs_summary(&pic_raw[mi], 0, &v[4], &v[5], &o[2]);
        errs_summary(&pic_errs[mi], 0, &v[6], &v[7], &o[3]);
        printf("-%-3s %.1e       %.2e %.2e  %.1e %.1e  %.2e %.2e  %.1e %.1e\n",
               HUMAN_MODES[mi].column, worst_curve[mi], v[0], v[1], v[2], v[3], v[4], v[5],
               v[6], v[7]);
        free(grid_errs[mi].e);
        free(pic_errs[mi].e);
        free(grid_raw[mi].e);
        free(pic_raw[mi].e);
    }
    return test_finish("test_pcond_human");
}
