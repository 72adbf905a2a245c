/* hdr_image: a decoded scene-referred image, and loading by content. */
#ifndef HT_IMAGE_H
#define HT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hdr_image {
    int width, height;        /* of the data window (the pixels held) */
    float *rgba;              /* width*height*4 floats, row-major, top row first; owned */
    int data_window[4];       /* x0, y0, x1, y1, inclusive, absolute pixel coordinates */
    int display_window[4];    /* x0, y0, x1, y1, inclusive */
    bool half_exact;          /* every value is exactly representable as a half float
                                 (EXR half channels): the GPU may store it as RGBA16F */
    char format[16];          /* "OpenEXR", "Radiance" */
    char channels[128];       /* as in the file, e.g. "A,B,G,R (half)" */
    char compression[32];     /* e.g. "PIZ", "RLE" */
    char rgb_source[64];      /* how R,G,B were formed, e.g. "R,G,B", "Y (R=G=B=Y)" */
} hdr_image;

/* Largest error message any loader writes. */
#define HT_ERR_MAX 512

/* Loads PATH by its content (magic bytes), not its extension. On success fills *img (the
 * caller frees it with image_free) and returns true. On failure returns false, leaves *img
 * empty and writes one line "PATH: reason" to err (errlen bytes). Never aborts on bad input. */
bool image_load(const char *path, hdr_image *img, char *err, size_t errlen);

/* Frees the pixels and zeroes *img. Accepts an empty or already freed image. */
void image_free(hdr_image *img);

/* Format-specific loaders used by image_load; same contract. DATA/SIZE is the whole file. */
bool image_load_exr(const char *path, const uint8_t *data, size_t size, hdr_image *img,
                    char *err, size_t errlen);
bool image_load_hdr(const char *path, const uint8_t *data, size_t size, hdr_image *img,
                    char *err, size_t errlen);

/* Statistics as defined in exr-samples/README.md (Y = 0.2126R + 0.7152G + 0.0722B in double,
 * over the data window). */
typedef struct image_stats {
    uint64_t total, finite, positive;   /* pixels: all; R,G,B finite; finite and Y > 0 */
    uint64_t nan, inf, negative;        /* R, G, B values counted one by one */
    double y_min, y_max, y_mean;        /* over finite pixels with Y > 0 (0 when none) */
    double y_log_average;               /* exp(mean ln Y) over the same pixels */
} image_stats;

void image_compute_stats(const hdr_image *img, image_stats *st);

#endif
