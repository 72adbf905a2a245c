#include "legend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transfer.h"

void legend_layout_of(const display_params *d, legend_layout *l)
{
    memset(l, 0, sizeof *l);
    int n = d->fc_steps;
    l->steps = n;
    l->step = LEGEND_HEIGHT / n;
    /* falsecolor: text of min(step, lw / (8 / 1.67)) rows. */
    int th = (int)floor(LEGEND_WIDTH / (8 / 1.67));
    l->text_px = l->step < th ? l->step : th;
    l->width = LEGEND_WIDTH;
    l->strip_top = l->step;   /* the unit's row above */
    l->strip_rows = (int)(l->step * (n + 1.5));
    l->height = l->strip_top + l->strip_rows + l->step / 2;
    l->nlabels = falsecolor_labels(d, l->labels);
    for (int i = 0; i < l->nlabels; i++)
        /* The row whose position is the label's: v = (up + .5 - step) / (step n), up the
         * rows from the strip's bottom (falsecolor's pcomb -e "v=(y+.5-sheight)/..."). */
        l->label_row[i] = l->strip_rows - 1 -
                          (int)floor(l->labels[i].v * l->step * n + l->step);
}

double legend_row_position(const legend_layout *l, double row)
{
    int n = l->steps;
    double up = l->strip_rows - 1 - row;
    return (up + 0.5 - l->step) / ((double)l->step * n);
}

/* The strip into LIN (linear RGB, l->width wide): every row's colour by falsecolor's rules at
 * its scale position (contour lines: the rows above and below are the neighbours), LEGEND_STRIP
 * columns wide. */
static void draw_strip(const display_params *d, const legend_layout *l, double *lin)
{
    for (int r = 0; r < l->strip_rows; r++) {
        double v = legend_row_position(l, r), c[3];
        double nb[4] = {v, v, legend_row_position(l, r - 1), legend_row_position(l, r + 1)};
        falsecolor_rgb(d, v, nb, c);
        for (int x = 0; x < LEGEND_STRIP; x++)
            memcpy(lin + 3 * ((size_t)(l->strip_top + r) * l->width + x), c, sizeof c);
    }
}

/* The unit and the labels' text into GREY (coverage, l->width wide), smaller type for labels
 * too wide for the legend (falsecolor scales its text into -lw). */
static void draw_text(const font_file *font, const char *unit, legend_layout *l, uint8_t *grey)
{
    int tx = LEGEND_STRIP + 4, room = l->width - tx - 2, widest = 0;
    for (int i = 0; i < l->nlabels; i++) {
        int tw = font_draw_text(font, l->labels[i].text, l->text_px, NULL, 0, 0, 0, 0);
        widest = tw > widest ? tw : widest;
    }
    if (widest > room)
        l->text_px = l->text_px * room / widest;
    font_draw_text(font, unit, l->text_px, grey, l->width, l->height, 2, 0);
    for (int i = 0; i < l->nlabels; i++)
        /* The text's middle at the row it names. */
        font_draw_text(font, l->labels[i].text, l->text_px, grey, l->width, l->height, tx,
                       l->strip_top + l->label_row[i] - l->text_px / 2);
}

bool legend_draw(const display_params *d, const tonemap_params *tm, const font_file *font,
                 const char *unit, int bits, legend_layout *l, uint8_t **rgb, char *err,
                 size_t errlen)
{
    legend_layout_of(d, l);
    size_t n = (size_t)l->width * l->height;
    uint8_t *out = malloc(n * 3 * (size_t)(bits / 8)), *grey = calloc(n, 1);
    double *lin = calloc(n * 3, sizeof *lin);
    bool ok = out && grey && lin;
    if (ok) {
        draw_strip(d, l, lin);
        draw_text(font, unit, l, grey);
    }
    for (size_t k = 0; ok && k < n; k++) {
        /* White text over black (the strip is left of it): its coverage an sRGB code. */
        double t = transfer_srgb_decode(grey[k] / 255.0), c[3];
        for (int i = 0; i < 3; i++)
            c[i] = d->white * fmax(lin[3 * k + i], t);
        display_encode(tm, c, bits, out, k);
    }
    free(grey);
    free(lin);
    if (!ok) {
        free(out);
        snprintf(err, errlen, "legend: out of memory");
        return false;
    }
    *rgb = out;
    return true;
}

bool legend_beside(const uint8_t *leg, int lw, int lh, const uint8_t *pic, int pw, int ph,
                   int bytes, uint8_t **out, int *ow, int *oh)
{
    int w = lw + pw, h = lh > ph ? lh : ph;
    size_t px = 3 * (size_t)bytes;
    uint8_t *o = calloc((size_t)w * h, px);
    if (!o)
        return false;
    for (int y = 0; y < lh; y++)
        memcpy(o + (size_t)y * w * px, leg + (size_t)y * lw * px, (size_t)lw * px);
    for (int y = 0; y < ph; y++)
        memcpy(o + ((size_t)y * w + lw) * px, pic + (size_t)y * pw * px, (size_t)pw * px);
    *out = o;
    *ow = w;
    *oh = h;
    return true;
}
