/* Image statistics: the brightest and darkest pixels, the K brightest local peaks,
 * and the RGBA and grey histograms of the tone-mapped output; on the GPU (imgstats_gpu.c and
 * the pass_brightest/colorhist/greyhist passes) and as a CPU reference (imgstats_cpu.c).
 * The definitions are in docs/statistics.md; in short:
 *  - Y = 0.2126 R + 0.7152 G + 0.0722 B in double over pixels with R, G, B finite, as in
 *    exr-samples/README.md. Brightest: the largest Y > 0, darkest: the smallest Y > 0; ties go
 *    to the first pixel in row-major order (top row first). Absent when no pixel has Y > 0.
 *  - Peaks are ranked by the single-precision Y_f (imgstats_luminance_f, the tone mapper's
 *    luminance), local maxima of their 8-neighbourhood, chosen greedily, pairwise Euclidean
 *    distance >= min_distance.
 *  - grey = (54 R + 183 G + 19 B + 128) >> 8 on the 8-bit output.
 * Both backends give identical results (positions, values and counts). The GPU side is
 * gpu/imgstats_gpu.h. */
#ifndef HT_IMGSTATS_H
#define HT_IMGSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_shared.h"
#include "image.h"

/* One pixel of the answer. */
typedef struct imgstats_pixel {
    bool valid;           /* false: there is no such pixel (JSON null) */
    int x, y;             /* relative to the data window (index into img->rgba) */
    int abs_x, abs_y;     /* absolute: + data window origin */
    double luminance;     /* Y in double */
    float rgb[3];
} imgstats_pixel;

typedef struct imgstats {
    imgstats_pixel brightest, darkest;   /* their luminances are the max and min Y > 0 */
    int peaks_asked;                     /* K (0: no peak search) */
    int n_peaks;                         /* found, <= K */
    imgstats_pixel *peaks;               /* n_peaks, brightest first; owned (imgstats_free) */
    bool have_hist;                      /* the histograms were computed */
    uint32_t rgba_hist[4][HT_COLOR_BINS];
    uint32_t grey_hist[HT_GREY_BINS];
} imgstats;

/* Frees out->peaks and zeroes *out. Accepts a zeroed struct. */
void imgstats_free(imgstats *s);

/* CPU reference. RGB: the tone-mapped output, width*height*3 bytes, top row first (alpha is
 * 255 by definition), or NULL for no histograms. PEAKS = K (0 = none), MIN_DISTANCE = D.
 * False only when out of memory. The caller frees *out with imgstats_free. */
bool imgstats_cpu(const hdr_image *img, const uint8_t *rgb, int peaks, int min_distance,
                  imgstats *out);

/* --- Definitions shared by both backends (imgstats_cpu.c). --- */

/* The luminance weights of IMG's statistics: the Y row of its colour space
 * (colour_luminance_weights; Rec. 709: 0.2126, 0.7152, 0.0722, as exr-samples/README.md). */
void imgstats_weights(const hdr_image *img, double w[3]);
/* Y in double with the weights W. */
double imgstats_luminance(const double w[3], const float *rgb);
/* Y_f: the single-precision luminance of common.glsl's ht_classify (scale 1, u_lum_w = W
 * rounded to float), evaluated in the same order with no fused multiply-add, so the GPU
 * computes the same float. */
float imgstats_luminance_f(const double w[3], const float *rgb);
/* The grey level of an 8-bit RGB triple. */
static inline unsigned imgstats_grey(unsigned r, unsigned g, unsigned b)
{
    return (HT_GREY_WR * r + HT_GREY_WG * g + HT_GREY_WB * b + 128u) >> 8;
}

/* Fills *px from the pixel at row-major INDEX of IMG. */
void imgstats_pixel_at(const hdr_image *img, size_t index, imgstats_pixel *px);

/* Running brightest/darkest (Y > 0, first in row-major order on ties); -1 = none yet. */
typedef struct imgstats_extrema_acc {
    int64_t bright, dark;
    double bright_y, dark_y;
} imgstats_extrema_acc;
#define IMGSTATS_EXTREMA_ACC_INIT {-1, -1, 0.0, 0.0}

/* Adds the pixels of the rectangle [x0,x1) x [y0,y1) of IMG to *a (to the bright and/or dark
 * side); the result does not depend on the order of the calls. */
void imgstats_extrema_scan(const hdr_image *img, int x0, int y0, int x1, int y1, bool bright,
                           bool dark, imgstats_extrema_acc *a);

/* Greedy choice of peaks among N local maxima CAND (of an image WIDTH x HEIGHT): by Y_f
 * descending, then index ascending, each taken when its Euclidean distance to every peak
 * already taken is >= MIN_DISTANCE, until K are taken. Writes the indices of the peaks to
 * OUT (room for K) in that order and returns their count; reorders CAND. -1 when out of
 * memory. */
int imgstats_select_peaks(ht_peak *cand, size_t n, int width, int height, int k,
                          int min_distance, uint32_t *out);

/* Chooses the peaks among N local maxima CAND (reordered) and fills out->peaks_asked,
 * n_peaks, peaks. False when out of memory. */
bool imgstats_fill_peaks(const hdr_image *img, ht_peak *cand, size_t n, int k, int min_distance,
                         imgstats *out);

#endif
