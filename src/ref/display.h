/* Display modes: what the apply pass shows of an image (tone mapping, a plain exposure, a
 * false-colour luminance map as Radiance's falsecolor draws it, one channel alone), their
 * parameters as one struct, and the CPU reference of the modes other than tone mapping (the
 * GPU's apply pass is held to it). The mode constants are HT_VIEW_* etc. in gpu_shared.h,
 * shared with the shaders. */
#ifndef HT_DISPLAY_H
#define HT_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "ht_enum.h"
#include "image.h"
#include "tonemap.h"
#include "units.h"

/* The tables (ht_enum.h) of the mode and its choices, in command-line order. */
extern const ht_enum display_modes[];            /* HT_VIEW_*: tonemap, exposure, ... */
extern const ht_enum display_fc_styles[];        /* HT_FC_*: smooth, bands, contours */
extern const ht_enum display_channels[];         /* HT_CHANNEL_*: R, G, B, A, Y */
extern const ht_enum display_channel_palettes[]; /* HT_CH_PALETTE_*: auto, grey, ... */

/* Zero is not the default here: display_params_default. The display encoding (sRGB or
 * gamma) is tonemap_params' transfer and gamma, for every mode. */
typedef struct display_params {
    int mode;              /* HT_VIEW_* */
    /* exposure, falsecolor, channel: the display value (1: the display's peak) of the mode's
     * 1.0, the SDR picture's white: 1, or HT_HDR_REF_WHITE / Ldmax for an HDR output
     * (export_view_hdr_white) */
    double white;
    /* exposure: out = value * 2^exposure + offset, clipped to 0..1, encoded */
    double exposure;       /* stops */
    double offset;
    /* falsecolor (Radiance falsecolor's options in brackets) */
    double fc_max;         /* top of the scale, cd/m^2 [-s]; <= 0: automatic (as -s a:
                              display_resolve sets it with falsecolor_auto_max) */
    int fc_decades;        /* 0: linear; N: logarithmic over N decades [-log N] */
    int fc_steps;          /* steps of the legend, bands and contours [-n], >= 2 */
    int fc_style;          /* HT_FC_*: smooth, bands [-cb], contour lines [-cl] */
    /* the image's units (units.h): luminance in cd/m^2 = scale * (weights . RGB) */
    double units_scale;
    double weights[3];
    /* channel */
    int channel;           /* HT_CHANNEL_* */
    int ch_palette;        /* HT_CH_PALETTE_*; display_resolve turns auto into one */
    double ch_min, ch_max; /* the range shown; display_resolve sets it from the image when
                              both are 0 */
    /* ocio (ocio_view.h): value * 2^exposure through the config's display and view after the
     * look; NULL: $OCIO else the bundled config, its default display and view, no look.
     * ocio_input: the config's colour space of the pixels (--colorspace naming one of the
     * config's; else ocio_view_input sets it per image) */
    const char *ocio_config, *ocio_display, *ocio_view, *ocio_look, *ocio_input;
} display_params;

/* Defaults: tone mapping; white 1; exposure 0 EV, offset 0; falsecolor linear, 8 steps, smooth, scale
 * 1000 cd/m^2 (falsecolor's own defaults); channel R over its range, palette auto; relative
 * units with Rec. 709 weights. */
void display_params_default(display_params *d);

/* D's units from U. */
void display_set_units(display_params *d, const image_units *u);

/* The range of CHANNEL of IMG over its finite values (Y: D's weights, image units) into *lo,
 * *hi; false (both 0) when no value is finite. Reads the floats, or the half floats when the
 * floats are gone. */
bool display_channel_range(const hdr_image *img, int channel, const double weights[3],
                           double *lo, double *hi);

/* What D leaves automatic, made concrete for IMG: an automatic falsecolor scale
 * (falsecolor_auto_max), a channel range of 0..0 (display_channel_range), palette auto
 * (diverging when the range is signed, else sequential). */
void display_resolve(display_params *d, const hdr_image *img);

/* CPU reference of the apply pass in D's modes other than tone mapping: RGB8 of IMG's floats,
 * width * height * 3 bytes, top row first, encoded with TM's transfer. Resolve D first. */
void display_cpu_apply(const hdr_image *img, const tonemap_params *tm, const display_params *d,
                       uint8_t *rgb);

/* The same before the 8-bit rounding: the encoded values x 65535, rounded, width * height * 3
 * uint16_t (the exposure view's HDR output, export --hdr). */
void display_cpu_apply16(const hdr_image *img, const tonemap_params *tm,
                         const display_params *d, uint16_t *rgb);

/* Display-linear RGB (1: the display's peak; changed) encoded with TM's transfer and rounded
 * to BITS (8 or 16) into sample K (pixel K's three values) of OUT (uint8_t or uint16_t):
 * what the apply pass and its CPU reference write. */
void display_encode(const tonemap_params *tm, double rgb[3], int bits, void *out, size_t k);

/* The diverging palette of the channel view, linear RGB: the negative end, the middle (0),
 * the positive end (Moreland's cool-warm ends). */
extern const double display_diverging[3][3];

/* The displayed linear colour (before the encoding) of channel value V for D's palette and
 * range (resolved). */
void display_channel_rgb(const display_params *d, double v, double rgb[3]);

#endif
