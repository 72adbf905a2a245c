/* Radiance's falsecolor (src/px/falsecolor.pl) as this program draws it: its default palette,
 * its linear and logarithmic scales, bands and contour lines, its automatic scale and its
 * legend's values. The formulas, with falsecolor's names in brackets, are in falsecolor.c. */
#ifndef HT_FALSECOLOR_H
#define HT_FALSECOLOR_H

#include <stdbool.h>

#include "display.h"

/* The default palette's control points ([def_redp] etc.), linear RGB, HT_FC_STEP apart. */
extern const float falsecolor_palette[HT_FC_PALETTE_N][3];

/* The palette at X (0..1 spans it; clipped beyond) [def_red(x) etc., clipped]. */
void falsecolor_palette_rgb(double x, double rgb[3]);

/* The scale position of luminance LUM (cd/m^2): LUM / fc_max, or with fc_decades N
 * log10(LUM / fc_max) / N + 1 above 10^-N, else 0 [map(li * norm)]. */
double falsecolor_map(const display_params *d, double lum);

/* The colour of a pixel at scale position V with its neighbours' positions NB (left, right,
 * above, below: only the contour lines read them): the palette at V when smooth; for bands
 * and contours, whether the pixel is drawn (*drawn; black otherwise) and the palette at
 * (V - 1/n) n / (n - 1) [iscontb, isconta]. */
void falsecolor_rgb(const display_params *d, double v, const double nb[4], double rgb[3]);

/* falsecolor -s auto: the top of the scale from phisto's histogram of IMG's luminance
 * (D's units), a 128x128 box-filtered image: 10^x of its second-highest of 777 log10 bins'
 * centre. 1000 (the default scale) when no pixel has luminance > 0. */
double falsecolor_auto_max(const hdr_image *img, const display_params *d);

/* One label of the legend: the value it names (cd/m^2), its text as falsecolor prints it
 * (at most 3 decimals), and its scale position (0..1) where the legend's colour strip
 * shows it. */
typedef struct falsecolor_label {
    double value;
    double v;
    char text[32];
} falsecolor_label;

/* The legend's labels, top (the scale's maximum) first: fc_steps of them, and the bottom one
 * (0, or 10^-N of the maximum) too when smooth [haszero]. Returns the count (at most
 * fc_steps + 1; OUT has room for that). */
int falsecolor_labels(const display_params *d, falsecolor_label *out);

#endif
