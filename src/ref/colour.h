/* Colour spaces: primaries and whites to matrices, chromatic adaptation, the named spaces and
 * display spaces, and the transform tone mapping applies (docs/colour.md). Plain C, no GL: the
 * GPU passes and the CPU reference both take a colour_xform from here.
 *
 * Conventions: a matrix is 3x3 row-major (m[3 * row + col]) and maps a column vector;
 * chromaticities are CIE 1931 x, y; Y of an RGB white (1, 1, 1) is 1. */
#ifndef HT_COLOUR_H
#define HT_COLOUR_H

#include <stdbool.h>
#include <stddef.h>

#include "ht_enum.h"
#include "image.h"

/* The display spaces an output is encoded for (--display-space). */
enum {
    HT_DISPLAY_SPACE_SRGB = 0,        /* Rec. 709 primaries, D65, the sRGB curve */
    HT_DISPLAY_SPACE_DISPLAY_P3 = 1,  /* P3 primaries, D65, the sRGB curve (Apple's Display P3) */
    HT_DISPLAY_SPACE_REC2020 = 2,     /* Rec. 2020 primaries, D65, BT.1886's gamma 2.4 */
    HT_DISPLAY_SPACE_REC709_G24 = 3,  /* Rec. 709 primaries, D65, BT.1886's gamma 2.4 */
};
extern const ht_enum colour_display_spaces[];

/* How colours outside the display's gamut are brought in (--gamut): HT_GAMUT_* of
 * gpu_shared.h (the apply pass reads them too). */
extern const ht_enum colour_gamuts[];

/* How the white of a file without adoptedNeutral is shown (--white). */
enum {
    HT_WHITE_ABSOLUTE = 0,  /* absolute colorimetric: the file's white shown as what it is
                               (OpenEXR's rule without adoptedNeutral; tev's) */
    HT_WHITE_ADAPT = 1,     /* the encoding's white adapted to the display's (Bradford): for
                               ACEScg renders that omit adoptedNeutral */
};
extern const ht_enum colour_whites[];

/* A named colour space: --colorspace's names, stats' names. */
typedef struct colour_space {
    const char *name;         /* command-line name: "rec709", "acescg", ... */
    const char *label;        /* "Rec. 709 / linear sRGB", ... */
    const char *ocio;         /* the colour space of the bundled OCIO config */
    double xy[4][2];          /* R, G, B, white */
    bool adapted;             /* its white is the one rendered neutral (set as adoptedNeutral) */
} colour_space;

/* The named spaces, ending with a NULL name. The first is the default (Rec. 709, D65). */
extern const colour_space colour_spaces[];

/* The space named NAME (a name or an alias: "srgb-linear", "linear-rec709"); NULL if none. */
const colour_space *colour_space_find(const char *name);

/* The names of the spaces separated by SEP, into BUF (LEN bytes, truncated). */
void colour_space_list(const char *sep, char *buf, size_t len);

/* Sets C to the named space S, with SOURCE (IMAGE_COLOUR_*). */
void colour_from_space(image_colour *c, const colour_space *s, int source);

/* The named space whose primaries and white equal C's within 1e-4, or NULL. */
const colour_space *colour_space_match(const image_colour *c);

/* The primaries and white of display space DS (HT_DISPLAY_SPACE_*): R, G, B, white. */
void colour_display_xy(int ds, double xy[4][2]);

/* The checks and matrices of an image's tags are image.h's (image_colour_check,
 * image_rgb_to_xyz, image_mat3_*): the loaders refuse degenerate tags. */

/* The Bradford adaptation from white FROM to white TO (x, y), in XYZ. */
void colour_bradford(const double from[2], const double to[2], double m[9]);

/* OUT = A * B. OUT may alias neither. */
void colour_mat3_mul(const double a[9], const double b[9], double out[9]);

/* What tone mapping needs of an image's colour space: LUM, the Y row of its RGB->XYZ (the
 * weights of every luminance), and TO_DISPLAY, its RGB -> the display's linear RGB.
 * For Rec. 709 on an sRGB or Rec. 709 display: the weights 0.2126, 0.7152, 0.0722 of BT.709
 * and the identity, exactly (the outputs are bit for bit those of a Rec. 709 pipeline). */
typedef struct colour_xform {
    double lum[3];
    double to_display[9];
} colour_xform;

/* The luminance weights of space C: the Y row of its RGB->XYZ; BT.709's 0.2126, 0.7152,
 * 0.0722 for Rec. 709 (and for degenerate tags, which image_load refuses). */
void colour_luminance_weights(const image_colour *c, double w[3]);

/* The identity: Rec. 709 in, an sRGB display. */
void colour_xform_identity(colour_xform *x);

/* The transform of space IN shown on display space DS. With IN's adoptedNeutral (or WHITE ==
 * HT_WHITE_ADAPT) the adopted white (else the encoding's white) is Bradford-adapted to the
 * display's; else absolute colorimetric. False with WHY when IN is degenerate (image_colour_check). */
bool colour_xform_make(const image_colour *in, int ds, int white, colour_xform *x, char *why,
                       size_t wl);

/* Whether X->to_display is the identity (nothing to convert). */
bool colour_xform_is_identity(const colour_xform *x);

/* One colour through X->to_display (double), for the CPU paths. */
void colour_xform_apply(const colour_xform *x, const double in[3], double out[3]);

/* The gamut rule G on display-linear RGB (before the clip): HT_GAMUT_COMPRESS mixes RGB
 * towards its display luminance Y (weights DISPLAY_LUM, the display's Y row) until the
 * smallest channel is 0; HT_GAMUT_CLIP leaves it. */
void colour_gamut_apply(int g, const double display_lum[3], double rgb[3]);

/* The display's Y row (for colour_gamut_apply). */
void colour_display_lum(int ds, double lum[3]);

/* IMAGE_COLOUR_* as stats names them: "default", "chromaticities", "adoptedNeutral", "icc",
 * "cicp", "option", "header". */
const char *colour_source_name(int source);

#endif
