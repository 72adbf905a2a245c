/* The units of an image's luminance: which rule of the file gives cd/m^2, and the factor
 * (docs/lighting.md). Plain data for stats, export's legend and the viewer's status line. */
#ifndef HT_UNITS_H
#define HT_UNITS_H

#include "ht_enum.h"
#include "image.h"

/* The rules, in the order they are tried. */
enum {
    HT_UNITS_RADIANCE = 0,        /* a Radiance picture: 179 lm/W x Radiance's RGB weights,
                                     the EXPOSURE lines divided out (the loader does that) */
    HT_UNITS_WHITE_LUMINANCE = 1, /* OpenEXR whiteLuminance: cd/m^2 of RGB (1,1,1) */
    HT_UNITS_RELATIVE = 2,        /* nothing says: 1, the units are relative */
    HT_UNITS_USER = 3,            /* --scale S */
};
extern const ht_enum units_rules[];   /* names: radiance, white_luminance, relative, user */

typedef struct image_units {
    int rule;            /* HT_UNITS_* */
    double scale;        /* cd/m^2 per unit of the weighted sum of the loaded R, G, B */
    double weights[3];   /* the luminance weights of R, G, B: Radiance's for Radiance
                            pictures, Rec. 709's otherwise */
    double exposure;     /* a Radiance picture's EXPOSURE product (1: none, or not Radiance) */
    char format[16];     /* the file's format (hdr_image.format): rule white_luminance is
                            OpenEXR's attribute, or another format's own units (PQ, 203 cd/m^2
                            white of a PNG, ...) */
} image_units;

/* The units of IMG: with USER_SCALE > 0 (--scale) that factor (rule user, the file's
 * weights), else the file's rule. Never fails: relative when nothing says. */
void units_of_image(const hdr_image *img, double user_scale, image_units *u);

/* Luminance in cd/m^2 of the colour RGB (image units). */
double units_luminance(const image_units *u, const float rgb[3]);

/* One line for people: "Radiance: 179 lm/W x Radiance RGB / EXPOSURE 2" and so on. */
void units_describe(const image_units *u, char *buf, size_t len);

#endif
