/* The GPU's human-vision analysis (pipeline.h: the veil, veil_histogram and sample_radii
 * passes) against the CPU reference human_cpu_analyze, on every folder of
 * $HT_SHARED/pcond-reference with params_human.tsv (input_decoded.exr, --preset pcond's
 * parameters, pcond's runs -h -v -a -c and -v -s as test_pcond_human.c) and on synthetic
 * scenes with hdrtone's defaults (pixel sampling) and with the pcond preset.
 * Per case:
 *  - the report (pipeline_human_report) equals human_cpu_analyze's: each option's outcome (the
 *    skip rules and the acuity no-op), range_fits, and with acuity the root level; the
 *    largest sample radius within SR_TOL relative;
 *  - the veil grid: each channel within VEIL_TOL of the CPU's human_veil_image, relative to
 *    the largest channel of that foveal pixel (the GPU sums in float, in a tree; the CPU in
 *    float in order, the weights in double);
 *  - the sample radii within SR_TOL relative of human_sample_radii's;
 *  - the frame's result (after the veil: the second histogram) has the CPU's mapping, and
 *    its curve is within CURVE_TOL in log10, at 200 luminances over both ranges, of
 *    human_cpu_analyze's (pcond's rounding: after the veil the GPU follows its darkest-bin
 *    rule, tonemap_darkest_bin, which puts BrightRingsNanInf's darkest point samples in bin
 *    0 and moves its curve by 0.03); the deviation from the CPU's in the shaders' arithmetic
 *    (human_cpu_analyze_exact without pcond's rounding) is printed in parentheses.
 * Then: two grey levels whose first histogram just exceeds the display's range keep the
 * histogram mapping after the veil narrowed it (the first range test stands); an image in
 * pieces refuses the options with the reason; a frame without them reports none. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human_gpu.h"
#include "pcond_ref.h"
#include "pipeline.h"
#include "testutil.h"

#define CURVE_TOL 0.005   /* log10 of the display luminance */
#define VEIL_TOL 1e-4     /* of the foveal pixel's largest veil channel */
#define SR_TOL 1e-4       /* relative */

static double worst_veil, worst_sr, worst_curve, worst_shader;
static int cases;

/* Max |log10 Ld_a - log10 Ld_b| at 200 luminances spanning both results' ranges. */
static double curve_distance(const tonemap_result *a, const tonemap_result *b,
                             const tonemap_params *p)
{
    double lo = fmin(a->bw_min, b->bw_min), hi = fmax(a->bw_max, b->bw_max), worst = 0;
    for (int i = 0; i < 200; i++) {
        double lw = exp(lo + (hi - lo) * (i + 0.5) / 200.0);
        double d = fabs(log10(tonemap_curve_ld(a, p, lw)) - log10(tonemap_curve_ld(b, p, lw)));
        worst = d > worst ? d : worst;
    }
    return worst;
}

/* The report: outcomes, range_fits, and the acuity's numbers. */
static void check_report(const char *label, const human_report *g, const human_report *c)
{
    const char *names[3] = {"veil", "acuity", "colour"};
    int got[3] = {g->veil, g->acuity, g->color}, want[3] = {c->veil, c->acuity, c->color};
    for (int i = 0; i < 3; i++)
        CHECK(got[i] == want[i], "%s: %s %s, CPU %s", label, names[i],
              human_outcome_name(got[i]), human_outcome_name(want[i]));
    CHECK(g->range_fits == c->range_fits, "%s: range_fits %d, CPU %d", label, g->range_fits,
          c->range_fits);
    if (c->acuity == HUMAN_APPLIED || c->acuity == HUMAN_APPLIED_NOOP) {
        double e = fabs(g->max_sr - c->max_sr) / c->max_sr;
        worst_sr = e > worst_sr ? e : worst_sr;
        CHECK(e <= SR_TOL && g->root_level == c->root_level,
              "%s: max sr %.7g root %d, CPU %.7g root %d", label, g->max_sr, g->root_level,
              c->max_sr, c->root_level);
    }
}

/* The grids against the CPU's: the veil relative to each pixel's largest channel, the
 * radii relative. */
static void check_grids(const char *label, pipeline *pipe, const human_state *hs)
{
    ht_human_grids g = pipeline_human_grids(pipe);
    CHECK(g.fw == hs->fw && g.fh == hs->fh, "%s: grid %dx%d, CPU %dx%d", label, g.fw, g.fh,
          hs->fw, hs->fh);
    if (g.fw != hs->fw || g.fh != hs->fh)
        return;
    size_t n = (size_t)g.fw * g.fh;
    float *veil = malloc(n * 3 * sizeof *veil), *sr = malloc(n * sizeof *sr);
    if (!veil || !sr)
        exit(1);
    pipeline_read_human_grids(pipe, hs->veil ? veil : NULL, hs->sr ? sr : NULL);
    double wv = 0, ws = 0;
    for (size_t k = 0; hs->veil && k < n; k++) {
        const float *c = hs->veil + 3 * k;
        double big = fmax(fmax(fabs(c[0]), fabs(c[1])), fmax(fabs(c[2]), 1e-30));
        for (int ch = 0; ch < 3; ch++)
            wv = fmax(wv, fabs(veil[3 * k + ch] - c[ch]) / big);
    }
    for (size_t k = 0; hs->sr && k < n; k++)
        ws = fmax(ws, fabs(sr[k] - hs->sr[k]) / fmax(fabs(hs->sr[k]), 1e-30));
    CHECK(wv <= VEIL_TOL, "%s: veil off by %.3g of the largest channel", label, wv);
    CHECK(ws <= SR_TOL, "%s: sample radii off by %.3g relative", label, ws);
    worst_veil = fmax(worst_veil, wv);
    worst_sr = fmax(worst_sr, ws);
    free(veil);
    free(sr);
}

/* One case: IMG uploaded to PIPE, analysed with P on both sides. */
static void check_case(const char *label, pipeline *pipe, const hdr_image *img,
                       const tonemap_params *p)
{
    char err[HT_ERR_MAX];
    tonemap_result *g = calloc(1, sizeof *g), *c = calloc(1, sizeof *c);
    tonemap_result *x = calloc(1, sizeof *x);
    human_state hs, hx;
    if (!g || !c || !x || !human_cpu_analyze_exact(img, p, false, c, &hs) ||
        !human_cpu_analyze(img, p, x, &hx))
        exit(1);
    bool ok = pipeline_analyze_uploaded(pipe, p, g, err, sizeof err);
    CHECK(ok, "%s: %s", label, err);
    const human_report *rep = pipeline_human_report(pipe);
    CHECK(rep != NULL, "%s: no human report", label);
    if (ok && rep) {
        check_report(label, rep, &hx.report);
        if (rep->veil == hs.report.veil && rep->acuity == hs.report.acuity)
            check_grids(label, pipe, &hs);
        double d = curve_distance(g, x, p), ds = curve_distance(g, c, p);
        worst_curve = fmax(worst_curve, d);
        worst_shader = fmax(worst_shader, ds);
        CHECK(g->mapping == c->mapping && g->mapping == x->mapping && d <= CURVE_TOL,
              "%s: mapping %s, CPU %s (shaders' arithmetic: %s); curve off by %.4f log10",
              label, tonemap_mapping_pcond_name(g->mapping),
              tonemap_mapping_pcond_name(x->mapping), tonemap_mapping_pcond_name(c->mapping), d);
        printf("  %-24s veil %-22s acuity %-24s colour %-18s %s, curve %.1e (%.1e)\n", label,
               human_outcome_name(rep->veil), human_outcome_name(rep->acuity),
               human_outcome_name(rep->color), tonemap_mapping_pcond_name(g->mapping), d, ds);
    }
    cases++;
    human_state_free(&hs);
    human_state_free(&hx);
    free(g);
    free(c);
    free(x);
}

static void upload(pipeline *pipe, const hdr_image *img)
{
    char err[HT_ERR_MAX];
    if (!pipeline_upload(pipe, img, err, sizeof err)) {
        fprintf(stderr, "upload: %s\n", err);
        exit(1);
    }
}

/* Synthetic scenes: hdrtone's defaults (pixel sampling) and the pcond preset (foveal), each
 * run's options; the lamp also dimmed a thousandfold (scale), where acuity applies; and a
 * 5x3 picture (a foveal grid of a few pixels). */
static void check_synthetic(pipeline *pipe)
{
    hdr_image img;
    test_scene_seed = 7;
    for (int scene = 0; scene < 4; scene++) {
        test_make_image(&img, scene == 3 ? 5 : 160, scene == 3 ? 3 : 96,
                        scene == 1 || scene == 2 ? test_scene_lamp : test_scene_random);
        upload(pipe, &img);
        for (int preset = 0; preset < 2; preset++)
            for (int mi = 0; mi < HUMAN_RUN_COUNT; mi++) {
                const human_mode *m = &HUMAN_MODES[mi];
                tonemap_params p;
                human_mode_params(m, &p);
                if (!preset) {   /* the options on hdrtone's defaults */
                    tonemap_params_default(&p);
                    p.veil = m->veil;
                    p.acuity = m->acuity;
                    p.color_loss = m->color;
                    p.ceiling = m->hsens ? HT_CEILING_HUMAN : p.ceiling;
                }
                p.scale *= scene == 2 ? 1e-3 : 1.0;
                char label[64];
                snprintf(label, sizeof label, "%s, %s -%s",
                         (const char *[]){"random", "lamp", "dim lamp", "5x3"}[scene],
                         preset ? "pcond" : "defaults", m->column);
                check_case(label, pipe, &img, &p);
            }
        image_free(&img);
    }
}

/* Two grey levels e^4.7 apart, a little over the display's 100:1 (ln 4.605): the first
 * histogram does not fit, the veil lifts the dark half until the second one would. */
static void two_levels(int x, int y, float rgb[3])
{
    (void)y;
    rgb[0] = rgb[1] = rgb[2] = x < 80 ? 100.0f : 100.0f * expf(-4.7f);
}

/* The range test of the first histogram stands after the veil (the curve pass's range_fits):
 * not the linear mapping that the second histogram's range alone would give. */
static void check_range_stands(pipeline *pipe)
{
    hdr_image img;
    tonemap_params p;
    test_make_image(&img, 160, 96, two_levels);
    upload(pipe, &img);
    tonemap_params_default(&p);
    p.veil = true;
    tonemap_result *r = malloc(sizeof *r);
    if (!r)
        exit(1);
    check_case("two levels -v", pipe, &img, &p);
    pipeline_read_result(pipe, r);
    const human_report *rep = pipeline_human_report(pipe);
    CHECK(rep && !rep->range_fits && rep->veil == HUMAN_APPLIED &&
              r->bw_max - r->bw_min <= log(p.drange) && r->mapping != HT_MAP_LINEAR_FITS,
          "two levels -v: the first range (%g) must stand: range after the veil %g, %s",
          rep ? rep->range : -1.0, r->bw_max - r->bw_min, tonemap_mapping_pcond_name(r->mapping));
    free(r);
    image_free(&img);
}

/* pcond's darkest-bin rule after the veil only where the range was widened: with a range
 * given (--lmin, --lmax: never widened) the darkest point samples keep the binning's bin, on
 * the GPU (which sets the rule before its range pass has run) as on the CPU. */
static void check_fixed_range(pipeline *pipe)
{
    char err[HT_ERR_MAX];
    hdr_image img;
    tonemap_params p;
    tonemap_result *g = calloc(1, sizeof *g), *x = calloc(1, sizeof *x);
    human_state hx;
    test_make_image(&img, 160, 96, test_scene_lamp);
    upload(pipe, &img);
    tonemap_params_default(&p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    p.veil = true;
    p.lmin = 1e-4;
    p.lmax = 1e6;
    if (!g || !x || !human_cpu_analyze(&img, &p, x, &hx))
        exit(1);
    bool ok = pipeline_analyze_uploaded(pipe, &p, g, err, sizeof err);
    CHECK(ok, "fixed range: %s", err);
    const human_report *rep = pipeline_human_report(pipe);
    int moved = 0, lowest = -1;
    for (int i = 0; i < p.bins; i++) {
        moved += g->pt_hist[i] != x->pt_hist[i];
        lowest = lowest < 0 && x->pt_hist[i] ? i : lowest;
    }
    CHECK(ok && rep && rep->veil == HUMAN_APPLIED && !g->widened && !x->widened &&
              g->pt_counted == x->pt_counted && moved == 0 && lowest > 1,
          "fixed range -v: veil %s, widened %u (CPU %u), point samples counted %u (CPU %u), "
          "%d bins differ, the darkest in bin %d (the rule's would be 0 or 1)",
          rep ? human_outcome_name(rep->veil) : "-", g->widened, x->widened, g->pt_counted,
          x->pt_counted, moved, lowest);
    human_state_free(&hx);
    image_free(&img);
    free(g);
    free(x);
}

/* Pieces refuse the options; a frame without them reports none. */
static void check_refusals(pipeline *pipe)
{
    char err[HT_ERR_MAX] = "";
    hdr_image img;
    tonemap_params p;
    tonemap_result *r = malloc(sizeof *r);
    if (!r)
        exit(1);
    test_make_image(&img, 160, 96, test_scene_random);
    pipeline_set_max_piece(pipe, 64);
    upload(pipe, &img);
    tonemap_params_default(&p);
    human_params_all(&p);
    CHECK(!pipeline_analyze_uploaded(pipe, &p, r, err, sizeof err) && strstr(err, "pieces"),
          "an image in pieces must refuse the human-vision options: '%s'", err);
    pipeline_set_max_piece(pipe, 0);
    upload(pipe, &img);
    tonemap_params_default(&p);
    CHECK(pipeline_analyze_uploaded(pipe, &p, r, err, sizeof err) && !pipeline_human_report(pipe),
          "a frame without the options has no human report");
    image_free(&img);
    free(r);
}

int main(void)
{
    test_require_gl();
    char err[HT_ERR_MAX];
    pipeline *pipe = pipeline_create(err, sizeof err);
    if (!pipe) {
        fprintf(stderr, "pipeline: %s\n", err);
        return 1;
    }
    printf("synthetic scenes\n");
    check_synthetic(pipe);
    check_range_stands(pipe);
    check_fixed_range(pipe);
    check_refusals(pipe);
    int used = 0;
    const char *shared = getenv("HT_SHARED");
    if (shared && *shared) {
        const char *dir = test_shared_path("pcond-reference");
        char names[64][64];
        int nf = pcond_folders(dir, names, 64);
        for (int f = 0; f < nf; f++) {
            tsv params;
            if (!tsv_read(ref_path(dir, names[f], "params_human.tsv"), 0, &params))
                continue;
            tsv_free(&params);
            hdr_image img;
            if (!image_load(ref_path(dir, names[f], "input_decoded.exr"), NULL, &img, err,
                            sizeof err)) {
                CHECK(0, "%s", err);
                continue;
            }
            printf("%s (%dx%d)\n", names[f], img.width, img.height);
            upload(pipe, &img);
            for (int mi = 0; mi < HUMAN_RUN_COUNT; mi++) {
                tonemap_params p;
                human_mode_params(&HUMAN_MODES[mi], &p);
                char label[96];
                snprintf(label, sizeof label, "%.63s -%s", names[f], HUMAN_MODES[mi].column);
                check_case(label, pipe, &img, &p);
            }
            image_free(&img);
            used++;
        }
    }
    if (!used)
        printf("no pcond-reference folder with params_human.tsv: the pcond runs skipped\n");
    printf("%d cases, %d folders; worst: veil %.2e, sample radii %.2e, curve %.2e log10 "
           "(%.2e from the CPU's in the shaders' arithmetic)\n",
           cases, used, worst_veil, worst_sr, worst_curve, worst_shader);
    pipeline_destroy(&pipe);
    return test_finish("test_human_gpu");
}
