/* FLIP, the CPU reference: LDR-FLIP (Andersson et al., "FLIP: A Difference Evaluator for
 * Alternating Images", 2020) and HDR-FLIP (Andersson et al., "Visualizing Errors in Rendered
 * High Dynamic Range Images", 2021), computed as the authors' tool (NVlabs/flip v1.6) computes
 * them: the same float arithmetic in the same order (but for powf, glibc's vector one: within
 * an ulp or two of libm's), so its error maps and pooled values are matched within the
 * tolerances of tests/cli/test_compare_flip.py. Written from the papers and
 * the authors' description, not copied. The GPU passes (src/gpu/flip_gpu.h) use the filter
 * weights made here (flip_filters_make), so both sides share one set of numbers. */
#ifndef HT_FLIP_H
#define HT_FLIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ht_enum.h"

/* FLIP's default viewing conditions: 0.7 m from a 0.7 m wide display of 3840 pixels
 * (flip_ppd(0.7, 3840, 0.7), about 67.02 pixels per degree). */
#define FLIP_DEFAULT_DISTANCE 0.7
#define FLIP_DEFAULT_RESOLUTION_X 3840
#define FLIP_DEFAULT_MONITOR_WIDTH 0.7
/* The range of pixels per degree accepted (the filter radii grow with it). */
#define FLIP_MIN_PPD 1.0
#define FLIP_MAX_PPD 400.0
/* Largest filter radius FLIP_MAX_PPD needs (spatial: ceil(0.1351 ppd); feature: ceil(0.123
 * ppd)), the size of the weight tables. */
#define FLIP_MAX_RADIUS 56
#define FLIP_MAX_TAPS (2 * FLIP_MAX_RADIUS + 1)
/* The model's constants (FLIP paper, section 4): the colour error's exponent (qc), knee (pc)
 * and the share of [0, 1] below the knee (pt); the feature filter's width in degrees (w) and
 * the feature difference's exponent (qf). */
#define FLIP_GQC 0.7f
#define FLIP_GPC 0.4f
#define FLIP_GPT 0.95f
#define FLIP_GW 0.082f
#define FLIP_GQF 0.5f
/* Buckets of the tool's histogram of the error over [0, 1]. */
#define FLIP_HIST_BINS 100
/* Bins over [0, 1] of the histogram that finds the weighted percentiles (value v in bin
 * (int)(v FLIP_FINE_BINS)): the CPU sorts only the crossing bin's values (exact); the GPU
 * interpolates inside it (within 1 / FLIP_FINE_BINS). */
#define FLIP_FINE_BINS 65536

/* Pixels per degree of a display MONITOR_WIDTH metres wide with RESOLUTION_X pixels seen from
 * DISTANCE metres (float, as the tool computes it). */
float flip_ppd(double distance, double resolution_x, double monitor_width);
/* flip_ppd of FLIP's defaults. */
float flip_default_ppd(void);

/* HDR-FLIP's tone mappers (ACES is the authors' default). */
typedef enum flip_tonemapper {
    FLIP_TM_ACES = 0,
    FLIP_TM_HABLE = 1,
    FLIP_TM_REINHARD = 2,
} flip_tonemapper;
extern const ht_enum flip_tonemappers[];   /* aces, hable, reinhard */

/* The coefficients of tone mapper TM as a rational function per channel,
 * (c0 x^2 + c1 x + c2) / (c3 x^2 + c4 x + c5); Reinhard divides by 1 + luminance instead and
 * its row only serves the exposure range. */
const float *flip_tonemap_coefficients(flip_tonemapper tm);

/* The exposures of HDR-FLIP: COUNT exposures from START to STOP stops, evenly spaced. */
typedef struct flip_exposures {
    float start, stop;
    int count;
} flip_exposures;

/* What FLIP is computed with; zero is the defaults everywhere. */
typedef struct flip_params {
    float ppd;                  /* pixels per degree; 0 = flip_default_ppd() */
    flip_tonemapper tonemapper; /* HDR-FLIP */
    bool exposures_given;       /* false: start and stop derived from the reference */
    float start_exposure, stop_exposure;
    int exposures;              /* 0: max(2, ceil(stop - start)) */
    int threads;                /* CPU threads; 0 = one per online CPU */
} flip_params;

/* The separable filters at one ppd: the spatial (contrast sensitivity) filters of the
 * achromatic, red-green and (a sum of two Gaussians) blue-yellow channels, and the feature
 * filter's Gaussian with its first and second derivatives. Weights index -radius..radius. */
typedef struct flip_filters {
    int spatial_radius, feature_radius;
    float y[FLIP_MAX_TAPS], cx[FLIP_MAX_TAPS];     /* achromatic, red-green */
    float cz1[FLIP_MAX_TAPS], cz2[FLIP_MAX_TAPS];  /* blue-yellow's two Gaussians */
    float g[FLIP_MAX_TAPS], dg[FLIP_MAX_TAPS], ddg[FLIP_MAX_TAPS];  /* feature filter */
} flip_filters;

/* Fills *f for PPD (FLIP_MIN_PPD..FLIP_MAX_PPD). */
void flip_filters_make(float ppd, flip_filters *f);

/* The constants of the colour metric: the largest HyAB distance (green to blue, to the power
 * 0.7) and the knee below which errors map to [0, 0.95]. */
typedef struct flip_color_consts {
    float cmax, pccmax;
} flip_color_consts;
flip_color_consts flip_color_constants(void);

/* sRGB-encoded value in [0, 1] to linear (float, as the tool). */
float flip_srgb_to_linear(float v);

/* LDR-FLIP of two W x H images of linear RGB (CHANNELS floats a pixel, 3 or 4; the first
 * three used; values clamped to [0, 1]), written to MAP (W*H floats in [0, 1], row-major).
 * False (message in err) on a size or ppd out of range, or out of memory. */
bool flip_ldr(const float *ref, const float *test, int w, int h, int channels,
              const flip_params *p, float *map, char *err, size_t errlen);

/* HDR-FLIP's exposures as P asks: given, or derived from REF (linear RGB, CHANNELS floats a
 * pixel) as the authors do: start = log2(x / Ymax), stop = log2(x / Ymedian), where the tone
 * mapper maps x to 0.85, Ymedian the upper median of the luminances. False (message) when
 * the reference is black, or its median luminance is 0 (no stop exposure). */
bool flip_exposures_for(const float *ref, int w, int h, int channels, const flip_params *p,
                        flip_exposures *ex, char *err, size_t errlen);

/* The exposure of step I of EX (start + I (stop - start) / (count - 1)). */
float flip_exposure_at(const flip_exposures *ex, int i);

/* HDR-FLIP: for each exposure of *EX (flip_exposures_for), both images scaled by 2^exposure,
 * tone-mapped, clamped to [0, 1], compared with LDR-FLIP; MAP gets the maximum over the
 * exposures. Same contract as flip_ldr otherwise. */
bool flip_hdr(const float *ref, const float *test, int w, int h, int channels,
              const flip_params *p, const flip_exposures *ex, float *map, char *err,
              size_t errlen);

/* A rectangle of pixels [x, x + w) x [y, y + h); w or h 0 means the whole image. */
typedef struct flip_rect {
    int x, y, w, h;
} flip_rect;

/* FLIP's pooled values of an error map, as the tool prints them: the mean, the weighted
 * median and quartiles (the smallest value at which the running sum of the sorted values
 * exceeds that fraction of their sum), min, max; and the tool's histogram (100 buckets over
 * [0, 1]) with its weighted form (count times the bucket's centre, per megapixel). */
typedef struct flip_pooled {
    double mean, weighted_median, q1, q3, min, max;
    uint64_t count;
    uint64_t hist[FLIP_HIST_BINS];
    double weighted_hist[FLIP_HIST_BINS];
} flip_pooled;

/* Pools MAP (W x H) over RECT (clipped to the image; NULL = whole). False (message) when the
 * rectangle holds no pixel or out of memory. */
bool flip_pool(const float *map, int w, int h, const flip_rect *rect, flip_pooled *out,
               char *err, size_t errlen);

/* The pooled values from counts made elsewhere (the GPU): FINE (FLIP_FINE_BINS counts), HIST
 * (the tool's FLIP_HIST_BINS), the sum, extremes and count. The weighted percentiles are
 * interpolated inside the crossing fine bin (each bin's weight its count times its centre):
 * within 1 / FLIP_FINE_BINS of flip_pool's. */
void flip_pool_from_counts(const uint32_t *fine, const uint32_t *hist, double sum, double min,
                           double max, uint64_t count, flip_pooled *out);

/* The bucket of the tool's histogram that VALUE falls in, or -1 outside [0, 1]. */
int flip_hist_bucket(float value);

#endif
