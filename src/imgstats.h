/* Image statistics (issue 4): the brightest and darkest pixels, the K brightest local peaks,
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
 * Both backends give identical results (positions, values and counts). */
#ifndef HT_IMGSTATS_H
#define HT_IMGSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_shared.h"
#include "image.h"
#include "pipeline.h"

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

/* GPU, one shot: the statistics of the image P last tone-mapped (pipeline_tonemap_image, or
 * pipeline_upload + pipeline_analyze + pipeline_apply with the image source): IMG must be the
 * image that was uploaded (the exact finish reads it). GREY_KERNEL: HT_GREY_* of options.h.
 * Builds and deletes its programs on every call: for repeated use take an imgstats_gpu_ctx.
 * False with the reason in err. The caller frees *out with imgstats_free. */
bool imgstats_gpu(pipeline *p, const hdr_image *img, int grey_kernel, int peaks,
                  int min_distance, imgstats *out, char *err, size_t errlen);

/* --- Repeated use (viewer, benchmark). Needs a current GL 4.3 context. --- */

/* The GPU passes, for timing them one by one. */
#define IMGSTATS_PASSES(X) \
    X(extrema)      /* brightest.comp + brightest_reduce.comp: brightest/darkest candidates */ \
    X(peaks)        /* brightest_peaks.comp: local maxima */                                  \
    X(hist_clear)   /* colorhist_clear.comp: zeroes both histograms */                        \
    X(rgba)         /* colorhist.comp */                                                      \
    X(grey_global)  /* greyhist.comp, the three strategies */                                 \
    X(grey_shared)                                                                            \
    X(grey_private)
#define IMGSTATS_PASS_ENUM_(n) IMGSTATS_PASS_##n,
enum { IMGSTATS_PASSES(IMGSTATS_PASS_ENUM_) IMGSTATS_PASS_COUNT };
#undef IMGSTATS_PASS_ENUM_
extern const char *const imgstats_pass_names[IMGSTATS_PASS_COUNT];

typedef struct imgstats_gpu_ctx imgstats_gpu_ctx;

/* Builds every program and the buffers. NULL with the reason in err. */
imgstats_gpu_ctx *imgstats_gpu_create(char *err, size_t errlen);
/* Accepts NULL; sets *c to NULL. */
void imgstats_gpu_destroy(imgstats_gpu_ctx **c);

/* Sets the inputs of the next passes and sizes the buffers for them: IMAGE, the float image
 * (a GL_TEXTURE_2D of one sample, pipeline_image_source), and OUTPUT, the RGBA8 tone-mapped
 * image (pipeline_output_texture with the image's size; texture 0 = no histograms). The
 * textures are only read, never owned. False (reason in err) for a multisampled source. */
bool imgstats_gpu_prepare(imgstats_gpu_ctx *c, ht_source image, ht_source output, char *err,
                          size_t errlen);

/* Dispatches one pass (IMGSTATS_PASS_*) on the prepared inputs; no read-back, no wait: the
 * benchmark calls it between its timer queries. The histogram passes add to the counts:
 * run hist_clear before them. */
void imgstats_gpu_run_pass(imgstats_gpu_ctx *c, int which);

/* Runs the passes a full answer needs (extrema; peaks when PEAKS > 0; clear, rgba and the
 * GREY_KERNEL grey pass when the output is set), then imgstats_gpu_read. */
bool imgstats_gpu_run(imgstats_gpu_ctx *c, const hdr_image *img, int grey_kernel, int peaks,
                      int min_distance, imgstats *out, char *err, size_t errlen);

/* Reads back what the last passes wrote and finishes on the CPU: the brightest/darkest
 * candidate tiles are rescanned in double from IMG (the uploaded image), the peaks are chosen
 * from the local maxima. PEAKS = 0 skips the peaks; histograms are read when an output is
 * set. Waits for the GPU. False when out of memory. */
bool imgstats_gpu_read(imgstats_gpu_ctx *c, const hdr_image *img, int peaks, int min_distance,
                       imgstats *out, char *err, size_t errlen);

/* The SSBO of the histograms (layout ht_hist: rgba[4*256] then grey[256]), for an overlay
 * that draws them without a read-back; valid after hist_clear + rgba + a grey pass. */
unsigned imgstats_gpu_hist_buffer(const imgstats_gpu_ctx *c);

/* --- Definitions shared by both backends (imgstats_cpu.c). --- */

/* Y in double (exr-samples/README.md). */
double imgstats_luminance(const float *rgb);
/* Y_f: the single-precision luminance of common.glsl's ht_classify (scale 1), evaluated in the
 * same order with no fused multiply-add, so the GPU computes the same float. */
float imgstats_luminance_f(const float *rgb);
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

#endif
