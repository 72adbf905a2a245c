/* The pictures FLIP compares, from files: PNG and JPEG (display-referred: LDR-FLIP) or
 * OpenEXR, Radiance .hdr and PFM (scene-referred: HDR-FLIP), each recognised by content. */
#ifndef HT_FLIP_INPUT_H
#define HT_FLIP_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"

typedef struct flip_input {
    int width, height;
    float *rgb;        /* width*height*3 linear RGB, top row first; owned. LDR: the sRGB
                          values decoded (the sRGB curve); HDR: as stored, non-finite values
                          set to 0 (the authors' tool would carry NaN into every exposure) */
    bool hdr;
    char format[16];   /* "PNG", "JPEG", "OpenEXR", ... */
} flip_input;

/* Loads PATH with OPTS (the part, layer and size limit of an HDR file; NULL = defaults).
 * False with "PATH: reason" in err. */
bool flip_input_load(const char *path, const image_load_options *opts, flip_input *in,
                     char *err, size_t errlen);

/* Whether REF and TEST can be compared: both LDR or both HDR, of one size. False with the
 * reason, naming both files, in err. */
bool flip_input_check_pair(const flip_input *ref, const char *ref_path, const flip_input *test,
                           const char *test_path, char *err, size_t errlen);

/* Frees the pixels and zeroes *in; accepts an empty one. */
void flip_input_free(flip_input *in);

#endif
