/* The CPU reference of every GPU pass, in plain C: the oracle the tests hold the GPU to.
 * It follows the same steps with the same float inputs (Lw is computed in float exactly as
 * the shaders do, so both sides classify pixels alike) and does the rest in double. */
#include "tonemap.h"

#include "encode.h"
#include "transfer.h"
#include "human.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

void tonemap_foveal_grid(int w, int h, double fov, int *fw, int *fh)
{
    /* pcond: a perspective view FOV degrees across the longer side; one foveal pixel per
     * degree of the view's width at the image plane, 2 tan(half angle) / (pi / 180). */
    double t = tan(fov * PI / 360.0) / (w > h ? w : h);
    int x = (int)(2.0 * t * w / (PI / 180.0) + 0.5), y = (int)(2.0 * t * h / (PI / 180.0) + 0.5);
    x = x < 2 ? 2 : x;
    y = y < 2 ? 2 : y;
    *fw = x < w ? x : w;
    *fh = y < h ? y : h;
}

uint32_t tonemap_point_count(int w, int h, int fw, int fh)
{
    uint64_t n = (uint64_t)HT_POINTS_PER_FOVEAL * fw * fh, np = (uint64_t)w * h;
    return (uint32_t)(n < np ? n : np);
}

bool tonemap_point_positions(int w, int h, uint32_t n, uint32_t *xy)
{
    uint64_t state = 0;   /* glibc's drand48 when never seeded */
    return tonemap_point_walk(w, h, n, &state, xy);
}

bool tonemap_point_walk(int w, int h, uint32_t n, uint64_t *state_io, uint32_t *xy)
{
    /* drand48: X' = (a X + c) mod 2^48. */
    const uint64_t a = 0x5DEECE66DULL, c = 0xB, mask = (1ULL << 48) - 1;
    uint64_t state = *state_io;
    long long npleft = (long long)w * h, left = 0;
    int row = -1;
    while (n > 0) {
        if (left <= 0) {             /* next scanline, top row first */
            if (++row >= h) {
                *state_io = state;
                return false;
            }
            left = w;
        }
        state = (a * state + c) & mask;
        double r = (double)state / 281474976710656.0, cum = 0.0;
        long long skip = 0;          /* a geometric-like distance to the next sample */
        while ((cum += (1.0 - cum) * n / (double)(npleft - skip)) < r)
            skip++;
        skip++;
        if (left < skip) {           /* past this scanline: the draw is lost */
            npleft -= left;
            left = 0;
            continue;
        }
        left -= skip;                /* walks from the right end of the row to the left */
        xy[--n] = (uint32_t)left | (uint32_t)row << 16;
        npleft -= skip;
    }
    *state_io = state;
    return true;
}

void tonemap_luminance_weights(int luminance, double w[3])
{
    bool rad = luminance == HT_LUMINANCE_RADIANCE;
    w[0] = rad ? HT_RAD_LUM_R : HT_LUM_R;
    w[1] = rad ? HT_RAD_LUM_G : HT_LUM_G;
    w[2] = rad ? HT_RAD_LUM_B : HT_LUM_B;
}

void tonemap_weights(const tonemap_params *p, double w[3])
{
    if (p->luminance == HT_LUMINANCE_FILE)
        memcpy(w, p->colour.lum, 3 * sizeof(double));
    else
        tonemap_luminance_weights(p->luminance, w);
}

void tonemap_float_weights(const tonemap_params *p, float w[3])
{
    double d[3];
    tonemap_weights(p, d);
    for (int i = 0; i < 3; i++)
        w[i] = (float)d[i];
}

double tonemap_tvi(double la)
{
    /* Ferwerda et al. 1996 threshold-versus-intensity, log10 units (docs/operator.md table). */
    if (la < 1.148e-4)
        return 1.38e-3;
    double x = log10(la), y;
    if (x < -1.44)
        y = pow(0.405 * x + 1.6, 2.18) - 2.86;
    else if (x < -0.0184)
        y = x - 0.395;
    else if (x < 1.9)
        y = pow(0.249 * x + 0.65, 2.7) - 0.72;
    else
        y = x - 1.255;
    return pow(10.0, y);
}

/* Lw of a pixel in float, as the shaders compute it ('precise': no fused multiply-add). */
static int classify(const float *c, float scale, const float w[3], float *lw)
{
    *lw = scale * (w[0] * c[0] + w[1] * c[1] + w[2] * c[2]);
    if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2]) || !isfinite(*lw))
        return HT_PIX_NONFINITE;
    return *lw > 0.0f ? HT_PIX_VALID : HT_PIX_NONPOSITIVE;
}

/* The histogram's samples: Lw per sample, NaN for a non-finite one. */
typedef struct sample_set {
    float *lw;
    size_t n;
    bool points;                  /* pcond keeps these in float (else in double) */
    double exact_min, exact_max;  /* tonemap_stage_input.pcond_exact: the extremes of the
                                     valid samples as pcond holds them */
} sample_set;

static int class_of(float lw)
{
    return !isfinite(lw) ? HT_PIX_NONFINITE : lw > 0.0f ? HT_PIX_VALID : HT_PIX_NONPOSITIVE;
}

/* tonemap_pcond_lw of a valid pixel C with the float weights W. */
static double pcond_lw(const float *c, float scale, const float w[3])
{
    float s[3];
    for (int i = 0; i < 3; i++)
        s[i] = (float)((double)scale * c[i] / HT_WHTEFFICACY);
    return HT_WHTEFFICACY * ((w[0] * s[0] + w[1] * s[1]) + w[2] * s[2]);
}

double tonemap_pcond_lw(const float c[3], const tonemap_params *p)
{
    float w[3], lw, scale = (float)p->scale;
    tonemap_float_weights(p, w);
    return classify(c, scale, w, &lw) == HT_PIX_VALID ? pcond_lw(c, scale, w) : NAN;
}

/* Sample K of SET from pixel C. EXACT: a valid sample's Lw as pcond computes it
 * (tonemap_pcond_lw), into SET's exact extremes. */
static void sample_pixel(const float *c, float scale, const float w[3], bool exact,
                         sample_set *set, size_t k)
{
    float lw;
    int cls = classify(c, scale, w, &lw);
    if (exact && cls == HT_PIX_VALID) {
        double le = pcond_lw(c, scale, w);
        lw = (float)le;
        le = set->points ? lw : le;
        set->exact_min = fmin(set->exact_min, le);
        set->exact_max = fmax(set->exact_max, le);
    }
    set->lw[k] = cls == HT_PIX_NONFINITE ? NAN : lw;
}

/* Foveal image (pass_foveal): the box average of linear RGB over the pixels (x, row) with
 * floor(x fw / W) = c and floor(row fh / H) = r, non-finite pixels left out (a box without
 * a finite pixel is black). RGB, fw * fh * 3 floats, top row first. */
static bool foveal_rgb(const hdr_image *img, int fw, int fh, float *rgb)
{
    size_t nf = (size_t)fw * fh;
    double *sum = calloc(nf * 4, sizeof *sum);
    if (!sum)
        return false;
    for (int row = 0; row < img->height; row++) {
        size_t r = (size_t)((long long)row * fh / img->height);
        tonemap_foveal_add_row(img, row, fw, sum + 4 * r * fw);
    }
    tonemap_foveal_average(sum, nf, rgb);
    free(sum);
    return true;
}

void tonemap_foveal_add_row(const hdr_image *img, int row, int fw, double *boxes)
{
    const float *c = img->rgba + 4 * (size_t)row * img->width;
    for (int x = 0; x < img->width; x++, c += 4) {
        if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2]))
            continue;
        double *s = boxes + 4 * (size_t)((long long)x * fw / img->width);
        s[0] += c[0];
        s[1] += c[1];
        s[2] += c[2];
        s[3] += 1.0;
    }
}

void tonemap_foveal_average(const double *sum, size_t nf, float *rgb)
{
    for (size_t k = 0; k < nf; k++)
        for (int ch = 0; ch < 3; ch++)
            rgb[3 * k + ch] = sum[4 * k + 3] > 0 ? (float)(sum[4 * k + ch] / sum[4 * k + 3]) : 0.0f;
}

void tonemap_rgbe_round(float rgb[3], double unit)
{
    /* On the values in UNITs; colr_color would read a 0 mantissa back as half a step. */
    double v[3] = {rgb[0] / unit, rgb[1] / unit, rgb[2] / unit};
    uint8_t rgbe[4];
    float back[3];
    encode_rgbe(v[0], v[1], v[2], rgbe);
    decode_rgbe(rgbe, true, back);
    for (int c = 0; c < 3; c++)
        rgb[c] = v[c] > 0 ? (float)(back[c] * unit) : 0.0f;
}

void tonemap_foveal_pcond_round(const tonemap_params *p, float *rgb, size_t nf)
{
    if (p->pcond)   /* pcond reads its foveal image back from pfilt's RGBE output */
        for (size_t k = 0; k < nf; k++)
            tonemap_rgbe_round(rgb + 3 * k, HT_WHTEFFICACY / p->scale);
}

bool tonemap_cpu_foveal_image(const hdr_image *img, const tonemap_params *p, int *fw, int *fh,
                              float **rgb)
{
    tonemap_foveal_grid(img->width, img->height, p->fov, fw, fh);
    *rgb = malloc((size_t)*fw * *fh * 3 * sizeof **rgb);
    if (!*rgb || !foveal_rgb(img, *fw, *fh, *rgb)) {
        free(*rgb);
        *rgb = NULL;
        return false;
    }
    tonemap_foveal_pcond_round(p, *rgb, (size_t)*fw * *fh);
    return true;
}

/* The samples of P's sampling mode: the main set (every pixel, or the foveal image: IN's or
 * IMG's) and the point samples (foveal with point_samples, from IN's state; else empty). */
static bool make_samples(const hdr_image *img, const tonemap_params *p,
                         const tonemap_stage_input *in, tonemap_result *r,
                         sample_set *main_set, sample_set *points)
{
    float w[3], scale = (float)p->scale;
    bool exact = in && in->pcond_exact;
    tonemap_float_weights(p, w);
    *main_set = (sample_set){.exact_min = INFINITY};
    *points = (sample_set){.points = true, .exact_min = INFINITY};
    if (p->sampling != HT_SAMPLING_FOVEAL) {
        main_set->n = (size_t)img->width * img->height;
        if (!(main_set->lw = malloc(main_set->n * sizeof(float))))
            return false;
        for (size_t k = 0; k < main_set->n; k++)
            sample_pixel(img->rgba + 4 * k, scale, w, exact, main_set, k);
        return true;
    }
    int fw, fh;
    float *rgb = NULL;
    if (in && in->fov_rgb)
        tonemap_foveal_grid(img->width, img->height, p->fov, &fw, &fh);
    else if (!tonemap_cpu_foveal_image(img, p, &fw, &fh, &rgb))
        return false;
    const float *fov = rgb ? rgb : in->fov_rgb;
    r->fov_width = (uint32_t)fw;
    r->fov_height = (uint32_t)fh;
    main_set->n = (size_t)fw * fh;
    main_set->lw = malloc(main_set->n * sizeof(float));
    for (size_t k = 0; main_set->lw && k < main_set->n; k++) {
        float c[3] = {fov[3 * k], fov[3 * k + 1], fov[3 * k + 2]};
        sample_pixel(c, scale, w, exact, main_set, k);
    }
    free(rgb);
    if (!main_set->lw)
        return false;
    if (!p->point_samples)
        return true;
    uint32_t n = tonemap_point_count(img->width, img->height, fw, fh);
    uint32_t *xy = malloc((size_t)n * sizeof *xy);
    points->lw = malloc((size_t)n * sizeof(float));
    uint64_t state0 = 0, *state = in && in->rand_state ? in->rand_state : &state0;
    bool ok = xy && points->lw && tonemap_point_walk(img->width, img->height, n, state, xy);
    for (uint32_t k = 0; ok && k < n; k++) {
        size_t x = xy[k] & 0xffffu, y = xy[k] >> 16;
        sample_pixel(img->rgba + 4 * (y * img->width + x), scale, w, exact, points, k);
    }
    free(xy);
    if (!ok)
        return false;
    points->n = n;
    r->n_points = n;
    return true;
}

/* The bottom of a widened automatic range (pcond's duplicated bottom bin): the darkest
 * sample starts bin 1. */
static double widened_bwmin(double bwmax, double lw_min, int n)
{
    return bwmax - fmax(bwmax - log(lw_min), log(1.01)) * n / (n - 1);
}

/* Ward Larson et al. 1997 (docs/operator.md, Range and bins). With pcond's rules (pcond3.c
 * comphist) a sample with Lw <= 0 also drops the bottom to LMIN, and the thresholds keep
 * HT_FTINY off the range's ends. */
void tonemap_cpu_range(const tonemap_params *p, tonemap_result *r)
{
    int n = p->bins;
    double bwmin, bwmax, lo, hi;
    r->widened = 0;
    if (p->lmin > 0 && p->lmax > p->lmin) {
        bwmin = log(p->lmin);
        bwmax = log(p->lmax);
        lo = fmax(exp(bwmin), HT_LMIN);
        hi = exp(bwmax);
    } else {
        double lwmax = fmin(1.01 * r->lw_max, HT_LMAX);
        bool black = p->pcond && r->n_nonpositive > 0;
        bwmax = log(lwmax);
        if (r->lw_min < HT_LMIN || black) {
            bwmin = log(HT_LMIN);
        } else {
            /* Duplicate the bottom bin (pcond): the darkest sample starts bin 1. */
            bwmin = widened_bwmin(bwmax, r->lw_min, n);
            r->widened = 1;
        }
        if (bwmin >= bwmax)
            bwmin = bwmax - log(1.01);
        if (p->pcond) {
            lo = exp(bwmin) + HT_FTINY;
            hi = lwmax - HT_FTINY;
            r->widened = r->widened && exp(bwmin) > HT_LMIN + HT_FTINY;
        } else {
            lo = fmax(exp(bwmin), HT_LMIN);
            hi = exp(bwmax);
        }
    }
    r->bw_min = (float)bwmin;
    r->bw_max = (float)bwmax;
    r->lo_thresh = (float)lo;
    r->hi_thresh = (float)hi;
}

int tonemap_bin_of_log(const tonemap_result *r, double b)
{
    int n = (int)r->bins;
    int i = (int)floor(n * (b - r->bw_min) / ((double)r->bw_max - r->bw_min));
    /* With the duplicated bottom bin the darkest sample sits exactly on the edge of bin 1;
     * rounding must not move it into bin 0, which is empty by construction. */
    int lowest = r->widened ? 1 : 0;
    return i < lowest ? lowest : i >= n ? n - 1 : i;
}

/* cumf[0..n] of the histogram F (cumf[i] = sum of f_j, j < i, over the total). */
static void make_cumf(const double *f, int n, double *cumf)
{
    double total = 0, acc = 0;
    for (int i = 0; i < n; i++)
        total += f[i];
    cumf[0] = 0.0;
    for (int i = 0; i < n; i++) {
        acc += f[i];
        cumf[i + 1] = total > 0 ? acc / total : (double)(i + 1) / n;
    }
    cumf[n] = 1.0;
}

void tonemap_cpu_weights(const tonemap_result *r, double *f)
{
    int n = (int)r->bins;
    double w = r->n_points ? (double)r->pt_weight : 0.0;
    for (int i = 0; i < n; i++)
        f[i] = r->hist[i] + w * r->pt_hist[i];
    if (r->widened) {
        double half = f[1] * 0.5;
        f[1] -= half;
        f[0] += half;
    }
}

/* The curve step (pass_curve) from the weights F_IN (tonemap_cpu_weights): ceiling
 * iteration, cumf, linear scale. FITS: tonemap_stage_input's range_fits. */
static void curve_from_weights(const tonemap_params *p, int fits, const double *f_in,
                               tonemap_result *r)
{
    int n = (int)r->bins;
    double f[HT_MAX_BINS], start[HT_MAX_BINS], cumf[HT_MAX_BINS + 1];
    memcpy(f, f_in, sizeof(double) * n);
    double t0 = 0;
    for (int i = 0; i < n; i++)
        t0 += f[i];
    double ldmin = p->ldmax / p->drange;
    double db = ((double)r->bw_max - r->bw_min) / n;
    bool human = p->ceiling == HT_CEILING_HUMAN;
    r->hist_total = (float)t0;
    r->iterations = 0;
    r->final_total = (float)t0;
    double lwa = exp((double)r->ln_avg), ldmid = sqrt(ldmin * p->ldmax);
    r->linear_scale = r->n_counted + r->pt_counted == 0 ? 0.0f
                      : (float)(human ? tonemap_tvi(ldmid) / tonemap_tvi(lwa) : ldmid / lwa);
    memcpy(start, f, sizeof(double) * n);

    if (r->n_valid == 0) {
        r->mapping = HT_MAP_NONE;
    } else if (p->force_linear) {
        r->mapping = HT_MAP_LINEAR_FORCED;
    } else if (p->ceiling == HT_CEILING_NONE || t0 <= 0) {
        r->mapping = t0 > 0 ? HT_MAP_EQUALIZE : HT_MAP_HISTOGRAM;
    } else if (fits < 0 ? (double)r->bw_max - r->bw_min <= log(p->drange) : fits > 0) {
        r->mapping = HT_MAP_LINEAR_FITS;
    } else {
        r->mapping = HT_MAP_HISTOGRAM;
        double ldr = log(p->drange);
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
            if (human)   /* the ceiling follows the current curve (pcond3.c clampf) */
                make_cumf(f, n, cumf);
            double trimmings = 0;
            for (int i = 0; i < n; i++) {
                double ceiling = t * db / ldr;
                if (human) {
                    double lw = exp(r->bw_min + (i + 0.5) * db);
                    double ld = exp(log(ldmin) + 0.5 * (cumf[i] + cumf[i + 1]) * ldr);
                    ceiling *= tonemap_tvi(ld) / tonemap_tvi(lw) * lw / ld;
                }
                if (f[i] > ceiling) {
                    trimmings += f[i] - ceiling;
                    f[i] = ceiling;
                }
            }
            r->iterations++;
            if (trimmings <= HT_CVRATIO * t || r->iterations >= HT_MAX_CEILING_ITERATIONS)
                break;
        }
    }
    for (int i = 0; i < n; i++)
        r->trimmed[i] = (float)f[i];
    /* cumf at the bin edges; an empty histogram gives a straight log-log line. */
    make_cumf(start, n, cumf);
    for (int i = 0; i <= n; i++)
        r->cumf[i] = (float)cumf[i];
}

void tonemap_cpu_curve_weights(const tonemap_params *p, const double *f, tonemap_result *r)
{
    curve_from_weights(p, -1, f, r);
}

/* The curve step (pass_curve) of r's own histogram. */
void tonemap_cpu_curve(const tonemap_params *p, int fits, tonemap_result *r)
{
    double f[HT_MAX_BINS];
    tonemap_cpu_weights(r, f);
    curve_from_weights(p, fits, f, r);
}

/* Classes and min/max of a sample set into r's counts. */
static void scan_set(const sample_set *s, tonemap_result *r, double *lw_min, double *lw_max)
{
    for (size_t k = 0; k < s->n; k++) {
        switch (class_of(s->lw[k])) {
        case HT_PIX_VALID:
            r->n_valid++;
            *lw_min = fmin(*lw_min, s->lw[k]);
            *lw_max = fmax(*lw_max, s->lw[k]);
            break;
        case HT_PIX_NONFINITE: r->n_nonfinite++; break;
        default: r->n_nonpositive++; break;
        }
    }
}

int tonemap_darkest_bin(int n, double lo, double hi)
{
    double bwmax = log(fmin(1.01 * hi, HT_LMAX));
    double bwmin = widened_bwmin(bwmax, lo, n);
    int i = (int)(n * (log(lo) - bwmin) / (bwmax - bwmin));
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Bins a sample set with r's binning; returns the sum of ln Lw of the samples binned.
 * DARK >= 0: the bin of the samples at DARK_LW (tonemap_darkest_bin). */
static double bin_set(const sample_set *s, tonemap_result *r, int dark, double dark_lw,
                      uint32_t *hist, uint32_t *counted)
{
    double sum_ln = 0;
    for (size_t k = 0; k < s->n; k++) {
        float lw = s->lw[k];
        if (class_of(lw) != HT_PIX_VALID || lw < r->lo_thresh || lw >= r->hi_thresh)
            continue;
        hist[dark >= 0 && lw == dark_lw ? dark : tonemap_bin_of_log(r, log(lw))]++;
        (*counted)++;
        sum_ln += log(lw);
    }
    return sum_ln;
}

void tonemap_cpu_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r)
{
    if (human_requested(p))
        human_cpu_analyze(img, p, r, NULL);
    else
        tonemap_cpu_analyze_input(img, p, NULL, r);
}

void tonemap_cpu_analyze_input(const hdr_image *img, const tonemap_params *p,
                               const tonemap_stage_input *in, tonemap_result *r)
{
    memset(r, 0, sizeof *r);
    sample_set main_set, points;
    int fits = in ? in->range_fits : -1;
    r->bins = (uint32_t)p->bins;
    r->pcond_rules = p->pcond;
    if (!make_samples(img, p, in, r, &main_set, &points)) {
        /* Out of memory: report no valid sample (everything black) rather than crash. */
        free(main_set.lw);
        free(points.lw);
        r->bw_max = 1.0f;
        tonemap_cpu_curve(p, fits, r);
        return;
    }
    double lw_min = INFINITY, lw_max = 0;
    r->n_total = (uint32_t)(main_set.n + points.n);
    scan_set(&main_set, r, &lw_min, &lw_max);
    size_t valid_main = r->n_valid, nonfinite_main = r->n_nonfinite;
    scan_set(&points, r, &lw_min, &lw_max);
    r->pt_valid = r->n_valid - (uint32_t)valid_main;
    r->pt_nonfinite = r->n_nonfinite - (uint32_t)nonfinite_main;
    r->lw_min = r->n_valid ? (float)lw_min : 0.0f;
    r->lw_max = (float)lw_max;
    if (r->n_valid == 0) {
        r->bw_min = 0.0f;
        r->bw_max = 1.0f;
        tonemap_cpu_curve(p, fits, r);
    } else {
        tonemap_cpu_range(p, r);
        int dark = -1;
        double lo = fmin(main_set.exact_min, points.exact_min);
        if (in && in->pcond_exact && r->widened)
            dark = tonemap_darkest_bin(p->bins, lo, fmax(main_set.exact_max, points.exact_max));
        /* pcond holds the foveal samples' Lw in double: one at the float minimum of the
         * point samples is above it, in bin 1. */
        double sum_main = bin_set(&main_set, r, -1, 0.0, r->hist, &r->n_counted);
        double sum_pts = bin_set(&points, r, dark, lo, r->pt_hist, &r->pt_counted);
        tonemap_cpu_finish(p, fits, sum_main, sum_pts, r);
    }
    free(main_set.lw);
    free(points.lw);
}

void tonemap_cpu_finish(const tonemap_params *p, int fits, double sum_main, double sum_pts,
                        tonemap_result *r)
{
    r->pt_sum_ln = (float)sum_pts;
    /* pcond: a point sample weighs (counted foveal samples) / (point samples taken). */
    r->pt_weight = r->n_points ? (float)r->n_counted / (float)r->n_points : 0.0f;
    double w = r->pt_weight, total = r->n_counted + w * r->pt_counted;
    r->ln_avg = total > 0 ? (float)((sum_main + w * sum_pts) / total) : 0.0f;
    tonemap_cpu_curve(p, fits, r);
}

double tonemap_curve_ld(const tonemap_result *r, const tonemap_params *p, double lw)
{
    double ldmin = p->ldmax / p->drange;
    switch (r->mapping) {
    case HT_MAP_HISTOGRAM:
    case HT_MAP_EQUALIZE:
        return tonemap_curve_ld_log(r, ldmin, p->ldmax, log(ldmin), log(p->drange), log(lw));
    case HT_MAP_LINEAR_FITS:
    case HT_MAP_LINEAR_GAVE_UP:
    case HT_MAP_LINEAR_FORCED:
        return fmin(fmax(lw * r->linear_scale, ldmin), p->ldmax);
    default:
        return ldmin;
    }
}

double tonemap_curve_ld_log(const tonemap_result *r, double ldmin, double ldmax, double ln_ldmin,
                            double ln_drange, double b)
{
    if (!(b > r->bw_min))
        return ldmin;
    if (b >= r->bw_max)
        return ldmax;
    int n = (int)r->bins;
    double x = n * (b - r->bw_min) / ((double)r->bw_max - r->bw_min);
    int i = (int)floor(x);
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
    double cf = r->cumf[i] + (x - i) * ((double)r->cumf[i + 1] - r->cumf[i]);
    return exp(ln_ldmin + cf * ln_drange);
}

static bool is_linear(unsigned mapping)
{
    return mapping == HT_MAP_LINEAR_FITS || mapping == HT_MAP_LINEAR_GAVE_UP ||
           mapping == HT_MAP_LINEAR_FORCED;
}

double tonemap_curve_ld_pcond(const tonemap_result *r, const tonemap_params *p, double lw)
{
    if (!p->pcond || !is_linear(r->mapping))
        return tonemap_curve_ld(r, p, lw);
    double ldmin = p->ldmax / p->drange;
    return fmin(fmax(lw * r->linear_scale * HT_WHTEFFICACY / p->ldmax, ldmin), p->ldmax);
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
    case HT_MAP_LINEAR_FORCED:
        return r->linear_scale / p->ldmax; /* pcond sfscan: out = rgb * Ld/Lw / Ldmax */
    default:
        return 0.0;
    }
}

double tonemap_encode_unit(const tonemap_params *p, double v)
{
    double c = transfer_clip(v);
    switch (p->transfer) {
    case HT_TRANSFER_PQ:
        return transfer_pq_encode(c * p->ldmax / HT_PQ_PEAK);
    case HT_TRANSFER_HLG:
        return transfer_hlg_oetf(c);
    case HT_TRANSFER_GAMMA:
        return c < 1.0 ? pow(c, 1.0 / p->gamma) : 1.0;
    default:
        return c < 1.0 ? transfer_srgb_encode(c) : 1.0;
    }
}

void tonemap_encode_prepare(const tonemap_params *p, double rgb[3])
{
    if (p->transfer != HT_TRANSFER_HLG)
        return;
    double lum[3];
    colour_display_lum(p->display_space, lum);
    for (int c = 0; c < 3; c++)
        rgb[c] = transfer_clip(rgb[c]);
    double f = transfer_hlg_ootf_factor(lum, rgb, transfer_hlg_gamma(p->ldmax), 1);
    for (int c = 0; c < 3; c++)
        rgb[c] *= f;
}

uint8_t tonemap_encode(const tonemap_params *p, double v)
{
    return (uint8_t)(tonemap_encode_unit(p, v) * 255.0 + 0.5);
}

/* The apply pass into RGB8, RGB16 or (both NULL) RGBF: each pixel's linear output (with the
 * human-vision options, of the pixel human_cpu_prepare made), then its encoding. */
static void apply_pixels(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                         uint8_t *rgb8, uint16_t *rgb16, float *rgbf)
{
    size_t npix = (size_t)img->width * img->height;
    float *pre = human_requested(p) ? human_cpu_pre(img, p) : NULL;
    float scale = (float)p->scale, w[3];
    tonemap_float_weights(p, w);
    for (size_t k = 0; k < npix; k++) {
        const float *c = img->rgba + 4 * k;
        double out[3];
        if (pre) {
            human_mapped_rgb(r, p, pre + 3 * k, out);
        } else {
            float lw;
            double factor =
                classify(c, scale, w, &lw) == HT_PIX_VALID ? tonemap_pixel_factor(r, p, lw) : 0;
            for (int ch = 0; ch < 3; ch++)
                out[ch] = (double)scale * c[ch] * factor;
        }
        tonemap_to_display(p, out);
        if (!rgbf)
            tonemap_encode_prepare(p, out);
        for (int ch = 0; ch < 3; ch++) {
            double u = rgbf ? 0.0 : tonemap_encode_unit(p, out[ch]);
            if (rgbf)
                rgbf[3 * k + ch] = (float)out[ch];
            else if (rgb8)
                rgb8[3 * k + ch] = (uint8_t)(u * 255.0 + 0.5);
            else
                rgb16[3 * k + ch] = (uint16_t)(u * 65535.0 + 0.5);
        }
    }
    free(pre);
}

void tonemap_cpu_apply(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                       uint8_t *rgb)
{
    apply_pixels(img, p, r, rgb, NULL, NULL);
}

void tonemap_cpu_apply16(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                         uint16_t *rgb)
{
    apply_pixels(img, p, r, NULL, rgb, NULL);
}

void tonemap_cpu_apply_linear(const hdr_image *img, const tonemap_params *p,
                              const tonemap_result *r, float *rgb)
{
    apply_pixels(img, p, r, NULL, NULL, rgb);
}

void tonemap_to_display(const tonemap_params *p, double rgb[3])
{
    if (colour_xform_is_identity(&p->colour))
        return;
    double in[3] = {rgb[0], rgb[1], rgb[2]}, dl[3];
    colour_xform_apply(&p->colour, in, rgb);
    if (p->gamut == HT_GAMUT_CLIP)   /* nothing to do before the clip (and no matrix inverse) */
        return;
    colour_display_lum(p->display_space, dl);
    colour_gamut_apply(p->gamut, dl, rgb);
}

double tonemap_exposure_pcond(const tonemap_result *r, const tonemap_params *p)
{
    return is_linear(r->mapping) ? r->linear_scale * HT_WHTEFFICACY / p->ldmax : 0.0;
}
