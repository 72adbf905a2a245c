/* Transfer functions, in one place (docs/hdr.md): the sRGB curve, a plain gamma (BT.1886's
 * 2.4), SMPTE ST 2084 (PQ) and BT.2100 HLG, in double. The apply pass's twins (ht_encode in
 * shaders/common.glsl) read the same constants (gpu_shared.h, HT_TRANSFER_FCONSTANTS).
 *
 * The curves are static inline so that the loaders (src/io, below this layer) decode an HDR
 * PNG with them without linking upwards; transfer.c holds what only the upper layers need.
 * Signals and linear values are in [0, 1]; every function clips its input to [0, 1] (a NaN
 * gives 0). */
#ifndef HT_TRANSFER_H
#define HT_TRANSFER_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_shared.h"

static inline double transfer_clip(double v)
{
    return v > 0.0 ? (v < 1.0 ? v : 1.0) : 0.0;
}

/* IEC 61966-2-1: linear -> signal, and back. */
static inline double transfer_srgb_encode(double v)
{
    v = transfer_clip(v);
    return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
}

static inline double transfer_srgb_decode(double e)
{
    e = transfer_clip(e);
    return e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4);
}

/* SMPTE ST 2084: Y = L / HT_PQ_PEAK -> signal (inverse EOTF), and the EOTF back to Y. */
static inline double transfer_pq_encode(double y)
{
    double p = pow(transfer_clip(y), HT_PQ_M1);
    return pow((HT_PQ_C1 + HT_PQ_C2 * p) / (1.0 + HT_PQ_C3 * p), HT_PQ_M2);
}

static inline double transfer_pq_decode(double e)
{
    double p = pow(transfer_clip(e), 1.0 / HT_PQ_M2);
    double num = p - HT_PQ_C1;
    return num > 0.0 ? pow(num / (HT_PQ_C2 - HT_PQ_C3 * p), 1.0 / HT_PQ_M1) : 0.0;
}

/* BT.2100 HLG: the OETF (scene-linear E -> signal) and its inverse. */
static inline double transfer_hlg_oetf(double e)
{
    e = transfer_clip(e);
    return e <= 1.0 / 12.0 ? sqrt(3.0 * e) : HT_HLG_A * log(12.0 * e - HT_HLG_B) + HT_HLG_C;
}

static inline double transfer_hlg_inverse_oetf(double s)
{
    s = transfer_clip(s);
    return s <= 0.5 ? s * s / 3.0 : (exp((s - HT_HLG_C) / HT_HLG_A) + HT_HLG_B) / 12.0;
}

/* The HLG system gamma of a display of nominal peak PEAK cd/m^2 (BT.2100, note 5e). */
static inline double transfer_hlg_gamma(double peak)
{
    return HT_HLG_GAMMA_REF + HT_HLG_GAMMA_K * log10(peak / 1000.0);
}

/* The HLG OOTF's factor: display light (relative to the peak) = scene light times
 * Ys^(gamma - 1), Ys = LUM . scene RGB; its inverse: scene = display times
 * Yd^((1 - gamma) / gamma), Yd = LUM . display RGB. 0 for a black pixel. */
static inline double transfer_hlg_ootf_factor(const double lum[3], const double rgb[3],
                                              double gamma, int inverse)
{
    double y = lum[0] * rgb[0] + lum[1] * rgb[1] + lum[2] * rgb[2];
    if (!(y > 0.0))
        return 0.0;
    return inverse ? pow(y, (1.0 - gamma) / gamma) : pow(y, gamma - 1.0);
}

/* The display light of an HLG signal: RGB's signals (in place) -> cd/m^2 on a display of
 * nominal peak PEAK with luminance weights LUM (inverse OETF, then the OOTF). */
static inline void transfer_hlg_to_display(const double lum[3], double peak, double rgb[3])
{
    for (int c = 0; c < 3; c++)
        rgb[c] = transfer_hlg_inverse_oetf(rgb[c]);
    double f = peak * transfer_hlg_ootf_factor(lum, rgb, transfer_hlg_gamma(peak), 0);
    for (int c = 0; c < 3; c++)
        rgb[c] *= f;
}

/* The light an output shows, measured from its 16-bit codes RGB (NPIX pixels, 3 codes each)
 * of transfer TRANSFER (HT_TRANSFER_PQ or HT_TRANSFER_HLG; nominal peak PEAK and luminance
 * weights LUM for HLG): MaxCLL, the largest channel of any pixel, and MaxFALL, the mean over
 * the pixels of their largest channel (CTA-861.3 for one frame), in cd/m^2. False for another
 * transfer. */
bool transfer_light_levels(const uint16_t *rgb, size_t npix, int transfer, double peak,
                          const double lum[3], double *max_cll, double *max_fall);

#endif
