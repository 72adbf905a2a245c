/* FLIP's passes over one row at a time, written for the vectoriser (flip_rows.c, compiled
 * -O3, with an AVX2 clone on x86-64 and glibc's vector powf): each loop runs across the
 * pixels of a row, and each pixel's sums keep the tool's order of taps, so a pixel's value is
 * the scalar one's (the vector powf aside: within an ulp or two). Internal to src/ref
 * (flip.c drives them). */
#ifndef HT_FLIP_ROWS_H
#define HT_FLIP_ROWS_H

#include <stdbool.h>

#include "flip.h"

/* How a pixel of an input becomes the linear RGB in [0, 1] that LDR-FLIP compares. */
typedef struct flip_source {
    const float *rgb;
    int channels;             /* 3 or 4, the first three used */
    bool hdr;
    float scale;              /* HDR: 2^exposure */
    flip_tonemapper tm;
} flip_source;

/* The planes of a row after the x filters, FLIP_XPLANES rows of W floats one after another:
 * the spatial filters' Y, Cx, Cz (first Gaussian), Cz (second), then the feature filters'
 * dg, ddg and g of the normalised Y. */
enum { FLIP_XPLANES = 7 };
/* The planes of an output row after the y filters, FLIP_YPLANES rows of W: Y, Cx, Cz1, Cz2,
 * and the edge's dx, the point's ddx, the edge's dy, the point's ddy. */
enum { FLIP_YPLANES = 8 };

/* Row SY of S (0 <= SY < h, the image W wide) as YCxCz planes Y, CX, CZ and the normalised Y
 * YN, each W + 2 HALO floats: the pixels at [HALO, HALO + W), the edge pixels repeated into
 * the HALO columns each side. */
void flip_row_convert(const flip_source *s, int sy, int w, int halo, float *y, float *cx,
                      float *cz, float *yn);

/* The x filters of the converted row (flip_row_convert's planes, HALO >= both radii) into
 * OUT's FLIP_XPLANES planes. */
void flip_row_filter_x(const flip_filters *f, int w, int halo, const float *y,
                       const float *cx, const float *cz, const float *yn, float *out);

/* The y filters for one output row: ROWS[i] (i = 0..2 HALO) the x-filtered rows (FLIP_XPLANES
 * planes each) from HALO above the output row to HALO below; into OUT's FLIP_YPLANES planes. */
void flip_row_filter_y(const flip_filters *f, int w, int halo, const float *const *rows,
                       float *out);

/* The FLIP error of one row from both inputs' y-filtered planes (REF, TEST) into MAP's W
 * values; MAX_INTO keeps the larger of MAP's value and the error (HDR-FLIP's exposures). */
void flip_row_error(const float *ref, const float *test, int w, flip_color_consts cc,
                    bool max_into, float *map);

#endif
