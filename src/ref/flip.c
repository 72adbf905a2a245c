/* LDR-FLIP and HDR-FLIP on the CPU. The image is processed in bands of rows, each band on one
 * thread with its halo of filter-radius rows above and below, so the intermediates of the
 * separable filters need a band's memory, not the image's. Per pixel, in the tool's order:
 * linear RGB -> YCxCz; the spatial filters (x, then y); back to linear RGB, clamped; CIELab
 * with Hunt's adjustment; HyAB colour distance, remapped to [0, 1]. The feature filters
 * (edges, points) on the normalised achromatic channel; the feature difference raises the
 * colour error to 1 - feature. HDR-FLIP runs that per exposure on the tone-mapped images and
 * keeps the maximum. */
#include "flip.h"
#include "flip_color.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parallel.h"

enum { BAND_ROWS = 64 };

/* How a pixel of an input becomes the linear RGB in [0, 1] that LDR-FLIP compares. */
typedef struct flip_source {
    const float *rgb;
    int channels;
    bool hdr;
    float scale;              /* HDR: 2^exposure */
    flip_tonemapper tm;
} flip_source;

typedef struct flip_job {
    flip_source ref, test;
    int w, h;
    const flip_filters *f;
    flip_color_consts cc;
    float *map;
    bool max_into;            /* HDR: map = max(map, error) */
    int halo, workers, bands;
    float *scratch[PARALLEL_MAX_WORKERS];
} flip_job;

/* The tone mapper of the authors on one channel value X (Reinhard is done per pixel). */
static float tonemap_rational(const float *tc, float x)
{
    return ((x * x) * tc[0] + x * tc[1] + tc[2]) / ((x * x) * tc[3] + x * tc[4] + tc[5]);
}

static void source_rgb(const flip_source *s, size_t i, float out[3])
{
    const float *c = s->rgb + i * (size_t)s->channels;
    if (!s->hdr) {
        for (int k = 0; k < 3; k++)
            out[k] = flip_clamp01(c[k]);
        return;
    }
    float v[3] = {c[0] * s->scale, c[1] * s->scale, c[2] * s->scale};
    if (s->tm == FLIP_TM_REINHARD) {
        float f = 1.0f / (1.0f + (0.2126f * v[0] + 0.7152f * v[1] + 0.0722f * v[2]));
        for (int k = 0; k < 3; k++)
            out[k] = flip_clamp01(v[k] * f);
        return;
    }
    const float *tc = flip_tonemap_coefficients(s->tm);
    for (int k = 0; k < 3; k++)
        out[k] = flip_clamp01(tonemap_rational(tc, v[k]));
}

/* Linear RGB -> YCxCz. */
static void ycxcz_of_rgb(const float c[3], float out[3])
{
    float v[3];
    flip_rgb_to_xyz_white(c, v);
    out[0] = 116.0f * v[1] - 16.0f;
    out[1] = 500.0f * (v[0] - v[1]);
    out[2] = 200.0f * (v[1] - v[2]);
}

/* The colour error in [0, 1] of two filtered pixels (YCxCz): back to linear RGB clamped to
 * [0, 1], Hunt-adjusted CIELab, HyAB distance to the power 0.7, remapped so that the knee
 * pccmax maps to 0.95 and cmax to 1. */
static void rgb_of_ycxcz(const float in[3], float rgb[3])
{
    float yy = (in[0] + 16.0f) / 116.0f, cx = in[1] / 500.0f, cz = in[2] / 200.0f;
    float x = (yy + cx) * 0.950428545f, y = yy, z = (yy - cz) * 1.088900371f;
    rgb[0] = flip_clamp01(3.241003275f * x + -1.537398934f * y + -0.498615861f * z);
    rgb[1] = flip_clamp01(-0.969224334f * x + 1.875930071f * y + 0.041554224f * z);
    rgb[2] = flip_clamp01(0.055639423f * x + -0.204011202f * y + 1.057148933f * z);
}

static float color_error(const float ref[3], const float test[3], flip_color_consts cc)
{
    float c[3], a[3], b[3];
    rgb_of_ycxcz(ref, c);
    flip_rgb_to_hunt_lab(c, a);
    rgb_of_ycxcz(test, c);
    flip_rgb_to_hunt_lab(c, b);
    float e = powf(flip_hyab(a, b), FLIP_GQC);
    if (e < cc.pccmax)
        return e * (FLIP_GPT / cc.pccmax);
    return FLIP_GPT + ((e - cc.pccmax) / (cc.cmax - cc.pccmax)) * (1.0f - FLIP_GPT);
}

/* A band's rows [y0 - halo, y1 + halo) (clamped to the image) of one input: YCxCz padded by
 * HALO columns each side (the edge pixels repeated), then the x passes of both filters. */
typedef struct band_planes {
    float *ycc;     /* rows x (w + 2 halo) x 3 */
    float *sp;      /* rows x w x 4: Y, Cx, Cz1, Cz2 after the spatial x filters */
    float *ft;      /* rows x w x 3: dx, ddx, g of the normalised Y after the feature x filters */
} band_planes;

static void band_x(const flip_job *j, const flip_source *s, int y0, int rows, band_planes *p)
{
    const flip_filters *f = j->f;
    int w = j->w, halo = j->halo, wp = w + 2 * halo;
    int rs = f->spatial_radius, rf = f->feature_radius;
    for (int r = 0; r < rows; r++) {
        int sy = y0 - halo + r;
        sy = sy < 0 ? 0 : sy >= j->h ? j->h - 1 : sy;
        float *ycc = p->ycc + (size_t)r * wp * 3;
        for (int x = -halo; x < w + halo; x++) {
            int sx = x < 0 ? 0 : x >= w ? w - 1 : x;
            float rgb[3];
            source_rgb(s, (size_t)sy * w + sx, rgb);
            ycxcz_of_rgb(rgb, ycc + (size_t)(x + halo) * 3);
        }
        float *sp = p->sp + (size_t)r * w * 4, *ft = p->ft + (size_t)r * w * 3;
        for (int x = 0; x < w; x++) {
            const float *c = ycc + (size_t)(x + halo - rs) * 3;
            float a = 0, b = 0, z1 = 0, z2 = 0;
            for (int i = 0; i <= 2 * rs; i++, c += 3) {
                a += f->y[i] * c[0];
                b += f->cx[i] * c[1];
                z1 += f->cz1[i] * c[2];
                z2 += f->cz2[i] * c[2];
            }
            sp[x * 4 + 0] = a, sp[x * 4 + 1] = b, sp[x * 4 + 2] = z1, sp[x * 4 + 3] = z2;
            c = ycc + (size_t)(x + halo - rf) * 3;
            float dx = 0, ddx = 0, g = 0;
            for (int i = 0; i <= 2 * rf; i++, c += 3) {
                float yn = c[0] * (1.0f / 116.0f) + 16.0f / 116.0f;
                dx += f->dg[i] * yn;
                ddx += f->ddg[i] * yn;
                g += f->g[i] * yn;
            }
            ft[x * 3 + 0] = dx, ft[x * 3 + 1] = ddx, ft[x * 3 + 2] = g;
        }
    }
}

/* The y passes at column X of band row R (the output row): filtered YCxCz, and the edge and
 * point strengths. */
static void band_y(const flip_job *j, const band_planes *p, int r, int x, float ycc[3],
                   float *edge, float *point)
{
    const flip_filters *f = j->f;
    int w = j->w, rs = f->spatial_radius, rf = f->feature_radius;
    const float *sp = p->sp + ((size_t)(r - rs) * w + x) * 4;
    float a = 0, b = 0, z1 = 0, z2 = 0;
    for (int i = 0; i <= 2 * rs; i++, sp += (size_t)w * 4) {
        a += f->y[i] * sp[0];
        b += f->cx[i] * sp[1];
        z1 += f->cz1[i] * sp[2];
        z2 += f->cz2[i] * sp[3];
    }
    ycc[0] = a, ycc[1] = b, ycc[2] = z1 + z2;
    const float *ft = p->ft + ((size_t)(r - rf) * w + x) * 3;
    float dx = 0, ddx = 0, dy = 0, ddy = 0;
    for (int i = 0; i <= 2 * rf; i++, ft += (size_t)w * 3) {
        dx += f->g[i] * ft[0];
        ddx += f->g[i] * ft[1];
        dy += f->dg[i] * ft[2];
        ddy += f->ddg[i] * ft[2];
    }
    *edge = sqrtf(dx * dx + dy * dy);
    *point = sqrtf(ddx * ddx + ddy * ddy);
}

static void band_run(flip_job *j, float *scratch, int band)
{
    int w = j->w, halo = j->halo;
    int y0 = band * BAND_ROWS, y1 = y0 + BAND_ROWS < j->h ? y0 + BAND_ROWS : j->h;
    int rows = y1 - y0 + 2 * halo;
    size_t nycc = (size_t)rows * (w + 2 * halo) * 3, nsp = (size_t)rows * w * 4;
    size_t nft = (size_t)rows * w * 3;
    band_planes pr = {scratch, scratch + nycc, scratch + nycc + nsp};
    band_planes pt = {pr.ft + nft, pr.ft + nft + nycc, pr.ft + nft + nycc + nsp};
    band_x(j, &j->ref, y0, rows, &pr);
    band_x(j, &j->test, y0, rows, &pt);
    const float norm = 1.0f / sqrtf(2.0f);
    for (int y = y0; y < y1; y++) {
        float *out = j->map + (size_t)y * w;
        for (int x = 0; x < w; x++) {
            float cr[3], ct[3], er, pr_, et, pt_;
            band_y(j, &pr, y - y0 + halo, x, cr, &er, &pr_);
            band_y(j, &pt, y - y0 + halo, x, ct, &et, &pt_);
            float cd = color_error(cr, ct, j->cc);
            float de = fabsf(er - et), dp = fabsf(pr_ - pt_);
            float fd = powf(norm * (de > dp ? de : dp), FLIP_GQF);
            float e = powf(cd, 1.0f - fd);
            if (!j->max_into || e > out[x])
                out[x] = e;
        }
    }
}

static size_t scratch_floats(int w, int halo)
{
    size_t rows = BAND_ROWS + 2 * (size_t)halo;
    return 2 * rows * ((size_t)(w + 2 * halo) * 3 + (size_t)w * 7);
}

static void worker(void *ctx, int k)
{
    flip_job *j = ctx;
    for (int b = k; b < j->bands; b += j->workers)
        band_run(j, j->scratch[k], b);
}

static int thread_count(int threads)
{
    if (threads > 0)
        return threads < PARALLEL_MAX_WORKERS ? threads : PARALLEL_MAX_WORKERS;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static bool check_args(int w, int h, int channels, float ppd, char *err, size_t errlen)
{
    if (w <= 0 || h <= 0 || (channels != 3 && channels != 4)) {
        snprintf(err, errlen, "FLIP: bad image (%dx%d, %d channels)", w, h, channels);
        return false;
    }
    if (!(ppd >= FLIP_MIN_PPD && ppd <= FLIP_MAX_PPD)) {
        snprintf(err, errlen, "FLIP: %g pixels per degree is outside %g..%g", ppd,
                 FLIP_MIN_PPD, FLIP_MAX_PPD);
        return false;
    }
    return true;
}

/* One LDR-FLIP over the whole image with J's sources; scratch allocated per worker. */
static bool run_job(flip_job *j, int threads, char *err, size_t errlen)
{
    j->halo = j->f->spatial_radius > j->f->feature_radius ? j->f->spatial_radius
                                                          : j->f->feature_radius;
    j->bands = (j->h + BAND_ROWS - 1) / BAND_ROWS;
    j->workers = thread_count(threads);
    if (j->workers > j->bands)
        j->workers = j->bands;
    bool ok = true;
    for (int k = 0; k < j->workers; k++) {
        j->scratch[k] = malloc(scratch_floats(j->w, j->halo) * sizeof(float));
        ok = ok && j->scratch[k];
    }
    if (ok)
        parallel_run(j->workers, worker, j);
    else
        snprintf(err, errlen, "FLIP: out of memory for %d threads' bands", j->workers);
    for (int k = 0; k < j->workers; k++)
        free(j->scratch[k]);
    return ok;
}

static float ppd_of(const flip_params *p)
{
    return p->ppd > 0 ? p->ppd : flip_default_ppd();
}

bool flip_ldr(const float *ref, const float *test, int w, int h, int channels,
              const flip_params *p, float *map, char *err, size_t errlen)
{
    float ppd = ppd_of(p);
    if (!check_args(w, h, channels, ppd, err, errlen))
        return false;
    flip_filters f;
    flip_filters_make(ppd, &f);
    flip_job j = {.ref = {ref, channels, false, 1.0f, FLIP_TM_ACES},
                  .test = {test, channels, false, 1.0f, FLIP_TM_ACES},
                  .w = w, .h = h, .f = &f, .cc = flip_color_constants(), .map = map};
    return run_job(&j, p->threads, err, errlen);
}

bool flip_hdr(const float *ref, const float *test, int w, int h, int channels,
              const flip_params *p, const flip_exposures *ex, float *map, char *err,
              size_t errlen)
{
    float ppd = ppd_of(p);
    if (!check_args(w, h, channels, ppd, err, errlen))
        return false;
    flip_filters f;
    flip_filters_make(ppd, &f);
    memset(map, 0, (size_t)w * h * sizeof *map);
    for (int i = 0; i < ex->count; i++) {
        float scale = powf(2.0f, flip_exposure_at(ex, i));
        flip_job j = {.ref = {ref, channels, true, scale, p->tonemapper},
                      .test = {test, channels, true, scale, p->tonemapper},
                      .w = w, .h = h, .f = &f, .cc = flip_color_constants(), .map = map,
                      .max_into = true};
        if (!run_job(&j, p->threads, err, errlen))
            return false;
    }
    return true;
}
