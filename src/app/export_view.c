#include "export_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "encode.h"
#include "font.h"
#include "legend.h"
#include "png_export.h"
#include "seq_cmd.h"
#include "units.h"

int export_view_check(const ht_options *o, const char *first_input)
{
    const char *mode = ht_enum_name(display_modes, o->display.mode);
    char msg[256];
    if (o->display.mode == HT_VIEW_TONEMAP)
        return 0;
    if (o->format != ENCODE_PNG && o->format != ENCODE_JPEG)
        snprintf(msg, sizeof msg, "--view %s writes png or jpeg, not %s", mode,
                 encode_format_name(o->format));
    else if (o->depth != 8 || o->display_window)
        snprintf(msg, sizeof msg, "--view %s writes 8 bits of the data window (no --depth 16, "
                                  "no --display-window)", mode);
    else if (seq_cmd_is_sequence(first_input))
        snprintf(msg, sizeof msg, "--view %s: one picture at a time, not a sequence", mode);
    else
        return 0;
    return commands_usage_error("export", msg);
}

/* IMG in D's mode into RGB (W x H x 3) on O's backend (BE). */
static bool render(cmd_backend *be, const ht_options *o, const hdr_image *img,
                   const display_params *d, uint8_t *rgb, char *err, size_t errlen)
{
    tonemap_params tm;
    if (!options_tonemap(o, img, &tm, err, errlen))
        return false;
    if (o->backend == HT_BACKEND_CPU) {
        display_cpu_apply(img, &tm, d, rgb);
        return true;
    }
    pipeline *p = backend_pipeline(be, err, errlen);
    if (!p)
        return false;
    pipeline_set_display(p, d);
    bool ok = pipeline_tonemap_image(p, img, &tm, NULL, rgb, err, errlen);
    pipeline_set_display(p, NULL);
    pipeline_release_textures(p);
    return ok;
}

/* The false-colour picture *RGB (W x H) with its legend left of it: *rgb, *w, *h replaced. */
static bool add_legend(const ht_options *o, const display_params *d, const image_units *u,
                       uint8_t **rgb, int *w, int *h, char *err, size_t errlen)
{
    font_file font;
    legend_layout l;
    uint8_t *leg = NULL, *both = NULL;
    /* falsecolor's label; relative units are no cd/m^2. */
    const char *unit = u->rule == HT_UNITS_RELATIVE ? "relative" : "cd/m2";
    if (!font_load(FONT_DEFAULT_PATTERN, &font, err, errlen))
        return false;
    bool ok = legend_draw(d, &o->tm, &font, unit, &l, &leg, err, errlen);
    int ow, oh;
    if (ok && !legend_beside(leg, l.width, l.height, *rgb, *w, *h, &both, &ow, &oh)) {
        snprintf(err, errlen, "legend: out of memory");
        ok = false;
    }
    font_free(&font);
    free(leg);
    if (!ok)
        return false;
    free(*rgb);
    *rgb = both;
    *w = ow;
    *h = oh;
    return true;
}

/* What the mode made of the image's automatic parts, on stderr (stdout may be the picture). */
static void note(const char *path, const display_params *d, const image_units *u)
{
    char units[160];
    units_describe(u, units, sizeof units);
    if (d->mode == HT_VIEW_FALSECOLOR)
        fprintf(stderr, "hdrtone export: %s: false colour 0..%g cd/m^2 (%s)\n", path, d->fc_max,
                units);
    else if (d->mode == HT_VIEW_CHANNEL)
        fprintf(stderr, "hdrtone export: %s: channel %s over %g..%g (%s)\n", path,
                ht_enum_name(display_channels, d->channel), d->ch_min, d->ch_max,
                ht_enum_name(display_channel_palettes, d->ch_palette));
}

static bool export_one(cmd_backend *be, const ht_options *o, const char *in, const char *out,
                       char *err, size_t errlen)
{
    hdr_image img;
    image_load_options lo = options_load(o);
    if (!image_load(in, &lo, &img, err, errlen))
        return false;
    image_units u;
    units_of_image(&img, o->scale_given ? o->tm.scale : 0, &u);
    display_params d = o->display;
    display_set_units(&d, &u);
    display_resolve(&d, &img);
    int w = img.width, h = img.height;
    uint8_t *rgb = malloc((size_t)w * h * 3);
    bool ok = rgb && render(be, o, &img, &d, rgb, err, errlen);
    if (!rgb)
        snprintf(err, errlen, "out of memory");
    image_free(&img);
    if (ok && d.mode == HT_VIEW_FALSECOLOR && o->legend)
        ok = add_legend(o, &d, &u, &rgb, &w, &h, err, errlen);
    encode_buffer buf = {0};
    encode_image im = {rgb, w, h, 3, 8, o->tm.transfer == HT_TRANSFER_GAMMA ? o->tm.gamma : 0};
    if (ok)
        ok = encode_image_to(o->format, o->quality, &im, &buf, err, errlen) &&
             (strcmp(out, "-") == 0 ? file_write_fd(1, buf.data, buf.len, err, errlen)
                                    : file_write_atomic(out, buf.data, buf.len, err, errlen));
    if (ok)
        note(in, &d, &u);
    free(buf.data);
    free(rgb);
    return ok;
}

int export_view_run(cmd_backend *be, const ht_options *o, const char **in, const char **out,
                    int n)
{
    int status = 0;
    for (int i = 0; i < n; i++) {
        char err[HT_ERR_MAX + 64];
        if (!export_one(be, o, in[i], out[i], err, sizeof err)) {
            fprintf(stderr, "hdrtone export: %s\n", err);
            status = 1;
        }
    }
    return status;
}
