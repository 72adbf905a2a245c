/* Luminance statistics of a rectangle of an image (stats --region, the viewer's dragged
 * rectangle): over the finite pixels with luminance > 0, as image_compute_stats counts. */
#ifndef HT_REGION_H
#define HT_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "image.h"

/* Bins of the region's log-luminance histogram. */
#define REGION_BINS 64

typedef struct region_lum {
    double min, max, mean, median, log_average;   /* NaN when no pixel counts */
} region_lum;

typedef struct region_stats {
    int rect[4];            /* x0, y0, x1, y1 inclusive, data-window pixels (0,0 = its corner) */
    uint64_t pixels;        /* in the rectangle */
    uint64_t counted;       /* finite R, G, B with luminance > 0 */
    region_lum file;        /* Y of the file's own values (its primaries' Y row) */
    region_lum cd_m2;       /* the units' luminance (weights x scale), cd/m^2 */
    double ln_min, ln_max;  /* the histogram's range: ln cd/m^2 of the smallest and largest */
    uint32_t hist[REGION_BINS];   /* counted pixels by ln cd/m^2, equal bins over the range
                                     (the largest in the last bin) */
} region_stats;

/* Parses "X0,Y0,X1,Y1" (integers, X0 <= X1 and Y0 <= Y1) into RECT; false with the reason in
 * err (a malformed rectangle: a usage error, before any image is read). */
bool region_parse(const char *s, int rect[4], char *err, size_t errlen);

/* Parses "X,Y" (integers) into XY and, with IMG, checks it is a pixel of IMG's data window;
 * false with the reason in err. */
bool region_pixel(const char *s, const hdr_image *img, int xy[2], char *err, size_t errlen);

/* Checks RECT against IMG's data window (W x H): 0 <= x0 <= x1 < W, the same for y. False
 * with the reason (the rectangle and the size) in err. */
bool region_check(const hdr_image *img, const int rect[4], char *err, size_t errlen);

/* The statistics of RECT (region_check'ed) of IMG (its floats, or its half floats), the
 * cd/m^2 figures with WEIGHTS and SCALE (units.h). False (err) when out of memory or RECT is
 * bad. */
bool region_compute(const hdr_image *img, const int rect[4], const double weights[3],
                    double scale, region_stats *st, char *err, size_t errlen);

#endif
