/* pcond's human-vision options: which apply (check2do), the analysis with the veil, the
 * per-pixel stages and the apply. The models themselves are in human_veil.c and
 * human_acuity.c. */
#include "human.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

bool human_requested(const tonemap_params *p)
{
    return p->veil || p->acuity || p->color_loss;
}

void human_params_all(tonemap_params *p)
{
    p->veil = p->acuity = p->color_loss = true;
    p->ceiling = HT_CEILING_HUMAN;
}

const char *human_outcome_name(int outcome)
{
    switch (outcome) {
    case HUMAN_NOT_REQUESTED: return "not_requested";
    case HUMAN_APPLIED: return "applied";
    case HUMAN_APPLIED_NOOP: return "applied(no-op:all_sr<=1)";
    case HUMAN_SKIP_RANGE: return "skipped(range_bw<4.5)";
    case HUMAN_SKIP_ACUITY: return "skipped(hacuity(L5)>=pix_per_deg)";
    case HUMAN_SKIP_PHOTOPIC: return "skipped(L5>=5.62)";
    case HUMAN_SKIP_NO_SAMPLES: return "skipped(no_samples)";
    default: return "?";
    }
}

double human_luminance(const float c[3], double scale, const double wts[3])
{
    float l = (float)wts[0] * c[0] + (float)wts[1] * c[1] + (float)wts[2] * c[2];
    return scale * l;
}

/* The luminance of the first histogram's 5th percentile: the centre of the bin where 5 % of
 * the total (point samples weighted, bottom-bin rule applied) is reached. */
static double fifth_percentile(const tonemap_result *r1)
{
    int n = (int)r1->bins;
    double f[HT_MAX_BINS], total = 0, w = r1->n_points ? (double)r1->pt_weight : 0.0;
    for (int i = 0; i < n; i++)
        f[i] = r1->hist[i] + w * r1->pt_hist[i];
    if (r1->widened) {   /* half of bin 1 moves to bin 0, as the curve step does */
        f[0] += 0.5 * f[1];
        f[1] -= 0.5 * f[1];
    }
    for (int i = 0; i < n; i++)
        total += f[i];
    double left = 0.05 * total;
    int i = 0;
    while (i < n - 1 && (left -= f[i]) > 0)
        i++;
    return exp(r1->bw_min + (i + 0.5) * ((double)r1->bw_max - r1->bw_min) / n);
}

void human_check2do(const tonemap_result *r1, const tonemap_params *p, const human_view *v,
                    int w, int h, human_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->veil = p->veil ? HUMAN_APPLIED : HUMAN_NOT_REQUESTED;
    rep->acuity = p->acuity ? HUMAN_APPLIED : HUMAN_NOT_REQUESTED;
    rep->color = p->color_loss ? HUMAN_APPLIED : HUMAN_NOT_REQUESTED;
    rep->max_sr = 1.0f;
    if (r1->n_valid == 0) {
        rep->veil = p->veil ? HUMAN_SKIP_NO_SAMPLES : rep->veil;
        rep->acuity = p->acuity ? HUMAN_SKIP_NO_SAMPLES : rep->acuity;
        rep->color = p->color_loss ? HUMAN_SKIP_NO_SAMPLES : rep->color;
        return;
    }
    rep->range = (double)r1->bw_max - r1->bw_min;
    rep->range_fits = rep->range <= log(p->drange);
    if (p->veil && rep->range < HT_VEIL_MIN_RANGE)
        rep->veil = HUMAN_SKIP_RANGE;
    if (!p->acuity && !p->color_loss)
        return;
    rep->l5 = fifth_percentile(r1);
    rep->hacuity_l5 = human_hacuity(rep->l5);
    /* The picture's pixels per degree at its centre, mean of both axes (pcond compares it
     * with cycles per degree). */
    rep->px_per_deg = (w / v->hn + h / v->vn) / (2.0 * 180.0 / PI);
    if (p->acuity && rep->hacuity_l5 >= rep->px_per_deg)
        rep->acuity = HUMAN_SKIP_ACUITY;
    if (p->color_loss && rep->l5 >= HT_TOP_MESOPIC)
        rep->color = HUMAN_SKIP_PHOTOPIC;
}

double human_color_loss(float c[3], double scale, const double wts[3])
{
    double lw = human_luminance(c, scale, wts);
    double incolor = lw >= HT_TOP_MESOPIC   ? 1.0
                     : lw <= HT_BOT_MESOPIC ? 0.0
                     : (lw - HT_BOT_MESOPIC) / (HT_TOP_MESOPIC - HT_BOT_MESOPIC);
    if (incolor >= 1.0 - HT_HUMAN_TINY)
        return incolor;
    double s = HT_SCOT_R * c[0] + HT_SCOT_G * c[1] + HT_SCOT_B * c[2];
    float grey = (float)((1.0 - incolor) * s);
    for (int ch = 0; ch < 3; ch++)
        c[ch] = incolor <= HT_HUMAN_TINY ? (float)s : (float)(c[ch] * incolor) + grey;
    return incolor;
}

void human_state_free(human_state *hs)
{
    free(hs->veil);
    free(hs->sr);
    hs->veil = hs->sr = NULL;
}

/* IMG with the veil added to every pixel (the samples of pixel sampling after the veil);
 * false when out of memory. */
static bool veiled_copy(const hdr_image *img, const human_state *hs, hdr_image *out)
{
    *out = *img;
    size_t n = (size_t)img->width * img->height;
    out->parts = NULL;
    out->half = NULL;
    if (!(out->rgba = malloc(n * 4 * sizeof *out->rgba)))
        return false;
    for (int row = 0; row < img->height; row++)
        for (int x = 0; x < img->width; x++) {
            size_t k = 4 * ((size_t)row * img->width + x);
            double v[3];
            human_foveal_lerp(hs->veil, hs->fw, hs->fh, 3, img->width, img->height, x, row, v);
            for (int c = 0; c < 3; c++)
                out->rgba[k + c] = (float)((1.0 - HT_VEIL_ADAPT) * img->rgba[k + c] + v[c]);
            out->rgba[k + 3] = img->rgba[k + 3];
        }
    return true;
}

/* Step 3: the veil from foveal image FOV (veiled in place), then the histogram again. */
static bool analyze_veil(const hdr_image *img, const tonemap_params *p1, const float *dirs,
                         float *fov, tonemap_stage_input *in, human_state *hs,
                         tonemap_result *r)
{
    size_t n = (size_t)hs->fw * hs->fh;
    if (!(hs->veil = malloc(n * 3 * sizeof *hs->veil)))
        return false;
    human_veil_image(hs->fw, hs->fh, dirs, fov, hs->veil);
    human_veil_foveal(n, hs->veil, fov);
    in->range_fits = hs->report.range_fits;
    if (p1->sampling == HT_SAMPLING_FOVEAL) {
        in->fov_rgb = fov;
        tonemap_cpu_analyze_input(img, p1, in, r);
        return true;
    }
    hdr_image veiled;
    if (!veiled_copy(img, hs, &veiled))
        return false;
    tonemap_cpu_analyze_input(&veiled, p1, in, r);
    free(veiled.rgba);
    return true;
}

/* Step 4's sample radii from the current foveal image FOV. */
static bool analyze_acuity(const hdr_image *img, const tonemap_params *p, const float *dirs,
                           const float *fov, human_state *hs)
{
    size_t n = (size_t)hs->fw * hs->fh;
    double wts[3];
    if (!(hs->sr = malloc(n * sizeof *hs->sr)))
        return false;
    tonemap_weights(p, wts);
    float max_sr = human_sample_radii(img->width, img->height, hs->fw, hs->fh, dirs, fov,
                                      p->scale, wts, hs->sr);
    hs->report.max_sr = max_sr;
    hs->report.root_level = human_root_level(max_sr, img->width, img->height);
    bool any = false;
    for (size_t k = 0; k < n; k++)
        any = any || hs->sr[k] > 1.0f;
    if (!any)
        hs->report.acuity = HUMAN_APPLIED_NOOP;
    return true;
}

bool human_cpu_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r,
                       human_state *hs_out)
{
    return human_cpu_analyze_exact(img, p, p->pcond, r, hs_out);
}

bool human_cpu_analyze_exact(const hdr_image *img, const tonemap_params *p, bool pcond_exact,
                             tonemap_result *r, human_state *hs_out)
{
    human_state local, *hs = hs_out ? hs_out : &local;
    memset(hs, 0, sizeof *hs);
    tonemap_params p1 = *p;
    p1.veil = p1.acuity = p1.color_loss = false;
    human_view_default(img->width, img->height, p->fov, &hs->view);
    tonemap_foveal_grid(img->width, img->height, p->fov, &hs->fw, &hs->fh);
    uint64_t state = 0;   /* one drand48 sequence over both histograms */
    tonemap_stage_input in = {NULL, &state, -1, pcond_exact};
    tonemap_cpu_analyze_input(img, &p1, &in, r);
    human_check2do(r, p, &hs->view, img->width, img->height, &hs->report);
    bool veil = hs->report.veil == HUMAN_APPLIED, acuity = hs->report.acuity == HUMAN_APPLIED;
    bool ok = true;
    if (veil || acuity) {
        int fw, fh;
        float *fov = NULL, *dirs = malloc((size_t)hs->fw * hs->fh * 3 * sizeof *dirs);
        ok = dirs && tonemap_cpu_foveal_image(img, p, &fw, &fh, &fov);
        if (ok)
            human_ray_dirs(&hs->view, fw, fh, dirs);
        ok = ok && (!veil || analyze_veil(img, &p1, dirs, fov, &in, hs, r));
        ok = ok && (!acuity || analyze_acuity(img, p, dirs, fov, hs));
        free(fov);
        free(dirs);
    }
    if (!ok) {   /* out of memory: nothing applied, the plain analysis */
        human_state_free(hs);
        hs->report.veil = hs->report.acuity = hs->report.color = HUMAN_NOT_REQUESTED;
        tonemap_cpu_analyze_input(img, &p1, NULL, r);
    }
    if (!hs_out)
        human_state_free(hs);
    return ok;
}

/* Acuity of pixel (x, row) into PX: the blend of the two pyramid levels around the
 * interpolated sample radius, linear in the radius (pcond acusample). */
static void acuity_pixel(const hdr_image *img, const human_state *hs, const human_pyramid *pyr,
                         int x, int row, float px[3], human_pixel *o)
{
    human_foveal_lerp(hs->sr, hs->fw, hs->fh, 1, img->width, img->height, x, row, &o->sr);
    if (!(o->sr >= 1.0) || !pyr)
        return;
    int top = hs->report.root_level < pyr->levels ? hs->report.root_level : pyr->levels;
    int s = top;
    while (s > 1 && o->sr < ldexp(1.0, s - 1))
        s--;
    double d = (ldexp(1.0, s) - o->sr) / ldexp(1.0, s - 1);
    d = d < 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
    float coarse[3], fine[3] = {px[0], px[1], px[2]};   /* level 0: the pixel itself */
    human_pyramid_sample(pyr, s, x, row, coarse);
    if (s > 1)
        human_pyramid_sample(pyr, s - 1, x, row, fine);
    for (int c = 0; c < 3; c++)
        px[c] = (float)(coarse[c] * (1.0 - d)) + (float)(fine[c] * d);
    o->level = s;
    o->d = d;
}

void human_cpu_pixel(const hdr_image *img, const tonemap_params *p, const human_state *hs,
                     const human_pyramid *pyr, int x, int row, human_pixel *o)
{
    const float *c = img->rgba + 4 * ((size_t)row * img->width + x);
    float px[3] = {c[0], c[1], c[2]};
    memset(o, 0, sizeof *o);
    o->incolor = 1.0;
    if (hs->sr && (hs->report.acuity == HUMAN_APPLIED || hs->report.acuity == HUMAN_APPLIED_NOOP))
        acuity_pixel(img, hs, pyr, x, row, px, o);
    memcpy(o->acu, px, sizeof px);
    if (hs->veil && hs->report.veil == HUMAN_APPLIED) {
        double v[3];
        human_foveal_lerp(hs->veil, hs->fw, hs->fh, 3, img->width, img->height, x, row, v);
        for (int ch = 0; ch < 3; ch++) {
            px[ch] = (float)((1.0 - HT_VEIL_ADAPT) * px[ch] + v[ch]);
            o->veil[ch] = (float)v[ch];
        }
    }
    if (hs->report.color == HUMAN_APPLIED) {
        double wts[3];
        tonemap_weights(p, wts);
        o->incolor = human_color_loss(px, p->scale, wts);
    }
    memcpy(o->pre, px, sizeof px);
}

bool human_cpu_prepare(const hdr_image *img, const tonemap_params *p, const human_state *hs,
                       float *pre)
{
    human_pyramid pyr;
    bool blur = hs->sr && hs->report.acuity == HUMAN_APPLIED;
    if (blur && !human_pyramid_build(img, hs->report.root_level, &pyr))
        return false;
    for (int row = 0; row < img->height; row++)
        for (int x = 0; x < img->width; x++) {
            human_pixel o;
            human_cpu_pixel(img, p, hs, blur ? &pyr : NULL, x, row, &o);
            memcpy(pre + 3 * ((size_t)row * img->width + x), o.pre, sizeof o.pre);
        }
    if (blur)
        human_pyramid_free(&pyr);
    return true;
}

void human_mapped_rgb(const tonemap_result *r, const tonemap_params *p, const float pre[3],
                      double out[3])
{
    double wts[3];
    tonemap_weights(p, wts);
    /* Lw in float as tonemap_cpu_apply computes it. */
    float lw = (float)p->scale * ((float)wts[0] * pre[0] + (float)wts[1] * pre[1] +
                                  (float)wts[2] * pre[2]);
    bool valid = isfinite(pre[0]) && isfinite(pre[1]) && isfinite(pre[2]) && isfinite(lw) &&
                 lw > 0.0f;
    double factor = valid ? tonemap_pixel_factor(r, p, lw) : 0.0;
    for (int c = 0; c < 3; c++)
        out[c] = valid ? p->scale * pre[c] * factor : 0.0;
}

float *human_cpu_pre(const hdr_image *img, const tonemap_params *p)
{
    size_t npix = (size_t)img->width * img->height;
    tonemap_result *r1 = malloc(sizeof *r1);
    float *pre = malloc(npix * 3 * sizeof *pre);
    human_state hs;
    bool ok = r1 && pre && human_cpu_analyze(img, p, r1, &hs);
    ok = ok && human_cpu_prepare(img, p, &hs, pre);
    if (r1 && pre)
        human_state_free(&hs);
    free(r1);
    if (!ok) {
        free(pre);
        pre = NULL;
    }
    return pre;
}
