/* The OCIO display mode's input and CPU reference (ocio_view.h). */
#include "ocio_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tonemap.h"

bool ocio_view_input(const display_params *d, const image_colour *c, int white,
                     const char **input, colour_xform *x, char *err, size_t errlen)
{
    colour_xform_identity(x);
    const colour_space *s = colour_space_match(c);
    if (d->ocio_input && d->ocio_input[0])
        *input = d->ocio_input;
    else if (s && s->ocio)
        *input = s->ocio;
    else {
        /* The first named space is Rec. 709 (colour.h); on an sRGB display its matrix is the
         * image's RGB -> linear Rec. 709. */
        *input = colour_spaces[0].ocio;
        return colour_xform_make(c, HT_DISPLAY_SPACE_SRGB, white, x, err, errlen);
    }
    return true;
}

/* The display colour spaces of the ACES configs (and the bundled one) that hdrtone's display
 * spaces equal, by name: a config says the encoding of a display colour space only as
 * "sdr-video" or "hdr-video", not its primaries or curve. Rec.1886 is BT.1886's gamma 2.4
 * with a black of 0 (OCIO's builtin), hdrtone's rec709-gamma24. */
static const struct {
    const char *name;
    int space, transfer;
    double gamma;
} displays[] = {
    {"sRGB - Display", HT_DISPLAY_SPACE_SRGB, HT_TRANSFER_SRGB, 0.0},
    {"Display P3 - Display", HT_DISPLAY_SPACE_DISPLAY_P3, HT_TRANSFER_SRGB, 0.0},
    {"Rec.1886 Rec.709 - Display", HT_DISPLAY_SPACE_REC709_G24, HT_TRANSFER_GAMMA, 2.4},
    {"Rec.2100-PQ - Display", HT_DISPLAY_SPACE_REC2020, HT_TRANSFER_PQ, 0.0},
};

bool ocio_view_output_of(const display_params *d, ocio_view_output *out, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    ocio_config *cfg = ocio_config_load(d->ocio_config, err, errlen);
    if (!cfg)
        return false;
    const char *space = ocio_view_space(cfg, d->ocio_display, d->ocio_view);
    snprintf(out->space, sizeof out->space, "%s", space ? space : "");
    ocio_config_free(&cfg);
    for (size_t i = 0; i < sizeof displays / sizeof displays[0]; i++)
        if (strcmp(out->space, displays[i].name) == 0) {
            out->known = true;
            out->display_space = displays[i].space;
            out->transfer = displays[i].transfer;
            out->gamma = displays[i].gamma;
        }
    return true;
}

ocio_choice ocio_view_choice(const display_params *d, const char *input)
{
    ocio_choice ch = {input, d->ocio_display, d->ocio_view, d->ocio_look};
    return ch;
}

void ocio_view_pixel(const float c[3], float mul, const colour_xform *x, float out[3])
{
    float v[3];
    for (int i = 0; i < 3; i++)
        v[i] = isfinite(c[i]) ? c[i] * mul : 0.0f;
    if (colour_xform_is_identity(x)) {
        for (int i = 0; i < 3; i++)
            out[i] = v[i];
        return;
    }
    for (int i = 0; i < 3; i++)
        out[i] = (float)x->to_display[3 * i] * v[0] + (float)x->to_display[3 * i + 1] * v[1] +
                 (float)x->to_display[3 * i + 2] * v[2];
}

/* Rows of IMG at a time through P (bounded memory for any size). */
enum { CHUNK_PIXELS = 1 << 16 };

static void apply_rows(const hdr_image *img, const ocio_processor *p, float mul,
                       const colour_xform *x, float *buf, void *rgb, int bits)
{
    const float levels = bits == 16 ? 65535.0f : 255.0f;
    size_t n = (size_t)img->width * img->height;
    for (size_t at = 0; at < n; at += CHUNK_PIXELS) {
        size_t m = n - at < CHUNK_PIXELS ? n - at : CHUNK_PIXELS;
        for (size_t k = 0; k < m; k++) {
            float c[4];
            image_get_pixel(img, at + k, c);
            ocio_view_pixel(c, mul, x, buf + 4 * k);
            buf[4 * k + 3] = 1.0f;
        }
        ocio_processor_apply(p, buf, m);
        for (size_t k = 0; k < m; k++)
            for (int i = 0; i < 3; i++) {
                float v = buf[4 * k + i];
                v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;   /* NaN: 0 */
                size_t o = 3 * (at + k) + (size_t)i;
                if (bits == 16)
                    ((uint16_t *)rgb)[o] = (uint16_t)floorf(v * levels + 0.5f);
                else
                    ((uint8_t *)rgb)[o] = (uint8_t)floorf(v * levels + 0.5f);
            }
    }
}

bool ocio_view_cpu_apply(const hdr_image *img, int white, const display_params *d, void *rgb,
                         int bits, char *err, size_t errlen)
{
    const char *input;
    colour_xform x;
    if (!ocio_view_input(d, &img->colour, white, &input, &x, err, errlen))
        return false;
    ocio_config *cfg = ocio_config_load(d->ocio_config, err, errlen);
    if (!cfg)
        return false;
    ocio_choice ch = ocio_view_choice(d, input);
    ocio_processor *p = ocio_processor_make(cfg, &ch, err, errlen);
    float *buf = p ? malloc(sizeof(float) * 4 * CHUNK_PIXELS) : NULL;
    if (p && !buf)
        snprintf(err, errlen, "out of memory");
    if (buf)
        apply_rows(img, p, (float)exp2(d->exposure), &x, buf, rgb, bits);
    free(buf);
    ocio_processor_free(&p);
    ocio_config_free(&cfg);
    return buf != NULL;
}
