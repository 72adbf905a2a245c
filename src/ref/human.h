/* pcond's human-vision options (Ward Larson, Rushmeier & Piatko 1997, "visibility matching";
 * Radiance pcond -v, -a, -c, and -h = all three with the human ceiling -s): veiling glare,
 * loss of acuity and loss of colour, the CPU reference the GPU passes mirror.
 *
 * The steps, in pcond's order (pcond-reference/README_human.md describes each exactly):
 *  analysis  1. the first histogram (tonemap_cpu_analyze_input: foveal image + point samples);
 *            2. human_check2do: which options apply, decided once on that histogram;
 *            3. veil: human_veil_image over every pair of foveal samples, the foveal image
 *               becomes 0.92 F + V, and the histogram is taken again (fresh point samples,
 *               continuing the drand48 sequence; the range test of step 2 stands);
 *            4. the curve from the current histogram (tonemap.h), then the sample radii
 *               (human_sample_radii) from the current foveal image;
 *  per pixel 5. acuity (human_pyramid_* blend by the interpolated sample radius), then the veil
 *               (0.92 P + the bilinear veil), then the mesopic colour loss (human_color_loss);
 *            6. the tone curve on the luminance of that pixel (tonemap_pixel_factor).
 * Images are in the picture's units (tonemap_params.scale converts to cd/m^2); luminances
 * passed to the models are in cd/m^2. */
#ifndef HT_HUMAN_H
#define HT_HUMAN_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"
#include "tonemap.h"

/* X(name, value): pcond's constants of the human-vision model (pcond.h, pcond4.c). */
#define HT_HUMAN_FCONSTANTS(X)                                                              \
    X(HT_VEIL_ADAPT, 0.08)       /* VADAPT: share of the adaptation coming from the veil */ \
    X(HT_VEIL_MIN_RANGE, 4.5)    /* check2do: no veil when the histogram spans less (ln) */ \
    X(HT_VEIL_MIN_COS, 1e-6)     /* foveal pairs at 90 degrees or more add no veil */        \
    X(HT_BOT_MESOPIC, 5.62e-3)   /* cd/m^2: at or below, colour is lost (scotopic grey) */  \
    X(HT_TOP_MESOPIC, 5.62)      /* cd/m^2: at or above, colour is kept (photopic) */        \
    X(HT_SCOT_R, 0.062)          /* scotopic luminance from RGB (pcond rgblum, scotopic  */  \
    X(HT_SCOT_G, 0.608)          /* weights over SWNORM: they sum to 1, greys keep value) */ \
    X(HT_SCOT_B, 0.330)                                                                     \
    X(HT_ACUITY_MIN_OMEGA, 1e-12) /* a foveal pixel's solid angle below this: radius 1 */   \
    X(HT_HUMAN_TINY, 1e-6)       /* pcond's FTINY in the colour and veil tests */

#define HT_FDEF_(name, value) static const double name = (value);
HT_HUMAN_FCONSTANTS(HT_FDEF_)
#undef HT_FDEF_

/* What became of one option: pcond-reference's params_human.tsv words (human_outcome_name). */
enum {
    HUMAN_NOT_REQUESTED,
    HUMAN_APPLIED,
    HUMAN_APPLIED_NOOP,      /* acuity: every sample radius <= 1, the stage changes nothing */
    HUMAN_SKIP_RANGE,        /* veil: the first histogram spans < HT_VEIL_MIN_RANGE */
    HUMAN_SKIP_ACUITY,       /* acuity: hacuity(L5) >= the picture's pixels per degree */
    HUMAN_SKIP_PHOTOPIC,     /* colour: L5 >= HT_TOP_MESOPIC */
    HUMAN_SKIP_NO_SAMPLES,   /* no sample with a positive luminance: nothing to model */
};

/* What pcond's check2do decided, and the numbers it decided on. */
typedef struct human_report {
    int veil, acuity, color;  /* HUMAN_* outcome of each option */
    double range;             /* bwmax - bwmin of the first histogram, ln cd/m^2 */
    bool range_fits;          /* range <= ln(drange): linear mapping, decided here for good */
    double l5;                /* 5th-percentile luminance (bin centre), cd/m^2; 0: not needed */
    double hacuity_l5;        /* hacuity(l5), cycles/degree */
    double px_per_deg;        /* the acuity test's threshold: the picture's pixels/degree */
    float max_sr;             /* acuity: largest sample radius (at least 1) */
    int root_level;           /* acuity: the coarsest pyramid level R */
} human_report;

/* pcond's default view of a picture without a VIEW line: perspective, FOV degrees across the
 * longer side; hn, vn = 2 tan(half angle) across and down. */
typedef struct human_view {
    double horiz, vert;       /* degrees */
    double hn, vn;
} human_view;

/* The analysis' state the pixels need. */
typedef struct human_state {
    human_report report;
    human_view view;
    int fw, fh;               /* foveal grid */
    float *veil;              /* fw * fh * 3 veil image (human_veil_image); NULL without veil */
    float *sr;                /* fw * fh sample radii, input pixels; NULL without acuity */
} human_state;

/* The acuity pyramid: level k (1..levels) is the 2^k box average of the picture (pcond's
 * odd-size truncation: w >> k by h >> k); non-finite and negative channels count as 0. */
typedef struct human_pyramid {
    int levels;
    int w[32], h[32];
    float *rgb[32];           /* [k] for k >= 1: w[k] * h[k] * 3; [0] unused (the picture) */
} human_pyramid;

/* One pixel's way through the stages (human_cpu_pixel). */
typedef struct human_pixel {
    double sr;                /* interpolated sample radius (acuity), else 0 */
    int level;                /* pyramid level blended from (0: the pixel itself) */
    double d;                 /* weight of level - 1 in the blend */
    float acu[3];             /* after acuity */
    float veil[3];            /* veil added (0 without) */
    double incolor;           /* colour kept (1 without colour loss) */
    float pre[3];             /* what the tone curve gets */
} human_pixel;

/* P asks for any human-vision option. */
bool human_requested(const tonemap_params *p);

/* pcond -h: veil, acuity and colour loss with the human ceiling (HT_CEILING_HUMAN). */
void human_params_all(tonemap_params *p);

/* params_human.tsv's word for an outcome ("applied", "skipped(range_bw<4.5)", ...). */
const char *human_outcome_name(int outcome);

/* pcond hacuity: the highest visible frequency at adaptation luminance LA (cd/m^2),
 * cycles/degree; negative below about 6.5e-10 cd/m^2. */
double human_hacuity(double la);

/* pcond's default view for a W x H picture, FOV degrees across its longer side. */
void human_view_default(int w, int h, double fov, human_view *v);

/* Unit view-ray directions of the fw x fh foveal pixels (pcond compraydir; top row first),
 * float as pcond stores them: dirs = fw * fh * 3. */
void human_ray_dirs(const human_view *v, int fw, int fh, float *dirs);

/* check2do on the first analysis R1 of a W x H picture: fills *rep's outcomes and numbers. */
void human_check2do(const tonemap_result *r1, const tonemap_params *p, const human_view *v,
                    int w, int h, human_report *rep);

/* The veil of foveal image FOV (fw x fh x 3) with directions DIRS: per pixel, HT_VEIL_ADAPT
 * times the mean of every other foveal pixel weighted by cos/(2 (1 - cos)) (pcond
 * compveil). VEIL = fw * fh * 3. */
void human_veil_image(int fw, int fh, const float *dirs, const float *fov, float *veil);

/* FOV becomes the veiled foveal image, (1 - HT_VEIL_ADAPT) FOV + VEIL (n pixels). */
void human_veil_foveal(size_t n, const float *veil, float *fov);

/* The cell of coordinate T (in cells) on an axis of N cells for a bilinear lookup: T
 * truncated toward zero, lowered to at most N - 2 (so the borders extrapolate linearly);
 * *D = T - cell (outside [0, 1] at the borders). */
int human_lerp_cell(double t, int n, double *d);

/* Bilinear interpolation of an fw x fh grid of NCH-channel values at pixel (x, row) of a
 * W x H picture, linear extrapolation at the borders (pcond addveil, acuscan). */
void human_foveal_lerp(const float *grid, int fw, int fh, int nch, int w, int h, int x, int row,
                       double *out);

/* Luminance of C (image units, SCALE cd/m^2 each) in cd/m^2 as pcond computes it: the sum
 * weighted by WTS (tonemap_luminance_weights) in float, then the scale. */
double human_luminance(const float c[3], double scale, const double wts[3]);

/* Sample radii (input pixels) of the fw x fh foveal pixels of a W x H picture from the
 * foveal image FOV (image units, SCALE cd/m^2 each, weights WTS) and DIRS (pcond
 * initacuity); returns the largest (at least 1). SR = fw * fh. */
float human_sample_radii(int w, int h, int fw, int fh, const float *dirs, const float *fov,
                         double scale, const double wts[3], float *sr);

/* The pyramid root level R for the largest sample radius MAX_SR (at most what W x H allows). */
int human_root_level(float max_sr, int w, int h);

/* Builds levels 1..LEVELS of IMG's pyramid; false when out of memory (*pyr is then empty). */
bool human_pyramid_build(const hdr_image *img, int levels, human_pyramid *pyr);
void human_pyramid_free(human_pyramid *pyr);

/* Level K (>= 1) of the pyramid bilinearly at pixel (x, row), channels clamped to >= 0
 * (pcond ascanval). */
void human_pyramid_sample(const human_pyramid *pyr, int k, int x, int row, float out[3]);

/* Colour loss of pixel C (image units, SCALE cd/m^2 each) in place (pcond scotscan); returns
 * the share of colour kept. W: the luminance weights (tonemap_luminance_weights). */
double human_color_loss(float c[3], double scale, const double wts[3]);

/* The analysis with P's human-vision options into *R (the result pcond's curve is made
 * from); *HS (NULL: not wanted) gets the state the pixels need (human_state_free). False
 * when out of memory (*r then holds the plain analysis, *hs applies nothing). */
bool human_cpu_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r,
                       human_state *hs);
void human_state_free(human_state *hs);
/* human_cpu_analyze with pcond's own rounding of the samples (tonemap_stage_input's
 * pcond_exact) as PCOND_EXACT says rather than as p->pcond: false is the shaders' arithmetic,
 * the reference of the GPU's analysis (pipeline.h). */
bool human_cpu_analyze_exact(const hdr_image *img, const tonemap_params *p, bool pcond_exact,
                             tonemap_result *r, human_state *hs);

/* Pixel (x, row) through acuity, veil and colour (*out). PYR: built with
 * hs->report.root_level levels when acuity applies, else NULL. */
void human_cpu_pixel(const hdr_image *img, const tonemap_params *p, const human_state *hs,
                     const human_pyramid *pyr, int x, int row, human_pixel *out);

/* Every pixel through human_cpu_pixel: PRE = width * height * 3 (image units); false when
 * out of memory. */
bool human_cpu_prepare(const hdr_image *img, const tonemap_params *p, const human_state *hs,
                       float *pre);

/* The tone-mapped linear RGB of a pixel PRE (human_cpu_pixel's pre): 0 for a pixel with a
 * non-finite channel or no positive luminance, as tonemap_cpu_apply. */
void human_mapped_rgb(const tonemap_result *r, const tonemap_params *p, const float pre[3],
                      double out[3]);

/* Every pixel of IMG through the analysis with P and human_cpu_prepare: width * height * 3
 * floats, malloc'd (the caller frees); NULL when out of memory. */
float *human_cpu_pre(const hdr_image *img, const tonemap_params *p);

#endif
