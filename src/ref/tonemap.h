/* Tone-mapping parameters and results, shared by the GPU pipeline and the CPU reference
 * (tonemap_cpu.c), which is the oracle for the GPU. The operator is Ward '97 as pcond
 * implements it (Ward Larson, Rushmeier, Piatko 1997, "A Visibility Matching Tone Reproduction
 * Operator for High Dynamic Range Scenes"); the formulas and defaults: docs/operator.md. */
#ifndef HT_TONEMAP_H
#define HT_TONEMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "colour.h"
#include "gpu_shared.h"
#include "ht_enum.h"
#include "image.h"

/* X(type, name): the fields of tonemap_params, in order (tonemap_params_equal compares them
 * all). */
#define TONEMAP_PARAMS_FIELDS(X)                                                           \
    X(int, bins)            /* histogram bins, HT_MIN_BINS..HT_MAX_BINS */                 \
    X(double, lmin)         /* world luminance range in cd/m^2; both 0 = automatic */      \
    X(double, lmax)                                                                        \
    X(double, ldmax)        /* display maximum, cd/m^2 */                                  \
    X(double, drange)       /* display dynamic range Ldmax/Ldmin */                        \
    X(int, ceiling)         /* HT_CEILING_* */                                             \
    X(int, transfer)        /* HT_TRANSFER_* */                                            \
    X(double, gamma)        /* for HT_TRANSFER_GAMMA */                                    \
    X(double, scale)        /* cd/m^2 per image unit */                                    \
    /* The paper's sampling and pcond's rules (docs/operator.md, Presets). */                 \
    X(int, sampling)        /* HT_SAMPLING_*: every pixel, or the foveal image */          \
    X(double, fov)          /* foveal sampling: degrees across the longer side */          \
    X(int, point_samples)   /* foveal sampling: add pcond's random point samples (0 or 1) */ \
    X(int, luminance)       /* HT_LUMINANCE_*: the file's, Rec. 709 or Radiance weights */  \
    /* Colour (colour.h): the image's space to the display's, set per image by              \
     * colour_params_set from the file, --colorspace and these settings. */                 \
    X(colour_xform, colour)                                                                \
    X(int, display_space)   /* HT_DISPLAY_SPACE_* */                                       \
    X(int, gamut)           /* HT_GAMUT_* */                                               \
    X(int, white)           /* HT_WHITE_*: files without adoptedNeutral */                 \
    X(bool, force_linear)   /* linear mapping whatever the range (pcond -l) */             \
    X(bool, pcond)          /* pcond's own rules: range margins and black samples, the -x quirk */ \
    /* pcond's human-vision options (human.h; human_params_all sets pcond -h): veiling      \
     * glare (-v), loss of acuity (-a), loss of colour in mesopic light (-c). */           \
    X(bool, veil)                                                                          \
    X(bool, acuity)                                                                        \
    X(bool, color_loss)

#define TONEMAP_PARAMS_FIELD_(type, name) type name;
typedef struct tonemap_params {
    TONEMAP_PARAMS_FIELDS(TONEMAP_PARAMS_FIELD_)
} tonemap_params;
#undef TONEMAP_PARAMS_FIELD_

/* Fills the defaults of docs/operator.md: the default preset (below) with a linear ceiling, sRGB,
 * s = 1 and the automatic range. */
void tonemap_params_default(tonemap_params *p);

/* Every field equal (field by field: the struct has padding). */
bool tonemap_params_equal(const tonemap_params *a, const tonemap_params *b);

/* Presets (--preset, the viewer's Shift+P). */
enum { HT_PRESET_DEFAULT = 0, HT_PRESET_PCOND = 1 };

/* Sets the fields PRESET decides to its values (the table in tonemap_params.c): bins, ldmax,
 * drange, sampling, fov, point_samples, luminance and pcond; the pcond preset, what Radiance's
 * pcond does by default (docs/operator.md, Presets), also makes the range automatic. Ceiling,
 * force_linear, transfer, gamma and scale stay as they are. */
void tonemap_apply_preset(tonemap_params *p, int preset);

/* The tables of the enumerations of tonemap_params (ht_enum.h), in command-line order. */
extern const ht_enum tonemap_ceilings[];    /* HT_CEILING_*: none, linear, human */
extern const ht_enum tonemap_transfers[];   /* HT_TRANSFER_*: srgb, gamma */
extern const ht_enum tonemap_samplings[];   /* HT_SAMPLING_*: pixels, foveal */
extern const ht_enum tonemap_luminances[];  /* HT_LUMINANCE_*: file, radiance, rec709 */
extern const ht_enum tonemap_presets[];     /* HT_PRESET_*: default, pcond */
extern const ht_enum tonemap_mappings[];    /* HT_MAP_* (results, not options) */

/* The foveal grid for a W x H picture: one sample per degree, FOV degrees across the longer
 * side (pcond getfovimg), at least 2 and at most the picture's size. */
void tonemap_foveal_grid(int w, int h, double fov, int *fw, int *fh);

/* The number of pcond point samples for a W x H picture with a FW x FH foveal grid. */
uint32_t tonemap_point_count(int w, int h, int fw, int fh);

/* pcond's random point samples: N positions (x | row << 16, row 0 = top) in pcond's order
 * (index k = its array index), from glibc's unseeded drand48 sequence. Returns false when
 * the walk runs out of rows (cannot happen for N <= W * H). */
bool tonemap_point_positions(int w, int h, uint32_t n, uint32_t *xy);

/* Luminance weights of HT_LUMINANCE_REC709 or HT_LUMINANCE_RADIANCE. */
void tonemap_luminance_weights(int luminance, double w[3]);
/* The weights of P's luminance: the Y row of the image's RGB->XYZ (P->colour.lum) for
 * HT_LUMINANCE_FILE, else tonemap_luminance_weights. */
void tonemap_weights(const tonemap_params *p, double w[3]);
/* The same rounded to float: the weights every Lw of the CPU paths and the GPU's u_lum_w are
 * computed with (a pixel's class depends on that rounding, so every path must share it). */
void tonemap_float_weights(const tonemap_params *p, float w[3]);

/* Human threshold contrast sensitivity dL(La), cd/m^2 (Ferwerda et al.; pcond htcontrs). */
double tonemap_tvi(double la);

/* What the analysis (range, histogram, ceiling, curve) produced: the same fields as the
 * GPU's frame buffer (ht_frame), so one type carries either backend's answer. */
typedef ht_frame tonemap_result;

/* The response: display luminance Ld (cd/m^2) for world luminance LW (cd/m^2). */
double tonemap_curve_ld(const tonemap_result *r, const tonemap_params *p, double lw);

/* tonemap_curve_ld of the histogram mappings at B = ln Lw, with LDMIN = Ldmax / drange and
 * LN_LDMIN, LN_DRANGE their logarithms (log), computed once by the caller. */
double tonemap_curve_ld_log(const tonemap_result *r, double ldmin, double ldmax, double ln_ldmin,
                            double ln_drange, double b);

/* The curve as pcond's -x file prints it: tonemap_curve_ld, except that with pcond's rules
 * a linear mapping prints clamp(Lw * scalef, Ldmin, Ldmax) with pcond's scalef (179/Ldmax
 * times ours), not the displayed luminance (pcond-reference/README.md, "quirk"). */
double tonemap_curve_ld_pcond(const tonemap_result *r, const tonemap_params *p, double lw);

/* Output scale factor for a pixel of world luminance LW: out_rgb = s * rgb * factor. 0 for
 * pixels that are black (Lw < HT_LMIN, or no mapping). */
double tonemap_pixel_factor(const tonemap_result *r, const tonemap_params *p, double lw);

/* A pixel's linear output RGB (image space) into the display's linear RGB: P->colour's matrix
 * and P->gamut's rule (the GPU's ht_to_display); nothing for the identity. The clip follows
 * in the encoding. */
void tonemap_to_display(const tonemap_params *p, double rgb[3]);

/* Sets P->colour for an image of colour space C shown on P->display_space with P->white
 * (colour_xform_make). False with the reason in WHY when C is degenerate. */
bool tonemap_set_colour(tonemap_params *p, const image_colour *c, char *why, size_t wl);

/* Display encoding of a linear value in [0,1] (clipped) to 8 bits. */
uint8_t tonemap_encode(const tonemap_params *p, double v);

/* The display encoding of a linear value V (clipped to [0,1]), in [0,1]: what tonemap_encode
 * rounds to 8 bits and tonemap_cpu_apply16 to 16. */
double tonemap_encode_unit(const tonemap_params *p, double v);

/* The label of a HT_MAP_* value ("histogram", "linear (forced)", ...); any other value is
 * HT_MAP_NONE's. */
const char *tonemap_mapping_name(unsigned mapping);

/* Rounds RGB as a Radiance picture stores it (encode_rgbe: 8-bit mantissas, truncated) and
 * reads it back at the middle of the step (decode_rgbe's mid), with UNIT per stored unit (179
 * for cd/m^2: Radiance stores W); a component at or below 0 stays 0. */
void tonemap_rgbe_round(float rgb[3], double unit);

/* CPU reference of the foveal pass: the foveal grid of P (tonemap_foveal_grid) and its box
 * average of linear RGB (non-finite pixels left out), *rgb = fw * fh * 3 floats, top row
 * first, malloc'd (the caller frees), then tonemap_foveal_pcond_round'ed. False when out of
 * memory. */
bool tonemap_cpu_foveal_image(const hdr_image *img, const tonemap_params *p, int *fw, int *fh,
                              float **rgb);

/* The steps of tonemap_cpu_foveal_image's box average, for other implementations of it
 * (tonemap_fast.c). tonemap_foveal_add_row: adds the finite pixels of image row ROW to the
 * sums of its foveal row's FW boxes, BOXES (R, G, B and the count, 4 doubles per box), left
 * to right. tonemap_foveal_average: the average colours of NF boxes of sums SUM into RGB (3
 * floats per box; black where the count is 0). */
void tonemap_foveal_add_row(const hdr_image *img, int row, int fw, double *boxes);
void tonemap_foveal_average(const double *sum, size_t nf, float *rgb);

/* The last step of tonemap_cpu_foveal_image and its other implementations: with P's pcond
 * rules, the NF colours RGB (3 floats each) RGBE-rounded as pfilt writes them
 * (tonemap_rgbe_round, 179); else unchanged. */
void tonemap_foveal_pcond_round(const tonemap_params *p, float *rgb, size_t nf);

/* The same as pcond-reference's params.tsv names it ("linear(range<=display)", ...): the
 * name in tonemap_mappings. */
const char *tonemap_mapping_pcond_name(unsigned mapping);

/* CPU reference: analyse IMG (all four steps but the apply) into *r; with P's human-vision
 * options as human_cpu_analyze does. */
void tonemap_cpu_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r);

/* What the human-vision options change in an analysis (human.c runs it twice, as pcond). */
typedef struct tonemap_stage_input {
    const float *fov_rgb;  /* foveal image to sample (fw * fh * 3, image units, grid of
                              tonemap_foveal_grid), NULL: IMG's own */
    uint64_t *rand_state;  /* drand48 state the point samples draw from, advanced; NULL: 0
                              (glibc's unseeded state) */
    int range_fits;        /* -1: the range decides "range fits the display" as usual; 0 or 1:
                              decided before (pcond's check2do, on the first histogram) */
    bool pcond_exact;      /* pcond's own rounding: Lw of the RGB a Radiance picture stores
                              (cd/m^2 / 179, weighted in float, times 179), and the darkest
                              point samples of a widened range in the bin pcond's double
                              arithmetic gives them (it can round them into bin 0);
                              false: Lw as the shaders compute it, and bin 1 */
} tonemap_stage_input;

/* The Lw pcond computes for pixel C (image units) with P's scale and luminance weights
 * (tonemap_stage_input.pcond_exact): from the RGB a Radiance picture stores (cd/m^2 / 179),
 * the weighted sum in float, then times 179, in double; NaN when C is not a valid sample
 * (not finite, or Lw <= 0 in the shaders' arithmetic). */
double tonemap_pcond_lw(const float c[3], const tonemap_params *p);

/* The bin pcond puts the darkest samples of a widened automatic range in, LO their exact Lw
 * and HI the brightest sample's (tonemap_pcond_lw; a point sample's rounded to float): its
 * double arithmetic (pcond3.c comphist) rounds them into bin 1 or down into bin 0, as the
 * bits of LO and HI fall. With pcond_exact the analysis bins the point samples at LO there. */
int tonemap_darkest_bin(int n, double lo, double hi);

/* tonemap_cpu_analyze without the human-vision options, with IN (NULL: none) changing the
 * samples and the range test. */
void tonemap_cpu_analyze_input(const hdr_image *img, const tonemap_params *p,
                               const tonemap_stage_input *in, tonemap_result *r);

/* The weights the curve step starts from, F[0..r->bins): r's counts plus its point samples
 * times their weight, with the bottom-bin rule of a widened range applied. */
void tonemap_cpu_weights(const tonemap_result *r, double *f);

/* The curve step alone (ceiling, cumf, mapping, linear scale) on r's range, ln_avg and
 * counts, from the weights F (as tonemap_cpu_weights makes them; any positive scale) instead
 * of r's histogram: what the temporal adaptation (adapt.h) curves its state with. */
void tonemap_cpu_curve_weights(const tonemap_params *p, const double *f, tonemap_result *r);

/* The reference's steps, for other implementations of the same analysis (tonemap_fast.c).
 * tonemap_cpu_range: the range step (pass_range): bw_min/bw_max, lo/hi_thresh and widened
 * from P and r's counts and lw_min/lw_max (at least one valid sample).
 * tonemap_bin_of_log: the histogram bin of a sample with ln Lw = B, in r's binning.
 * tonemap_cpu_finish: what follows the binning: pt_sum_ln, pt_weight and ln_avg from the sums
 * of ln Lw of the counted samples (SUM_MAIN: the pixels or foveal samples, SUM_PTS: the point
 * samples, each added up in sample order), then tonemap_cpu_curve.
 * tonemap_cpu_curve: the curve step (pass_curve): bottom-bin rule, ceiling iteration, cumf,
 * linear scale; FITS: tonemap_stage_input's range_fits. */
void tonemap_cpu_range(const tonemap_params *p, tonemap_result *r);
int tonemap_bin_of_log(const tonemap_result *r, double b);
void tonemap_cpu_finish(const tonemap_params *p, int fits, double sum_main, double sum_pts,
                        tonemap_result *r);
void tonemap_cpu_curve(const tonemap_params *p, int fits, tonemap_result *r);

/* tonemap_point_positions drawing from the drand48 state *STATE (advanced), so that a second
 * walk continues the sequence where the first stopped (pcond's second histogram). */
bool tonemap_point_walk(int w, int h, uint32_t n, uint64_t *state, uint32_t *xy);

/* CPU reference of the apply pass: RGB8 output, width*height*3 bytes, top row first (with
 * P's human-vision options, human_cpu_pre's pixels; without them when out of memory). */
void tonemap_cpu_apply(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                       uint8_t *rgb);

/* The same before the 8-bit rounding: the display-encoded value scaled to 0..65535 and
 * rounded, width*height*3 uint16_t (export --depth 16). */
void tonemap_cpu_apply16(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                         uint16_t *rgb);

/* The same before the display encoding: the linear output, 1 = Ldmax, unclipped,
 * width*height*3 floats (export's hdr and pfm): the values a Radiance picture of pcond's
 * stores (README.md in pcond-reference, "Output encoding"). */
void tonemap_cpu_apply_linear(const hdr_image *img, const tonemap_params *p,
                              const tonemap_result *r, float *rgb);

/* pcond's EXPOSURE line for that output: for a linear mapping, the output over the scene's
 * radiance in Radiance's units (cd/m^2 / HT_WHTEFFICACY), pcond's scalef; 0 for the
 * histogram mapping (pcond writes no line). */
double tonemap_exposure_pcond(const tonemap_result *r, const tonemap_params *p);

#endif
