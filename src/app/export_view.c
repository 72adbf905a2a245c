#include "export_view.h"
#include "output_tags.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "encode.h"
#include "font.h"
#include "legend.h"
#include "ocio_view.h"
#include "png_export.h"
#include "seq_cmd.h"
#include "units.h"

int export_view_check(const ht_options *o, const char *first_input)
{
    const char *mode = ht_enum_name(display_modes, o->display.mode);
    bool hdr = o->hdr != HT_TRANSFER_SRGB;   /* check_hdr let all but the OCIO view by */
    char msg[320];
    if (o->display.mode == HT_VIEW_TONEMAP)
        return 0;
    if (hdr && o->format == ENCODE_JPEG && o->display.mode != HT_VIEW_EXPOSURE)
        snprintf(msg, sizeof msg, "--view %s --hdr writes png, avif or jxl, not jpeg: its HDR "
                 "picture is the SDR one at %g cd/m^2 (BT.2408's reference white), so an Ultra "
                 "HDR JPEG's gain map would add nothing (a jpeg without --hdr is that picture)",
                 mode, HT_HDR_REF_WHITE);
    else if (hdr && (o->format == ENCODE_JPEG || o->format == ENCODE_Y4M))
        snprintf(msg, sizeof msg, "--view %s --hdr writes png, avif or jxl, not %s (an Ultra "
                 "HDR JPEG and y4m are the tone mapping's)", mode, encode_format_name(o->format));
    else if (!hdr && o->format != ENCODE_PNG && o->format != ENCODE_JPEG)
        snprintf(msg, sizeof msg, "--view %s writes png or jpeg, not %s", mode,
                 encode_format_name(o->format));
    else if (o->display_window ||
             (o->depth != 8 && o->display.mode != HT_VIEW_OCIO && !hdr))
        snprintf(msg, sizeof msg, "--view %s writes 8 bits of the data window (no --depth 16, "
                                  "no --display-window%s)", mode,
                 o->display_window ? "" : "; --view ocio and --hdr write 16");
    else if (seq_cmd_is_sequence(first_input))
        snprintf(msg, sizeof msg, "--view %s: one picture at a time, not a sequence", mode);
    else
        return 0;
    return commands_usage_error("export", msg);
}

void export_view_hdr_white(const tonemap_params *tm, display_params *d)
{
    bool hdr = tm->transfer == HT_TRANSFER_PQ || tm->transfer == HT_TRANSFER_HLG;
    d->white = hdr && d->mode != HT_VIEW_TONEMAP && d->mode != HT_VIEW_OCIO
                   ? HT_HDR_REF_WHITE / tm->ldmax : 1.0;
}

/* IMG in D's mode with TM into RGB (W x H x 3 samples of BITS 8 or 16) on the GPU of BE. */
static bool render_gpu(cmd_backend *be, const tonemap_params *tm, const hdr_image *img,
                       const display_params *d, void *rgb, int bits, char *err, size_t errlen)
{
    pipeline *p = backend_pipeline(be, err, errlen);
    if (!p)
        return false;
    pipeline_set_display(p, d);
    bool ok = bits == 16 ? pipeline_upload(p, img, err, errlen) &&
                               pipeline_tonemap_uploaded16(p, tm, NULL, rgb, err, errlen)
                         : pipeline_tonemap_image(p, img, tm, NULL, rgb, err, errlen);
    pipeline_set_display(p, NULL);
    pipeline_release_textures(p);
    return ok;
}

/* IMG in D's mode into RGB (W x H x 3 samples of BITS: 8, or 16 in the OCIO view and --hdr) on O's
 * backend (BE). The OCIO view's input: the image's colour space as the config names it, or
 * converted to linear Rec. 709 by the apply pass's matrix (ocio_view_input). */
static bool render(cmd_backend *be, const ht_options *o, const hdr_image *img,
                   const display_params *d, void *rgb, int bits, char *err, size_t errlen)
{
    if (d->mode == HT_VIEW_OCIO && o->backend == HT_BACKEND_CPU)
        return ocio_view_cpu_apply(img, o->tm.white, d, rgb, bits, err, errlen);
    tonemap_params tm;
    if (!options_tonemap(o, img, &tm, err, errlen))
        return false;
    if (o->backend == HT_BACKEND_CPU) {
        if (bits == 16)
            display_cpu_apply16(img, &tm, d, rgb);
        else
            display_cpu_apply(img, &tm, d, rgb);
        return true;
    }
    if (d->mode != HT_VIEW_OCIO)
        return render_gpu(be, &tm, img, d, rgb, bits, err, errlen);
    display_params od = *d;
    tm.gamut = HT_GAMUT_CLIP;   /* OCIO's view decides what happens out of gamut */
    return ocio_view_input(d, &img->colour, tm.white, &od.ocio_input, &tm.colour, err,
                           errlen) &&
           render_gpu(be, &tm, img, &od, rgb, bits, err, errlen);
}

/* The false-colour picture *RGB (W x H, samples of BITS) with its legend left of it: *rgb,
 * *w, *h replaced. */
static bool add_legend(const ht_options *o, const display_params *d, const image_units *u,
                       int bits, uint8_t **rgb, int *w, int *h, char *err, size_t errlen)
{
    font_file font;
    legend_layout l;
    uint8_t *leg = NULL, *both = NULL;
    /* falsecolor's label; relative units are no cd/m^2. */
    const char *unit = u->rule == HT_UNITS_RELATIVE ? "relative" : "cd/m2";
    if (!font_load(FONT_DEFAULT_PATTERN, &font, err, errlen))
        return false;
    bool ok = legend_draw(d, &o->tm, &font, unit, bits, &l, &leg, err, errlen);
    int ow, oh;
    if (ok && !legend_beside(leg, l.width, l.height, *rgb, *w, *h, bits / 8, &both, &ow,
                                &oh)) {
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

/* The bits of O's output in D's OCIO view and its tags' parameters (*TM, from O's; *TAGGED
 * false: untagged) by the colour space the view writes (ocio_view_output_of): a PQ display's
 * output is a 16-bit PNG (the default for it; 8 bits or JPEG refused). False with the reason. */
static bool ocio_output(const ht_options *o, const display_params *d, int *bits,
                        tonemap_params *tm, bool *tagged, char *err, size_t errlen)
{
    ocio_view_output v;
    if (!ocio_view_output_of(d, &v, err, errlen))
        return false;
    *tagged = v.known;
    *bits = o->depth;
    if (!v.known)
        return true;
    tm->display_space = v.display_space;
    tm->transfer = v.transfer;
    tm->gamma = v.gamma;
    tm->ldmax = 0.0;   /* no mastering display known: no mDCv */
    if (v.transfer != HT_TRANSFER_PQ)
        return true;
    if (!options_given(o, "depth"))
        *bits = 16;
    if (o->format == ENCODE_PNG && *bits == 16)
        return true;
    snprintf(err, errlen, "the OCIO view writes '%s', a PQ signal: %s", v.space,
             o->format != ENCODE_PNG ? "a 16-bit PNG holds it, not JPEG's 8 bits"
                                     : "8 bits would band (256 codes over 0..10000 cd/m^2; "
                                       "16, the default for it)");
    return false;
}

static bool export_one(cmd_backend *be, const ht_options *o, const char *in, const char *out,
                       char *err, size_t errlen)
{
    tonemap_params tags_tm = o->tm;
    bool tagged = true;
    int bits = o->hdr != HT_TRANSFER_SRGB ? o->depth : 8;
    if (o->display.mode == HT_VIEW_OCIO &&
        !ocio_output(o, &o->display, &bits, &tags_tm, &tagged, err, errlen))
        return false;
    hdr_image img;
    image_load_options lo = options_load(o);
    if (!image_load(in, &lo, &img, err, errlen))
        return false;
    image_units u;
    units_of_image(&img, o->scale_given ? o->tm.scale : 0, &u);
    display_params d = o->display;
    display_set_units(&d, &u);
    display_resolve(&d, &img);
    export_view_hdr_white(&o->tm, &d);
    int w = img.width, h = img.height;
    uint8_t *rgb = malloc((size_t)w * h * 3 * (bits / 8));
    bool ok = rgb && render(be, o, &img, &d, rgb, bits, err, errlen);
    if (!rgb)
        snprintf(err, errlen, "out of memory");
    image_free(&img);
    if (ok && d.mode == HT_VIEW_FALSECOLOR && o->legend)
        ok = add_legend(o, &d, &u, bits, &rgb, &w, &h, err, errlen);
    encode_buffer buf = {0};
    double gamma = tags_tm.transfer == HT_TRANSFER_GAMMA ? tags_tm.gamma : 0;
    encode_image im = {rgb, w, h, 3, bits, gamma, NULL};
    output_tags tags = {0};   /* untagged: no chunk at all */
    if (ok && (!tagged || (ok = output_tags_make(&tags_tm, o->format, bits, false, rgb, w, h,
                                                 &tags, err, errlen))))
        im.tags = &tags.t;
    if (ok)
        ok = encode_image_to(o->format, options_quality(o), &im, &buf, err, errlen) &&
             (strcmp(out, "-") == 0 ? file_write_fd(1, buf.data, buf.len, err, errlen)
                                    : file_write_atomic(out, buf.data, buf.len, err, errlen));
    if (ok)
        note(in, &d, &u);
    output_tags_free(&tags);
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
