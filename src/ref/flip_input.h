/* The pictures FLIP compares, from files: PNG and JPEG (display-referred: LDR-FLIP) or
 * OpenEXR, Radiance .hdr and PFM (scene-referred: HDR-FLIP), each recognised by content. */
#ifndef HT_FLIP_INPUT_H
#define HT_FLIP_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "flip.h"
#include "image.h"
#include "metrics.h"

typedef struct flip_input {
    int width, height;
    float *rgb;        /* width*height*3 linear Rec. 709 RGB (FLIP's and the metrics' space),
                          top row first; owned. LDR: the sRGB values decoded (the sRGB curve),
                          or a tagged file's linear values (image_ldr.h); HDR: as stored,
                          non-finite values set to 0 (the authors' tool would carry NaN into
                          every exposure); either converted from the file's colour space */
    bool hdr;
    image_colour colour; /* the file's colour space (before the conversion) */
    char format[16];   /* "PNG", "JPEG", "OpenEXR", ... */
} flip_input;

/* Loads PATH with OPTS (the part, layer, size limit and --colorspace of an HDR file; NULL =
 * defaults), its values converted to linear Rec. 709 by colour.h's transform of its colour
 * space, WHITE (HT_WHITE_*) the rule for files without adoptedNeutral. False with "PATH:
 * reason" in err. */
bool flip_input_load(const char *path, const image_load_options *opts, int white,
                     flip_input *in, char *err, size_t errlen);

/* Whether REF and TEST can be compared: both LDR or both HDR, of one size. False with the
 * reason, naming both files, in err. */
bool flip_input_check_pair(const flip_input *ref, const char *ref_path, const flip_input *test,
                           const char *test_path, char *err, size_t errlen);

/* Frees the pixels and zeroes *in; accepts an empty one. */
void flip_input_free(flip_input *in);

/* Everything a comparison reports: FLIP's mode, viewing conditions, exposures (HDR) and
 * pooled values, and the plain metrics (metrics.h), over the whole image or a rectangle. */
typedef struct flip_report {
    bool hdr;
    float ppd;
    flip_exposures exposures;   /* HDR-FLIP's; zero for LDR */
    flip_pooled flip;
    metrics_values metrics;
} flip_report;

/* The CPU reference of a comparison of TEST against REF (a pair flip_input_check_pair
 * accepted) with P: FLIP's map into MAP (W*H floats, the caller's) and *R over RECT (NULL =
 * whole). False with the reason in err. */
bool flip_report_cpu(const flip_input *ref, const flip_input *test, const flip_params *p,
                     const flip_rect *rect, float *map, flip_report *r, char *err,
                     size_t errlen);

#endif
