/* The OCIO display mode (--view ocio, HT_VIEW_OCIO): which of the config's colour spaces an
 * image's pixels are given as, and the CPU reference of the mode (OCIO's CPU processor), which
 * the GPU's apply pass (src/gpu/ocio_gpu.h, OCIO's GLSL) is held to. docs/colour.md. */
#ifndef HT_OCIO_VIEW_H
#define HT_OCIO_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "colour.h"
#include "display.h"
#include "ocio.h"

/* The config's colour space that the pixels of an image of colour C go in as, and in *X the
 * matrix they take first: D->ocio_input when set (identity); else the OCIO name of the named
 * space C equals (colour_space_match; identity); else linear Rec. 709's, X converting C to it
 * (colour_xform_make with WHITE, no gamut rule). False with the reason when C is degenerate. */
bool ocio_view_input(const display_params *d, const image_colour *c, int white,
                     const char **input, colour_xform *x, char *err, size_t errlen);

/* The choice of D for pixels in colour space INPUT. */
ocio_choice ocio_view_choice(const display_params *d, const char *input);

/* What the pixels of an OCIO view are, for the output's tags: SPACE, the colour space the view
 * writes ("": none), and when that is one of the ACES configs' display colour spaces that
 * hdrtone's display spaces equal (docs/colour.md, "Tags"), KNOWN with its display space,
 * transfer and gamma (tonemap_params' fields); else untagged. */
typedef struct ocio_view_output {
    char space[128];
    bool known;
    int display_space, transfer;
    double gamma;
} ocio_view_output;

/* D's view's output (its config, display, view). False with the reason (config, names). */
bool ocio_view_output_of(const display_params *d, ocio_view_output *out, char *err,
                         size_t errlen);

/* The pixel value that goes into OCIO: C * MUL through X's matrix (not the identity's), a
 * non-finite channel 0 (as the GPU's apply pass computes it, in float). */
void ocio_view_pixel(const float c[3], float mul, const colour_xform *x, float out[3]);

/* The CPU reference of the mode: IMG (WHITE: tonemap_params' white) through D into RGB
 * (width * height * 3 samples, top row first) of BITS 8 (uint8_t) or 16 (uint16_t): OCIO's
 * display-encoded values clipped to 0..1, scaled and rounded, no encoding of hdrtone's after
 * them. False with the reason (config, names). */
bool ocio_view_cpu_apply(const hdr_image *img, int white, const display_params *d, void *rgb,
                         int bits, char *err, size_t errlen);

#endif
