#include "legend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The strip: every row's colour by falsecolor's rules at its scale position (contour lines:
 * the rows above and below are the neighbours), LEGEND_STRIP columns wide. */
static void draw_strip(const display_params *d, const tonemap_params *tm, const legend_layout *l,
                       uint8_t *rgb)
{
    for (int r = 0; r < l->strip_rows; r++) {
        double v = legend_row_position(l, r), c[3];
        double nb[4] = {v, v, legend_row_position(l, r - 1), legend_row_position(l, r + 1)};
        falsecolor_rgb(d, v, nb, c);
        for (int x = 0; x < LEGEND_STRIP; x++)
            for (int k = 0; k < 3; k++)
                rgb[3 * ((size_t)(l->strip_top + r) * l->width + x) + k] = tonemap_encode(tm, c[k]);
    }
}

bool legend_draw(const display_params *d, const tonemap_params *tm, const font_file *font,
                 const char *unit, legend_layout *l, uint8_t **rgb, char *err, size_t errlen)
{
    legend_layout_of(d, l);
    size_t n = (size_t)l->width * l->height;
    uint8_t *out = calloc(n * 3, 1), *grey = calloc(n, 1);
    if (!out || !grey) {
        free(out);
        free(grey);
        snprintf(err, errlen, "legend: out of memory");
        return false;
    }
    draw_strip(d, tm, l, out);
    int tx = LEGEND_STRIP + 4, room = l->width - tx - 2, widest = 0;
    /* Labels too wide for the legend get smaller type (falsecolor scales its text into -lw). */
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
    for (size_t k = 0; k < n; k++)
        if (grey[k])   /* white text over black (the strip is left of it) */
            for (int c = 0; c < 3; c++)
                out[3 * k + c] = out[3 * k + c] > grey[k] ? out[3 * k + c] : grey[k];
    free(grey);
    *rgb = out;
    return true;
}

bool legend_beside(const uint8_t *leg, int lw, int lh, const uint8_t *pic, int pw, int ph,
                   uint8_t **out, int *ow, int *oh)
{
    int w = lw + pw, h = lh > ph ? lh : ph;
    uint8_t *o = calloc((size_t)w * h * 3, 1);
    if (!o)
        return false;
    for (int y = 0; y < lh; y++)
        memcpy(o + (size_t)y * w * 3, leg + (size_t)y * lw * 3, (size_t)lw * 3);
    for (int y = 0; y < ph; y++)
        memcpy(o + ((size_t)y * w + lw) * 3, pic + (size_t)y * pw * 3, (size_t)pw * 3);
    *out = o;
    *ow = w;
    *oh = h;
    return true;
}
