/* The human-vision per-pixel stage on the GPU (human_gpu.h) against the CPU reference
 * (human.h), fed by the CPU analysis (human_cpu_analyze -> human_grids_upload), for a
 * synthetic scene with hdrtone's defaults and, when $HT_SHARED has them, every
 * pcond-reference folder with params_human.tsv in pcond's runs (HUMAN_MODES: -h, -v, -a, -c,
 * -v -s):
 *  - the acuity pyramid, level by level, equals human_pyramid_build bit for bit (same sums in
 *    the same order, in float);
 *  - the prepared picture (pipeline_human_prepare) is human_cpu_prepare's within PRE_TOL of
 *    each pixel's largest channel, every pixel; a pixel non-finite on one side is non-finite
 *    on the other;
 *  - the RGB8 apply output with the stage on (pipeline_set_human) is within 1 LSB of the CPU's
 *    (human_mapped_rgb of human_cpu_prepare's pixels, encoded by tonemap_encode), and with
 *    it turned off again the plain apply's output is what it was before;
 *  - an image in pieces is refused with a reason.
 * It prints, per case, the worst prepared-pixel error and how many pixels exceed PRE_TOL. */
#define _POSIX_C_SOURCE 200809L
#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human_gpu.h"
#include "pcond_ref.h"
#include "testutil.h"

/* Of the pixel's largest channel (magnitude). The GPU interpolates the sample radius and the
 * veil and computes the blend weight and the mesopic factor in float where the CPU uses
 * double: the grid coordinate (up to fw, some 40) carries a float ulp of about 4e-6, and where
 * acuity blends levels of very different values the blend magnifies that (seen: 3e-5 at most
 * over pcond-reference; the rest within 5e-6). */
#define PRE_TOL 1e-4

static pipeline *pl;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* The GPU pyramid against human_pyramid_build: float bits, level by level. */
static void check_pyramid(const char *label, const hdr_image *img, const human_state *hs,
                          const ht_human_grids *g)
{
    char err[HT_ERR_MAX];
    unsigned tex = 0;
    int levels = 0;
    CHECK(pipeline_human_pyramid(pl, g, &tex, &levels, err, sizeof err), "%s: %s", label, err);
    human_pyramid pyr;
    CHECK(human_pyramid_build(img, hs->report.root_level, &pyr), "%s: CPU pyramid", label);
    CHECK(tex && levels >= pyr.levels && pyr.levels >= 1, "%s: %d GPU levels, CPU %d", label,
          levels, pyr.levels);
    size_t differ = 0, total = 0;
    for (int k = 1; k <= pyr.levels && k <= levels; k++) {
        size_t n = (size_t)pyr.w[k] * pyr.h[k] * 3;
        float *got = xmalloc(n * sizeof *got);
        glBindTexture(GL_TEXTURE_2D, tex);
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        glGetTexImage(GL_TEXTURE_2D, k - 1, GL_RGB, GL_FLOAT, got);
        for (size_t i = 0; i < n; i++)
            differ += memcmp(&got[i], &pyr.rgb[k][i], sizeof *got) != 0;
        total += n;
        free(got);
    }
    CHECK(differ == 0, "%s: %zu of %zu pyramid channels differ from the CPU's", label, differ,
          total);
    printf("  pyramid: %d levels, %zu channels, %zu differ\n", pyr.levels, total, differ);
    human_pyramid_free(&pyr);
}

/* The prepared picture against PRE (human_cpu_prepare). */
static void check_prepared(const char *label, const hdr_image *img, const tonemap_params *p,
                           const ht_human_grids *g, const float *pre)
{
    char err[HT_ERR_MAX];
    ht_source out;
    if (!pipeline_human_prepare(pl, g, p, &out, err, sizeof err)) {
        CHECK(0, "%s: prepare: %s", label, err);
        return;
    }
    CHECK(out.width == img->width && out.height == img->height && out.samples == 1,
          "%s: prepared %dx%d", label, out.width, out.height);
    size_t npix = (size_t)img->width * img->height, over = 0, mismatch = 0;
    float *got = xmalloc(npix * 4 * sizeof *got);
    glBindTexture(GL_TEXTURE_2D, out.texture);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, got);
    double worst = 0;
    for (size_t k = 0; k < npix; k++) {
        const float *c = pre + 3 * k, *gp = got + 4 * k;
        bool cfin = isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2]);
        bool gfin = isfinite(gp[0]) && isfinite(gp[1]) && isfinite(gp[2]);
        if (!cfin || !gfin) {
            mismatch += cfin != gfin;
            continue;
        }
        double m = fmax(fabs(c[0]), fmax(fabs(c[1]), fabs(c[2]))), e = 0;
        for (int ch = 0; ch < 3; ch++)
            e = fmax(e, fabs((double)gp[ch] - c[ch]));
        e = m > 0 ? e / m : e > 0 ? INFINITY : 0;
        worst = fmax(worst, e);
        over += e > PRE_TOL;
    }
    CHECK(over == 0 && mismatch == 0,
          "%s: %zu of %zu prepared pixels beyond %.0e (worst %.3g), %zu finite on one side only",
          label, over, npix, PRE_TOL, worst, mismatch);
    printf("  prepared: worst %.2e of the largest channel, %zu of %zu beyond %.0e\n", worst, over,
           npix, PRE_TOL);
    free(got);
}

/* The apply pass with the stage against the CPU's 8-bit output from PRE. */
static void check_apply(const char *label, const hdr_image *img, const tonemap_params *p,
                        const ht_human_grids *g, const tonemap_result *r, const float *pre)
{
    char err[HT_ERR_MAX];
    size_t npix = (size_t)img->width * img->height, beyond = 0, off = 0;
    uint8_t *rgb = xmalloc(npix * 3), *plain = xmalloc(npix * 3), *again = xmalloc(npix * 3);
    bool ok = pipeline_apply_result(pl, p, r, plain, 8, err, sizeof err);
    pipeline_set_human(pl, g);
    ok = ok && pipeline_apply_result(pl, p, r, rgb, 8, err, sizeof err);
    pipeline_set_human(pl, NULL);
    ok = ok && pipeline_apply_result(pl, p, r, again, 8, err, sizeof err);
    CHECK(ok, "%s: apply: %s", label, err);
    CHECK(!ok || memcmp(plain, again, npix * 3) == 0, "%s: the stage turned off, the plain apply "
          "changed", label);
    for (size_t k = 0; k < npix && ok; k++) {
        double out[3];
        human_mapped_rgb(r, p, pre + 3 * k, out);
        for (int c = 0; c < 3; c++) {
            int d = abs((int)rgb[3 * k + c] - (int)tonemap_encode(p, out[c]));
            off += d > 0;
            beyond += d > 1;
        }
    }
    CHECK(beyond == 0, "%s: %zu of %zu channels more than 1 LSB from the CPU", label, beyond,
          npix * 3);
    printf("  apply: %zu of %zu channels 1 LSB off, %zu beyond\n", off, npix * 3, beyond);
    free(again);
    free(plain);
    free(rgb);
}

/* IMG with P: the CPU analysis, its grids uploaded, the three comparisons. */
static void check_case(const char *label, const hdr_image *img, const tonemap_params *p)
{
    char err[HT_ERR_MAX];
    tonemap_result *r = xmalloc(sizeof *r);
    float *pre = xmalloc((size_t)img->width * img->height * 3 * sizeof *pre);
    human_state hs;
    ht_human_grids g = {0};
    CHECK(human_cpu_analyze(img, p, r, &hs), "%s: analysis", label);
    CHECK(human_cpu_prepare(img, p, &hs, pre), "%s: CPU prepare", label);
    CHECK(human_grids_upload(&g, &hs, err, sizeof err), "%s: %s", label, err);
    CHECK(pipeline_upload(pl, img, err, sizeof err), "%s: upload: %s", label, err);
    printf("%s (%dx%d): veil %s, acuity %s, colour %s, stages %u\n", label, img->width,
           img->height, human_outcome_name(hs.report.veil), human_outcome_name(hs.report.acuity),
           human_outcome_name(hs.report.color), g.stages);
    if (g.stages & HT_HUMAN_ACUITY)
        check_pyramid(label, img, &hs, &g);
    check_prepared(label, img, p, &g, pre);
    check_apply(label, img, p, &g, r, pre);
    human_grids_release(&g);
    human_state_free(&hs);
    free(pre);
    free(r);
}

/* A synthetic scene with hdrtone's defaults and the three options, dark enough for colour
 * loss; every stage must apply. Then the same picture in pieces: refused. */
static void check_synthetic(void)
{
    hdr_image img;
    test_scene_seed = 11;
    test_make_image(&img, 480, 270, test_scene_random);
    for (size_t k = 0; k < (size_t)img.width * img.height * 4; k += 4)
        for (int c = 0; c < 3; c++)
            img.rgba[k + c] *= 1e-6f;
    tonemap_params p;
    tonemap_params_default(&p);
    p.veil = p.acuity = p.color_loss = true;
    human_state hs;
    tonemap_result *r = xmalloc(sizeof *r);
    human_cpu_analyze(&img, &p, r, &hs);
    CHECK(hs.report.veil == HUMAN_APPLIED && hs.report.acuity == HUMAN_APPLIED &&
              hs.report.color == HUMAN_APPLIED,
          "synthetic: veil %s, acuity %s, colour %s", human_outcome_name(hs.report.veil),
          human_outcome_name(hs.report.acuity), human_outcome_name(hs.report.color));
    human_state_free(&hs);
    free(r);
    check_case("synthetic, defaults", &img, &p);

    char err[HT_ERR_MAX] = "";
    ht_human_grids g = {0};
    r = xmalloc(sizeof *r);
    human_cpu_analyze(&img, &p, r, &hs);
    free(r);
    CHECK(human_grids_upload(&g, &hs, err, sizeof err), "%s", err);
    pipeline_set_max_piece(pl, 128);
    CHECK(pipeline_upload(pl, &img, err, sizeof err) && pipeline_image_pieces(pl) > 1,
          "pieces: %s", err);
    ht_source out;
    CHECK(!pipeline_human_prepare(pl, &g, &p, &out, err, sizeof err) && strstr(err, "pieces"),
          "an image in pieces: prepare must refuse (%s)", err);
    pipeline_set_human(pl, &g);
    err[0] = '\0';
    CHECK(!pipeline_tonemap_uploaded(pl, &p, NULL, NULL, err, sizeof err) && strstr(err, "pieces"),
          "an image in pieces: the apply pass with the stage must refuse (%s)", err);
    pipeline_set_human(pl, NULL);
    pipeline_set_max_piece(pl, 0);
    human_grids_release(&g);
    human_state_free(&hs);
    image_free(&img);
}

int main(void)
{
    test_require_gl();
    char err[HT_ERR_MAX];
    if (!(pl = pipeline_create(err, sizeof err))) {
        fprintf(stderr, "pipeline: %s\n", err);
        return 1;
    }
    check_synthetic();
    const char *shared = getenv("HT_SHARED");
    const char *dir = shared && *shared ? test_shared_path("pcond-reference") : NULL;
    char names[64][64];
    int nf = dir ? pcond_folders(dir, names, 64) : 0;
    for (int f = 0; f < nf; f++) {
        FILE *t = fopen(ref_path(dir, names[f], "params_human.tsv"), "r");
        if (!t)
            continue;
        fclose(t);
        hdr_image img;
        if (!image_load(ref_path(dir, names[f], "input_decoded.exr"), NULL, &img, err,
                        sizeof err)) {
            CHECK(0, "%s: %s", names[f], err);
            continue;
        }
        for (int mi = 0; mi < 5; mi++) {
            const human_mode *m = &HUMAN_MODES[mi];
            tonemap_params p;
            human_mode_params(m, &p);
            char label[128];
            snprintf(label, sizeof label, "%.63s -%s", names[f], m->column);
            check_case(label, &img, &p);
        }
        image_free(&img);
    }
    if (!dir)
        printf("HT_SHARED not set: pcond-reference skipped\n");
    pipeline_destroy(&pl);
    return test_finish("test_human_stage");
}
