/* The CPU reference of every GPU pass, in plain C: the oracle the tests hold the GPU to.
 * It follows the same steps with the same float inputs (Lw is computed in float exactly as
 * the shaders do, so both sides classify pixels alike) and does the rest in double. */
#include "tonemap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tonemap_params_default(tonemap_params *p)
{
    memset(p, 0, sizeof *p);
    p->bins = 100;
    p->ldmax = 100.0;
    p->drange = 100.0;
    p->ceiling = HT_CEILING_LINEAR;
    p->transfer = HT_TRANSFER_SRGB;
    p->gamma = 2.2;
    p->scale = 1.0;
}

const char *tonemap_mapping_name(unsigned mapping)
{
    switch (mapping) {
    case HT_MAP_HISTOGRAM: return "histogram";
    case HT_MAP_LINEAR_FITS: return "linear (scene range fits the display)";
    case HT_MAP_LINEAR_GAVE_UP: return "linear (ceiling loop gave up: no compression needed)";
    case HT_MAP_EQUALIZE: return "histogram equalisation (no ceiling)";
    default: return "none (no pixel with positive finite luminance)";
    }
}

/* Pixel classes, as in common.glsl's ht_classify. */
enum { PIX_VALID, PIX_NONFINITE, PIX_NONPOSITIVE };

static int classify(const float *c, float scale, float *lw)
{
    *lw = scale * ((float)HT_LUM_R * c[0] + (float)HT_LUM_G * c[1] + (float)HT_LUM_B * c[2]);
    if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2]) || !isfinite(*lw))
        return PIX_NONFINITE;
    return *lw > 0.0f ? PIX_VALID : PIX_NONPOSITIVE;
}

/* The range step (pass_range): bw_min/bw_max, thresholds, widened; WARD97.md. */
static void compute_range(const tonemap_params *p, tonemap_result *r)
{
    int n = p->bins;
    double bwmin, bwmax;
    r->widened = 0;
    if (p->lmin > 0 && p->lmax > p->lmin) {
        bwmin = log(p->lmin);
        bwmax = log(p->lmax);
    } else {
        double lwmax = fmin(1.01 * r->lw_max, HT_LMAX);
        bwmax = log(lwmax);
        if (r->lw_min < HT_LMIN) {
            bwmin = log(HT_LMIN);
        } else {
            /* Duplicate the bottom bin (pcond): the darkest sample starts bin 1. */
            double span = fmax(bwmax - log(r->lw_min), log(1.01));
            bwmin = bwmax - span * n / (n - 1);
            r->widened = 1;
        }
        if (bwmin >= bwmax)
            bwmin = bwmax - log(1.01);
    }
    r->bw_min = (float)bwmin;
    r->bw_max = (float)bwmax;
    r->lo_thresh = (float)fmax(exp(bwmin), HT_LMIN);
    r->hi_thresh = (float)exp(bwmax);
}

static int bin_of(const tonemap_result *r, double lw)
{
    int n = (int)r->bins;
    int i = (int)floor(n * (log(lw) - r->bw_min) / ((double)r->bw_max - r->bw_min));
    /* With the duplicated bottom bin the darkest sample sits exactly on the edge of bin 1;
     * rounding must not move it into bin 0, which is empty by construction. */
    int lowest = r->widened ? 1 : 0;
    return i < lowest ? lowest : i >= n ? n - 1 : i;
}

/* The curve step (pass_curve): bottom-bin rule, ceiling iteration, cumf, linear scale. */
static void compute_curve(const tonemap_params *p, tonemap_result *r)
{
    int n = (int)r->bins;
    double f[HT_MAX_BINS], start[HT_MAX_BINS];
    for (int i = 0; i < n; i++)
        f[i] = r->hist[i];
    if (r->widened) {
        double half = f[1] * 0.5;
        f[1] -= half;
        f[0] += half;
    }
    double t0 = 0;
    for (int i = 0; i < n; i++)
        t0 += f[i];
    double ldmin = p->ldmax / p->drange;
    double db = ((double)r->bw_max - r->bw_min) / n;
    r->hist_total = (float)t0;
    r->iterations = 0;
    r->final_total = (float)t0;
    r->linear_scale = r->n_counted
        ? (float)(sqrt(ldmin * p->ldmax) / exp((double)r->ln_avg)) : 0.0f;
    memcpy(start, f, sizeof(double) * n);

    if (r->n_valid == 0) {
        r->mapping = HT_MAP_NONE;
    } else if (p->ceiling == HT_CEILING_NONE || t0 <= 0) {
        r->mapping = t0 > 0 ? HT_MAP_EQUALIZE : HT_MAP_HISTOGRAM;
    } else if ((double)r->bw_max - r->bw_min <= log(p->drange)) {
        r->mapping = HT_MAP_LINEAR_FITS;
    } else {
        r->mapping = HT_MAP_HISTOGRAM;
        double ceiling_ratio = db / log(p->drange);
        for (;;) {
            double t = 0;
            for (int i = 0; i < n; i++)
                t += f[i];
            memcpy(start, f, sizeof(double) * n); /* the curve uses this pass's start */
            r->final_total = (float)t;
            if (t <= HT_CVRATIO * t0) {
                r->mapping = HT_MAP_LINEAR_GAVE_UP;
                break;
            }
            double ceiling = t * ceiling_ratio, trimmings = 0;
            for (int i = 0; i < n; i++)
                if (f[i] > ceiling) {
                    trimmings += f[i] - ceiling;
                    f[i] = ceiling;
                }
            r->iterations++;
            if (trimmings <= HT_CVRATIO * t || r->iterations >= HT_MAX_CEILING_ITERATIONS)
                break;
        }
    }
    for (int i = 0; i < n; i++)
        r->trimmed[i] = (float)f[i];
    /* cumf at the bin edges; an empty histogram gives a straight log-log line. */
    double total = 0;
    for (int i = 0; i < n; i++)
        total += start[i];
    double acc = 0;
    r->cumf[0] = 0.0f;
    for (int i = 0; i < n; i++) {
        acc += start[i];
        r->cumf[i + 1] = (float)(total > 0 ? acc / total : (double)(i + 1) / n);
    }
    r->cumf[n] = 1.0f;
}

void tonemap_cpu_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r)
{
    memset(r, 0, sizeof *r);
    size_t npix = (size_t)img->width * img->height;
    float scale = (float)p->scale;
    double lw_min = INFINITY, lw_max = 0;
    r->n_total = (uint32_t)npix;
    r->bins = (uint32_t)p->bins;
    for (size_t k = 0; k < npix; k++) {
        float lw;
        switch (classify(img->rgba + 4 * k, scale, &lw)) {
        case PIX_VALID:
            r->n_valid++;
            lw_min = fmin(lw_min, lw);
            lw_max = fmax(lw_max, lw);
            break;
        case PIX_NONFINITE: r->n_nonfinite++; break;
        default: r->n_nonpositive++; break;
        }
    }
    r->lw_min = r->n_valid ? (float)lw_min : 0.0f;
    r->lw_max = (float)lw_max;
    if (r->n_valid == 0) {
        r->bw_min = 0.0f;
        r->bw_max = 1.0f;
        compute_curve(p, r);
        return;
    }
    compute_range(p, r);

    double sum_ln = 0;
    for (size_t k = 0; k < npix; k++) {
        float lw;
        if (classify(img->rgba + 4 * k, scale, &lw) != PIX_VALID || lw < r->lo_thresh ||
            lw >= r->hi_thresh)
            continue;
        r->hist[bin_of(r, lw)]++;
        r->n_counted++;
        sum_ln += log(lw);
    }
    r->ln_avg = r->n_counted ? (float)(sum_ln / r->n_counted) : 0.0f;
    compute_curve(p, r);
}

double tonemap_curve_ld(const tonemap_result *r, const tonemap_params *p, double lw)
{
    double ldmin = p->ldmax / p->drange;
    switch (r->mapping) {
    case HT_MAP_HISTOGRAM:
    case HT_MAP_EQUALIZE: {
        double b = log(lw);
        if (!(b > r->bw_min))
            return ldmin;
        if (b >= r->bw_max)
            return p->ldmax;
        int n = (int)r->bins;
        double x = n * (b - r->bw_min) / ((double)r->bw_max - r->bw_min);
        int i = (int)floor(x);
        i = i < 0 ? 0 : i >= n ? n - 1 : i;
        double cf = r->cumf[i] + (x - i) * ((double)r->cumf[i + 1] - r->cumf[i]);
        return exp(log(ldmin) + cf * log(p->drange));
    }
    case HT_MAP_LINEAR_FITS:
    case HT_MAP_LINEAR_GAVE_UP:
        return fmin(fmax(lw * r->linear_scale, ldmin), p->ldmax);
    default:
        return ldmin;
    }
}

double tonemap_pixel_factor(const tonemap_result *r, const tonemap_params *p, double lw)
{
    if (!(lw >= HT_LMIN))
        return 0.0;
    double ldmin = p->ldmax / p->drange;
    switch (r->mapping) {
    case HT_MAP_HISTOGRAM:
    case HT_MAP_EQUALIZE:
        return (tonemap_curve_ld(r, p, lw) - ldmin) / ((p->ldmax - ldmin) * lw);
    case HT_MAP_LINEAR_FITS:
    case HT_MAP_LINEAR_GAVE_UP:
        return r->linear_scale / p->ldmax; /* pcond sfscan: out = rgb * Ld/Lw / Ldmax */
    default:
        return 0.0;
    }
}

uint8_t tonemap_encode(const tonemap_params *p, double v)
{
    if (!(v > 0.0))
        return 0;
    if (v >= 1.0)
        return 255;
    if (p->transfer == HT_TRANSFER_GAMMA)
        v = pow(v, 1.0 / p->gamma);
    else
        v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
    return (uint8_t)(v * 255.0 + 0.5);
}

void tonemap_cpu_apply(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                       uint8_t *rgb)
{
    size_t npix = (size_t)img->width * img->height;
    float scale = (float)p->scale;
    for (size_t k = 0; k < npix; k++) {
        const float *c = img->rgba + 4 * k;
        float lw;
        double factor = classify(c, scale, &lw) == PIX_VALID ? tonemap_pixel_factor(r, p, lw) : 0;
        for (int ch = 0; ch < 3; ch++)
            rgb[3 * k + ch] = tonemap_encode(p, (double)scale * c[ch] * factor);
    }
}
