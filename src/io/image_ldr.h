/* PNG and JPEG pictures (display-referred, 8 or 16 bits) for comparison (hdrtone compare,
 * LDR-FLIP), read with stb_image: the library already linked for .hdr, which decodes both
 * formats behind one call and is what the authors' FLIP tool reads them with, so a JPEG
 * decodes to the same pixels as in the tool (libjpeg-turbo's IDCT rounds differently). */
#ifndef HT_IMAGE_LDR_H
#define HT_IMAGE_LDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ldr_image {
    int width, height;
    float *rgb;           /* width*height*3 sRGB-encoded values in [0, 1] (v / 255, or
                             v / 65535 for 16-bit PNG), top row first; owned */
    int bits;             /* 8 or 16 */
    char format[8];       /* "PNG", "JPEG" */
} ldr_image;

/* Whether the first LEN bytes of a file, HEAD, begin a PNG or a JPEG. */
bool image_ldr_sniff(const uint8_t *head, size_t len);

/* Whether PATH is a PNG or JPEG by its content (false when it cannot be read). */
bool image_ldr_is_ldr(const char *path);

/* Loads PATH (PNG or JPEG; grey expands to RGB, alpha is dropped, as FLIP's tool reads it).
 * True with *img filled (free with image_ldr_free); false with "PATH: reason" in err and
 * *img empty. Pictures of more than MAX_PIXELS (0 = HT_DEFAULT_MAX_PIXELS) are refused. */
bool image_ldr_load(const char *path, uint64_t max_pixels, ldr_image *img, char *err,
                    size_t errlen);

/* Frees the pixels and zeroes *img; accepts an empty image. */
void image_ldr_free(ldr_image *img);

#endif
