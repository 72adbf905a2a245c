/* Tone-mapping parameters and results, shared by the GPU pipeline and the CPU reference
 * (tonemap_cpu.c), which is the oracle for the GPU. The operator is Ward '97 as pcond
 * implements it; see WARD97.md and README.md. */
#ifndef HT_TONEMAP_H
#define HT_TONEMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_shared.h"
#include "image.h"

typedef struct tonemap_params {
    int bins;            /* histogram bins, HT_MIN_BINS..HT_MAX_BINS */
    double lmin, lmax;   /* world luminance range in cd/m^2; both 0 = automatic */
    double ldmax;        /* display maximum, cd/m^2 */
    double drange;       /* display dynamic range Ldmax/Ldmin */
    int ceiling;         /* HT_CEILING_* */
    int transfer;        /* HT_TRANSFER_* */
    double gamma;        /* for HT_TRANSFER_GAMMA */
    double scale;        /* cd/m^2 per image unit */
} tonemap_params;

/* Fills the defaults of WARD97.md (100 bins, Ldmax 100, Dr 100, linear ceiling, sRGB, s = 1). */
void tonemap_params_default(tonemap_params *p);

/* What the analysis (range, histogram, ceiling, curve) produced: the same fields as the
 * GPU's frame buffer (ht_frame), so one type carries either backend's answer. */
typedef ht_frame tonemap_result;

/* The response: display luminance Ld (cd/m^2) for world luminance LW (cd/m^2). */
double tonemap_curve_ld(const tonemap_result *r, const tonemap_params *p, double lw);

/* Output scale factor for a pixel of world luminance LW: out_rgb = s * rgb * factor. 0 for
 * pixels that are black (Lw < HT_LMIN, or no mapping). */
double tonemap_pixel_factor(const tonemap_result *r, const tonemap_params *p, double lw);

/* Display encoding of a linear value in [0,1] (clipped) to 8 bits. */
uint8_t tonemap_encode(const tonemap_params *p, double v);

/* Name of a HT_MAP_* value ("histogram", "linear (range fits display)", ...). */
const char *tonemap_mapping_name(unsigned mapping);

/* CPU reference: analyse IMG (all four steps but the apply) into *r. */
void tonemap_cpu_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r);

/* CPU reference of the apply pass: RGB8 output, width*height*3 bytes, top row first. */
void tonemap_cpu_apply(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                       uint8_t *rgb);

#endif
