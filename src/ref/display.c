/* Display modes: the tables, the defaults and the CPU reference (display.h). */
#include "display.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "falsecolor.h"
#include "gpu_shared.h"
#include "settings.h"

const ht_enum display_modes[] = {
    {HT_VIEW_TONEMAP, "tonemap", "tone mapping"},
    {HT_VIEW_EXPOSURE, "exposure", "exposure"},
    {HT_VIEW_FALSECOLOR, "falsecolor", "false colour"},
    {HT_VIEW_CHANNEL, "channel", "channel"},
    {HT_VIEW_OCIO, "ocio", "OCIO view"},
    {0, NULL, NULL},
};

const ht_enum display_fc_styles[] = {
    {HT_FC_SMOOTH, "smooth", "smooth"},
    {HT_FC_BANDS, "bands", "bands"},
    {HT_FC_CONTOURS, "contours", "contour lines"},
    {0, NULL, NULL},
};

const ht_enum display_channels[] = {
    {HT_CHANNEL_R, "R", "R"},
    {HT_CHANNEL_G, "G", "G"},
    {HT_CHANNEL_B, "B", "B"},
    {HT_CHANNEL_A, "A", "A"},
    {HT_CHANNEL_Y, "Y", "luminance"},
    {0, NULL, NULL},
};

const ht_enum display_channel_palettes[] = {
    {HT_CH_PALETTE_AUTO, "auto", "automatic"},
    {HT_CH_PALETTE_GREY, "grey", "grey"},
    {HT_CH_PALETTE_SEQUENTIAL, "sequential", "sequential"},
    {HT_CH_PALETTE_DIVERGING, "diverging", "diverging"},
    {0, NULL, NULL},
};

const double display_diverging[3][3] = {
    {0.0452, 0.0742, 0.5271}, {0.7011, 0.7011, 0.7011}, {0.4678, 0.0012, 0.0206}};

void display_params_default(display_params *d)
{
    memset(d, 0, sizeof *d);
    d->mode = HT_VIEW_TONEMAP;
    d->white = 1.0;
    d->exposure = ht_settings[HT_SET_EXPOSURE].def;
    d->offset = ht_settings[HT_SET_OFFSET].def;
    d->fc_max = ht_settings[HT_SET_FC_MAX].def;
    d->fc_decades = (int)ht_settings[HT_SET_FC_LOG].def;
    d->fc_steps = (int)ht_settings[HT_SET_FC_STEPS].def;
    d->fc_style = HT_FC_SMOOTH;
    d->units_scale = 1.0;
    d->weights[0] = HT_LUM_R;
    d->weights[1] = HT_LUM_G;
    d->weights[2] = HT_LUM_B;
    d->channel = HT_CHANNEL_R;
    d->ch_palette = HT_CH_PALETTE_AUTO;
}

void display_set_units(display_params *d, const image_units *u)
{
    d->units_scale = u->scale;
    memcpy(d->weights, u->weights, sizeof d->weights);
}

/* The value of CHANNEL in colour C (Y: weighted with W). */
static double channel_value(const float c[4], int channel, const double w[3])
{
    if (channel == HT_CHANNEL_Y)
        return w[0] * c[0] + w[1] * c[1] + w[2] * c[2];
    return c[channel >= 0 && channel < 4 ? channel : 0];
}

bool display_channel_range(const hdr_image *img, int channel, const double weights[3],
                           double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    size_t n = (size_t)img->width * img->height;
    for (size_t k = 0; (img->rgba || img->half) && k < n; k++) {
        float c[4];
        image_get_pixel(img, k, c);
        double v = channel_value(c, channel, weights);
        if (isfinite(v)) {
            a = fmin(a, v);
            b = fmax(b, v);
        }
    }
    bool any = a <= b;
    *lo = any ? a : 0;
    *hi = any ? b : 0;
    return any;
}

void display_resolve(display_params *d, const hdr_image *img)
{
    if (d->mode == HT_VIEW_FALSECOLOR && !(d->fc_max > 0))
        d->fc_max = falsecolor_auto_max(img, d);
    if (d->mode != HT_VIEW_CHANNEL)
        return;
    if (d->ch_min == 0 && d->ch_max == 0)
        display_channel_range(img, d->channel, d->weights, &d->ch_min, &d->ch_max);
    if (d->ch_palette == HT_CH_PALETTE_AUTO)
        d->ch_palette = d->ch_min < 0 && d->ch_max > 0 ? HT_CH_PALETTE_DIVERGING
                                                       : HT_CH_PALETTE_SEQUENTIAL;
}

void display_channel_rgb(const display_params *d, double v, double rgb[3])
{
    if (!isfinite(v)) {
        rgb[0] = rgb[1] = rgb[2] = 0;
        return;
    }
    if (d->ch_palette == HT_CH_PALETTE_DIVERGING) {
        /* -m..m with m the larger end: 0 is the middle colour. */
        double m = fmax(fabs(d->ch_min), fabs(d->ch_max));
        double t = m > 0 ? fmax(-1.0, fmin(1.0, v / m)) : 0.0;
        const double *e = display_diverging[t < 0 ? 0 : 2];
        for (int c = 0; c < 3; c++)
            rgb[c] = display_diverging[1][c] + fabs(t) * (e[c] - display_diverging[1][c]);
        return;
    }
    double span = d->ch_max - d->ch_min;
    double t = span > 0 ? fmax(0.0, fmin(1.0, (v - d->ch_min) / span)) : 0.5;
    if (d->ch_palette == HT_CH_PALETTE_GREY)
        rgb[0] = rgb[1] = rgb[2] = t;
    else
        falsecolor_palette_rgb(t, rgb);
}

/* The falsecolor scale position of every pixel of IMG (W x H doubles, malloc'd). */
static double *scale_positions(const hdr_image *img, const display_params *d)
{
    size_t n = (size_t)img->width * img->height;
    double *v = malloc(n * sizeof *v);
    for (size_t k = 0; v && k < n; k++) {
        float c[4];
        image_get_pixel(img, k, c);
        double lum = d->units_scale * channel_value(c, HT_CHANNEL_Y, d->weights);
        v[k] = falsecolor_map(d, isfinite(lum) ? lum : 0.0);
    }
    return v;
}

/* The linear colour of pixel (X, Y) of IMG in D's mode (TM: the colour to the display); V: the scale positions (falsecolor). */
static void pixel_rgb(const hdr_image *img, const tonemap_params *tm, const display_params *d,
                      const double *v, int x, int y, double out[3])
{
    int w = img->width, h = img->height;
    size_t k = (size_t)y * w + x;
    float c[4];
    image_get_pixel(img, k, c);
    if (d->mode == HT_VIEW_EXPOSURE) {
        double m = exp2(d->exposure), v[3];
        for (int i = 0; i < 3; i++)
            v[i] = isfinite(c[i]) ? c[i] * m : 0.0;
        tonemap_to_display(tm, v);
        for (int i = 0; i < 3; i++)
            out[i] = isfinite(c[i]) ? v[i] + d->offset : 0.0;
    } else if (d->mode == HT_VIEW_FALSECOLOR) {
        /* Neighbours at the edges: the edge pixel itself. */
        int xl = x > 0 ? x - 1 : x, xr = x < w - 1 ? x + 1 : x;
        int ya = y > 0 ? y - 1 : y, yb = y < h - 1 ? y + 1 : y;
        double nb[4] = {v[(size_t)y * w + xl], v[(size_t)y * w + xr], v[(size_t)ya * w + x],
                        v[(size_t)yb * w + x]};
        falsecolor_rgb(d, v[k], nb, out);
    } else {
        display_channel_rgb(d, channel_value(c, d->channel, d->weights), out);
    }
    for (int i = 0; i < 3; i++)
        out[i] *= d->white;
}

/* display_cpu_apply into RGB8 or (NULL) RGB16. */
static void apply_pixels(const hdr_image *img, const tonemap_params *tm, const display_params *d,
                         uint8_t *rgb8, uint16_t *rgb16)
{
    size_t n = (size_t)img->width * img->height;
    double *v = d->mode == HT_VIEW_FALSECOLOR ? scale_positions(img, d) : NULL;
    if (d->mode == HT_VIEW_FALSECOLOR && !v) {   /* out of memory: black */
        memset(rgb8 ? (void *)rgb8 : (void *)rgb16, 0, n * 3 * (rgb8 ? 1 : 2));
        return;
    }
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            double out[3];
            size_t k = (size_t)y * img->width + x;
            pixel_rgb(img, tm, d, v, x, y, out);
            display_encode(tm, out, rgb8 ? 8 : 16, rgb8 ? (void *)rgb8 : (void *)rgb16, k);
        }
    free(v);
}

void display_encode(const tonemap_params *tm, double rgb[3], int bits, void *out, size_t k)
{
    tonemap_encode_prepare(tm, rgb);   /* HLG's inverse OOTF, as the GPU's ht_encode */
    for (int c = 0; c < 3; c++) {
        double u = tonemap_encode_unit(tm, rgb[c]);
        if (bits == 16)
            ((uint16_t *)out)[3 * k + c] = (uint16_t)(u * 65535.0 + 0.5);
        else
            ((uint8_t *)out)[3 * k + c] = (uint8_t)(u * 255.0 + 0.5);
    }
}

void display_cpu_apply(const hdr_image *img, const tonemap_params *tm, const display_params *d,
                       uint8_t *rgb)
{
    apply_pixels(img, tm, d, rgb, NULL);
}

void display_cpu_apply16(const hdr_image *img, const tonemap_params *tm,
                         const display_params *d, uint16_t *rgb)
{
    apply_pixels(img, tm, d, NULL, rgb);
}
