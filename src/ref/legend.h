/* The legend of the false-colour view: its colour strip and labelled values (cd/m^2) as an
 * RGB picture of 8 or 16 bits, laid out as Radiance's falsecolor does (its 100 x 200 legend: a
 * step of floor(200 / n) rows, the strip from half a step above the top value down to a step
 * below the bottom), the unit above; and the legend beside a picture. */
#ifndef HT_LEGEND_H
#define HT_LEGEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "display.h"
#include "falsecolor.h"
#include "font.h"

enum {
    LEGEND_WIDTH = 100,    /* falsecolor -lw */
    LEGEND_HEIGHT = 200,   /* falsecolor -lh: the steps' rows */
    LEGEND_STRIP = 24,     /* the colour strip's width; the labels right of it */
    LEGEND_MAX_STEPS = 100, /* --fc-steps at most: a row a step at least */
};

/* Where things are in a legend (legend_layout). */
typedef struct legend_layout {
    int width, height;     /* of the whole legend */
    int steps;             /* of the scale (display_params.fc_steps) */
    int step;              /* rows per step */
    int strip_top, strip_rows;   /* the strip's rows (top first) */
    int text_px;           /* label height */
    int nlabels;
    falsecolor_label labels[LEGEND_MAX_STEPS + 1];
    int label_row[LEGEND_MAX_STEPS + 1];   /* the strip row whose position each label names */
} legend_layout;

/* The layout of D's legend (fc_steps >= 2). */
void legend_layout_of(const display_params *d, legend_layout *l);

/* The scale position (falsecolor_map's v) the strip shows at strip row ROW (0 = its top). */
double legend_row_position(const legend_layout *l, double row);

/* Draws D's legend (resolved: fc_max set) into *rgb (malloc'd, l->width x l->height x 3
 * samples of BITS, 8 or 16, the caller frees), labels in FONT, UNIT above the strip: its colours
 * and its white text (the labels' coverage an sRGB code) x D's white, encoded with TM's transfer
 * as display_encode does. False (reason in err) when out of memory. */
bool legend_draw(const display_params *d, const tonemap_params *tm, const font_file *font,
                 const char *unit, int bits, legend_layout *l, uint8_t **rgb, char *err,
                 size_t errlen);

/* The legend LEG (LW x LH) left of the picture PIC (PW x PH), both RGB of BYTES per sample (1
 * or 2), top-aligned on black, into *out (malloc'd) of *ow x *oh. False when out of memory. */
bool legend_beside(const uint8_t *leg, int lw, int lh, const uint8_t *pic, int pw, int ph,
                   int bytes, uint8_t **out, int *ow, int *oh);

#endif
