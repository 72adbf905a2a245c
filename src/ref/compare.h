/* The comparison of two tone-mapping answers (GPU against the CPU reference, or a GPU run
 * against another): one set of tolerances, one measure of each difference, reports that say
 * how large the worst difference is and where. Used by the tests and by hdrtone bench's
 * check; it prints nothing (compare_report_text formats a report). */
#ifndef HT_COMPARE_H
#define HT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tonemap.h"

/* A tolerance of compare_tol set to this is not compared. */
#define COMPARE_OFF (-1.0)

/* What may differ between two answers; B (the reference) scales the relative tolerances and
 * gives the bins at which the curves are compared. Exact always: the sample classes
 * (n_total, n_valid, n_nonfinite, n_nonpositive), the foveal grid and point count, bins,
 * widened and the mapping kind. */
typedef struct compare_tol {
    int lsb_max;                /* no 8-bit output value differs by more than this */
    int lsb;                    /* at most lsb_per_mille per mille of them by more than this */
    unsigned lsb_per_mille;
    double curve_log10;         /* |log10 Ld(a) - log10 Ld(b)| at the bin centres */
    bool curve_pcond;           /* the curve as pcond's -x file prints it (not a tolerance) */
    /* Histogram samples in another bin: at most max(hist_min, hist_per_mille per mille of the
     * counted samples), for the point-sample histogram too (its own count); n_counted may
     * differ by as many. A sample in another bin moves two counts. */
    unsigned hist_min, hist_per_mille;
    double lw_rel;              /* lw_min, lw_max: |a - b| < lw_rel |b|; 0 = equal */
    double bw_abs;              /* bw_min, bw_max: |a - b| < bw_abs (ln cd/m^2) */
    double ln_avg_rel;          /* |a - b| < ln_avg_rel max(1, |b|), when b counted any */
    double pt_weight_rel;       /* |a - b| < pt_weight_rel |b| */
    double linear_scale_rel;    /* |a - b| < linear_scale_rel |b| */
} compare_tol;

/* Pixel sampling, GPU against the CPU reference (float against double logarithms):
 * lw_min/lw_max equal; bw 1e-5; histogram max(4, 0.1 %) samples moved; ln_avg 1e-4; curve
 * 2e-3 log10; output <= 1 LSB on >= 99.9 % of the values, never more than 2. */
extern const compare_tol COMPARE_TOL_PIXELS;

/* Foveal sampling, where the foveal averages are sums in another order (float on the GPU,
 * double on the CPU; pieces of a split image): lw 1e-5 relative; bw 1e-4; histograms
 * max(4, 0.5 %) moved; point weight 1e-5 and linear scale 1e-4 relative; ln_avg not
 * compared; curve 2e-3 log10 in pcond's -x form; output as COMPARE_TOL_PIXELS. */
extern const compare_tol COMPARE_TOL_FOVEAL;

/* The set for GPU against CPU with params P: COMPARE_TOL_FOVEAL with foveal sampling or a
 * human-vision option (the veil, and the histogram after it, are float sums in another order
 * too), else COMPARE_TOL_PIXELS. */
const compare_tol *compare_tol_for(const tonemap_params *p);

/* Aspects of a compare_report.failed. */
enum {
    COMPARE_FIELDS = 1 << 0,    /* a field that must be equal is not */
    COMPARE_LW = 1 << 1,
    COMPARE_BW = 1 << 2,
    COMPARE_HIST = 1 << 3,
    COMPARE_LN_AVG = 1 << 4,
    COMPARE_PT_WEIGHT = 1 << 5,
    COMPARE_LINEAR_SCALE = 1 << 6,
    COMPARE_CURVE = 1 << 7,
    COMPARE_RGB = 1 << 8,
};

typedef struct compare_rgb_report {
    bool ok;
    size_t n_values;            /* width * height * 3 */
    int worst;                  /* the largest difference of a value */
    int worst_x, worst_y, worst_c;   /* its first place (row 0 = top) and channel */
    size_t over_lsb, over_max;  /* values differing by more than lsb / lsb_max */
    size_t allowed;             /* over_lsb allowed */
} compare_rgb_report;

typedef struct compare_curve_report {
    bool ok;
    double worst;               /* the largest |difference| of log10 Ld */
    double at_lw;               /* at this world luminance (cd/m^2) */
} compare_curve_report;

typedef struct compare_report {
    bool ok;
    unsigned failed;            /* COMPARE_* bits */
    const char *field;          /* the first field that must be equal and is not, or NULL */
    double field_a, field_b;    /* its values */
    double lw_rel, bw_abs, ln_avg_rel, pt_weight_rel, linear_scale_rel;   /* worst measured */
    long hist_moved, hist_allowed, pt_moved, pt_allowed;   /* counts moved, counts allowed */
    long counted_diff;          /* a.n_counted - b.n_counted */
    compare_curve_report curve;
    compare_rgb_report rgb;     /* zero when the pixels were not compared */
    const compare_tol *tol;
} compare_report;

/* RGB8 buffers A and B of WIDTH x HEIGHT pixels (3 bytes each) against T's lsb fields. */
void compare_rgb8(const uint8_t *a, const uint8_t *b, int width, int height,
                  const compare_tol *t, compare_rgb_report *out);

/* The curves of A and B (with params P) at the centres of B's bins, against T's curve
 * fields. */
void compare_curves(const tonemap_result *a, const tonemap_result *b, const tonemap_params *p,
                    const compare_tol *t, compare_curve_report *out);

/* Analysis A against reference B (params P) and, when ARGB and BRGB are both non-NULL, their
 * RGB8 outputs of WIDTH x HEIGHT pixels, within T. Fills *out (out->ok: all within). */
void compare_tonemap(const tonemap_result *a, const uint8_t *argb, const tonemap_result *b,
                     const uint8_t *brgb, int width, int height, const tonemap_params *p,
                     const compare_tol *t, compare_report *out);

/* R's failed aspects, each with both values and the tolerance, separated by "; " ("" when R
 * is ok), in BUF; returns BUF. */
const char *compare_report_text(const compare_report *r, char *buf, size_t len);

#endif
