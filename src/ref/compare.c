#include "compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human.h"

const compare_tol COMPARE_TOL_PIXELS = {
    .lsb_max = 2, .lsb = 1, .lsb_per_mille = 1,
    .curve_log10 = 2e-3, .curve_pcond = false,
    .hist_min = 4, .hist_per_mille = 1,
    .lw_rel = 0, .bw_abs = 1e-5, .ln_avg_rel = 1e-4,
    .pt_weight_rel = COMPARE_OFF, .linear_scale_rel = COMPARE_OFF,
};

const compare_tol COMPARE_TOL_FOVEAL = {
    .lsb_max = 2, .lsb = 1, .lsb_per_mille = 1,
    .curve_log10 = 2e-3, .curve_pcond = true,
    .hist_min = 4, .hist_per_mille = 5,
    .lw_rel = 1e-5, .bw_abs = 1e-4, .ln_avg_rel = COMPARE_OFF,
    .pt_weight_rel = 1e-5, .linear_scale_rel = 1e-4,
};

const compare_tol *compare_tol_for(const tonemap_params *p)
{
    return p->sampling == HT_SAMPLING_FOVEAL || human_requested(p) ? &COMPARE_TOL_FOVEAL
                                                                   : &COMPARE_TOL_PIXELS;
}

/* The fields that must be equal, in the order a report names the first that is not. */
#define COMPARE_EXACT_FIELDS(X) \
    X(n_total) X(n_valid) X(n_nonfinite) X(n_nonpositive) X(fov_width) X(fov_height) \
    X(n_points) X(bins) X(widened) X(mapping)

void compare_rgb8(const uint8_t *a, const uint8_t *b, int width, int height,
                  const compare_tol *t, compare_rgb_report *out)
{
    memset(out, 0, sizeof *out);
    out->n_values = (size_t)width * height * 3;
    size_t worst_at = 0;
    for (size_t k = 0; k < out->n_values; k++) {
        int d = abs((int)a[k] - (int)b[k]);
        out->over_lsb += d > t->lsb;
        out->over_max += d > t->lsb_max;
        if (d > out->worst) {
            out->worst = d;
            worst_at = k;
        }
    }
    size_t pixel = worst_at / 3;
    out->worst_x = width > 0 ? (int)(pixel % (size_t)width) : 0;
    out->worst_y = width > 0 ? (int)(pixel / (size_t)width) : 0;
    out->worst_c = (int)(worst_at % 3);
    out->allowed = out->n_values * t->lsb_per_mille / 1000;
    out->ok = out->over_max == 0 && out->over_lsb <= out->allowed;
}

void compare_curves(const tonemap_result *a, const tonemap_result *b, const tonemap_params *p,
                    const compare_tol *t, compare_curve_report *out)
{
    double (*curve)(const tonemap_result *, const tonemap_params *, double) =
        t->curve_pcond ? tonemap_curve_ld_pcond : tonemap_curve_ld;
    memset(out, 0, sizeof *out);
    unsigned bins = b->bins < HT_MAX_BINS ? b->bins : HT_MAX_BINS;
    double db = bins ? ((double)b->bw_max - b->bw_min) / bins : 0;
    for (unsigned i = 0; i < bins; i++) {
        double lw = exp(b->bw_min + (i + 0.5) * db);
        double d = fabs(log10(curve(a, p, lw)) - log10(curve(b, p, lw)));
        if (d > out->worst)   /* NaN (both curves 0 there) is no difference */
            out->at_lw = lw;
        out->worst = fmax(out->worst, d);
    }
    out->ok = out->worst <= t->curve_log10;
}

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(fabs(b), 1e-30);
}

/* Counts moved between histograms A and B over N bins. */
static long hist_moved(const uint32_t *a, const uint32_t *b, unsigned n)
{
    long moved = 0;
    for (unsigned i = 0; i < n && i < HT_MAX_BINS; i++)
        moved += labs((long)a[i] - (long)b[i]);
    return moved;
}

/* Samples allowed in another bin out of COUNTED. */
static long hist_allowed(const compare_tol *t, uint32_t counted)
{
    long share = (long)((uint64_t)counted * t->hist_per_mille / 1000);
    return share > (long)t->hist_min ? share : (long)t->hist_min;
}

/* The statistics of the analysis (all but the curve) into *r. */
static void compare_analysis(const tonemap_result *a, const tonemap_result *b,
                             const compare_tol *t, compare_report *r)
{
#define COMPARE_FIELD_(name)                                     \
    if (!r->field && a->name != b->name) {                       \
        r->field = #name;                                        \
        r->field_a = a->name;                                    \
        r->field_b = b->name;                                    \
    }
    COMPARE_EXACT_FIELDS(COMPARE_FIELD_)
#undef COMPARE_FIELD_
    if (r->field)
        r->failed |= COMPARE_FIELDS;

    r->lw_rel = fmax(rel(a->lw_min, b->lw_min), rel(a->lw_max, b->lw_max));
    bool lw_ok = t->lw_rel == 0 ? a->lw_min == b->lw_min && a->lw_max == b->lw_max
                                : rel(a->lw_min, b->lw_min) < t->lw_rel &&
                                      rel(a->lw_max, b->lw_max) < t->lw_rel;
    r->failed |= lw_ok ? 0 : COMPARE_LW;

    double dmin = fabs((double)a->bw_min - b->bw_min), dmax = fabs((double)a->bw_max - b->bw_max);
    r->bw_abs = fmax(dmin, dmax);
    r->failed |= dmin < t->bw_abs && dmax < t->bw_abs ? 0 : COMPARE_BW;

    long allowed = hist_allowed(t, b->n_counted);
    r->hist_moved = hist_moved(a->hist, b->hist, b->bins);
    r->hist_allowed = 2 * allowed;
    r->counted_diff = (long)a->n_counted - (long)b->n_counted;
    bool hist_ok = r->hist_moved <= r->hist_allowed && labs(r->counted_diff) <= allowed;
    if (b->n_points) {   /* without point samples pt_hist is stale (not reset) */
        r->pt_moved = hist_moved(a->pt_hist, b->pt_hist, b->bins);
        r->pt_allowed = 2 * hist_allowed(t, b->pt_counted);
        hist_ok = hist_ok && r->pt_moved <= r->pt_allowed;
    }
    r->failed |= hist_ok ? 0 : COMPARE_HIST;

    if (t->ln_avg_rel != COMPARE_OFF && b->n_counted) {
        r->ln_avg_rel = fabs((double)a->ln_avg - b->ln_avg) / fmax(1, fabs(b->ln_avg));
        r->failed |= r->ln_avg_rel < t->ln_avg_rel ? 0 : COMPARE_LN_AVG;
    }
    if (t->pt_weight_rel != COMPARE_OFF) {
        r->pt_weight_rel = rel(a->pt_weight, b->pt_weight);
        r->failed |= r->pt_weight_rel < t->pt_weight_rel ? 0 : COMPARE_PT_WEIGHT;
    }
    if (t->linear_scale_rel != COMPARE_OFF) {
        r->linear_scale_rel = rel(a->linear_scale, b->linear_scale);
        r->failed |= r->linear_scale_rel < t->linear_scale_rel ? 0 : COMPARE_LINEAR_SCALE;
    }
}

void compare_tonemap(const tonemap_result *a, const uint8_t *argb, const tonemap_result *b,
                     const uint8_t *brgb, int width, int height, const tonemap_params *p,
                     const compare_tol *t, compare_report *out)
{
    memset(out, 0, sizeof *out);
    out->tol = t;
    compare_analysis(a, b, t, out);
    compare_curves(a, b, p, t, &out->curve);
    out->failed |= out->curve.ok ? 0 : COMPARE_CURVE;
    if (argb && brgb) {
        compare_rgb8(argb, brgb, width, height, t, &out->rgb);
        out->failed |= out->rgb.ok ? 0 : COMPARE_RGB;
    }
    out->ok = out->failed == 0;
}

/* Appends an item to BUF (LEN bytes, *AT used so far), "; " between items; truncates. */
static void append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    char item[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(item, sizeof item, fmt, ap);
    va_end(ap);
    snprintf(buf + *at, len - *at, "%s%s", *at ? "; " : "", item);
    *at += strlen(buf + *at);
}

const char *compare_report_text(const compare_report *r, char *buf, size_t len)
{
    const compare_tol *t = r->tol;
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    if (!t || !len)
        return buf;
    if (r->failed & COMPARE_FIELDS) {
        if (strcmp(r->field, "mapping") == 0)
            append(buf, len, &at, "mapping %s vs %s", tonemap_mapping_name((unsigned)r->field_a),
                   tonemap_mapping_name((unsigned)r->field_b));
        else
            append(buf, len, &at, "%s %.0f vs %.0f", r->field, r->field_a, r->field_b);
    }
    if (r->failed & COMPARE_LW)
        append(buf, len, &at, "lw range off by %.3g relative (allowed %s%.3g)", r->lw_rel,
               t->lw_rel == 0 ? "" : "< ", t->lw_rel);
    if (r->failed & COMPARE_BW)
        append(buf, len, &at, "bw range off by %.3g (allowed < %.3g)", r->bw_abs, t->bw_abs);
    if (r->failed & COMPARE_HIST) {
        char points[64] = "";
        if (r->pt_allowed)   /* point samples compared */
            snprintf(points, sizeof points, ", point samples %ld (allowed %ld)", r->pt_moved,
                     r->pt_allowed);
        append(buf, len, &at, "histograms moved %ld counts (allowed %ld)%s, counted differs by "
               "%ld (allowed %ld)", r->hist_moved, r->hist_allowed, points, r->counted_diff,
               r->hist_allowed / 2);
    }
    if (r->failed & COMPARE_LN_AVG)
        append(buf, len, &at, "ln_avg off by %.3g relative (allowed < %.3g)", r->ln_avg_rel,
               t->ln_avg_rel);
    if (r->failed & COMPARE_PT_WEIGHT)
        append(buf, len, &at, "point weight off by %.3g relative (allowed < %.3g)",
               r->pt_weight_rel, t->pt_weight_rel);
    if (r->failed & COMPARE_LINEAR_SCALE)
        append(buf, len, &at, "linear scale off by %.3g relative (allowed < %.3g)",
               r->linear_scale_rel, t->linear_scale_rel);
    if (r->failed & COMPARE_CURVE)
        append(buf, len, &at, "curves differ by %.3g log10 at Lw %.4g (allowed %.3g)",
               r->curve.worst, r->curve.at_lw, t->curve_log10);
    if (r->failed & COMPARE_RGB)
        append(buf, len, &at, "%zu of %zu values off by >%d LSB (allowed %zu), %zu by >%d; worst "
               "%d at (%d,%d) channel %d", r->rgb.over_lsb, r->rgb.n_values, t->lsb,
               r->rgb.allowed, r->rgb.over_max, t->lsb_max, r->rgb.worst, r->rgb.worst_x,
               r->rgb.worst_y, r->rgb.worst_c);
    return buf;
}
