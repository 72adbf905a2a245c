/* PNG and JPEG pictures (display-referred, 8 or 16 bits) for comparison (hdrtone compare,
 * LDR-FLIP), their colour tags honoured (icc.h), read with stb_image: the library already
 * linked for .hdr, which decodes both formats behind one call and is what the authors' FLIP
 * tool reads them with, so a JPEG decodes to the same pixels as in the tool (libjpeg-turbo's
 * IDCT rounds differently). */
#ifndef HT_IMAGE_LDR_H
#define HT_IMAGE_LDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "image.h"

typedef struct ldr_image {
    int width, height;
    float *rgb;           /* width*height*3 values, top row first; owned. Untagged and sRGB-
                             tagged files: the sRGB-encoded values in [0, 1] (v / 255, or
                             v / 65535 for 16-bit PNG), linear false. Files with another tag
                             (ICC, cICP, cHRM/gAMA: ldr_colour.h): linear Rec. 709 values
                             (icc.h; beyond [0, 1] for colours outside its gamut), linear true */
    bool linear;
    image_colour colour;  /* what the values are: Rec. 709 and where that came from (source) */
    char tag[48];         /* the tag that ruled ("iCCP", "cICP 12/13/0/1", ...; "" = none) */
    int bits;             /* 8 or 16 */
    char format[8];       /* "PNG", "JPEG" */
} ldr_image;

/* Whether the first LEN bytes of a file, HEAD, begin a PNG or a JPEG. */
bool image_ldr_sniff(const uint8_t *head, size_t len);

/* Whether PATH is a PNG or JPEG by its content (false when it cannot be read). */
bool image_ldr_is_ldr(const char *path);

/* Loads PATH (PNG or JPEG; grey expands to RGB, alpha is dropped, as FLIP's tool reads it)
 * with its colour tags (ldr_colour.h). True with *img filled (free with image_ldr_free); false
 * with "PATH: reason" in err and *img empty: an unreadable file, a corrupt or unsupported
 * colour tag (ICC profile, iCCP, APP2, cICP). Pictures of more than MAX_PIXELS (0 =
 * HT_DEFAULT_MAX_PIXELS) are refused. */
bool image_ldr_load(const char *path, uint64_t max_pixels, ldr_image *img, char *err,
                    size_t errlen);

/* The same for a file already in memory (DATA, SIZE bytes; PATH names it in messages): the
 * fuzzer's entry point. */
bool image_ldr_load_memory(const char *path, const uint8_t *data, size_t size,
                           uint64_t max_pixels, ldr_image *img, char *err, size_t errlen);

/* Frees the pixels and zeroes *img; accepts an empty image. */
void image_ldr_free(ldr_image *img);

#endif
