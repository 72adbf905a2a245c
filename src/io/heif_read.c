/* HEIF, HEIC and AVIF through libheif directly: OpenImageIO 2.4's reader takes the picture's
 * size from the header's 'ispe' box and copies that many rows and columns out of whatever the
 * codec decoded, reading past its buffer when a damaged file codes a smaller picture
 * (fuzz_formats found it under ASan). Here the decoded plane's size must equal the declared
 * one; 10- and 12-bit pictures keep their depth; the CICP (nclx) colour goes into
 * image_colour with its transfer linearised; a file with an ICC profile and no CICP converted
 * through the profile. */
#include "image_internal.h"

#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A libheif failure as "PATH: HEIF file ...: message". */
static bool failed(const char *path, const char *what, struct heif_error e, char *err,
                   size_t errlen)
{
    snprintf(err, errlen, "%s: HEIF file %s: %s", path, what,
             e.message && *e.message ? e.message : "libheif refused it");
    return false;
}

/* The decoded interleaved plane (PW x PH, BITS per sample, NCH channels) as RGBA floats. */
static void to_rgba(const uint8_t *p, int stride, int w, int h, int nch, int bits, float *out)
{
    float scale = 1.0f / (float)((1u << bits) - 1);
    for (int y = 0; y < h; y++, p += stride)
        for (int x = 0; x < w; x++) {
            float *o = out + 4 * ((size_t)y * w + x);
            for (int c = 0; c < nch; c++)
                o[c] = scale * (bits > 8 ? (float)(p[2 * (x * nch + c)] |
                                                   p[2 * (x * nch + c) + 1] << 8)
                                         : (float)p[x * nch + c]);
            if (nch == 3)
                o[3] = 1.0f;
        }
}

/* The colour: CICP (nclx) primaries and white, the transfer code for linearising (sRGB when
 * the file says none), an ICC profile kept in IMG. Returns the H.273 transfer code. */
static int colour_of(const struct heif_image_handle *h, hdr_image *img)
{
    struct heif_color_profile_nclx *nclx = NULL;
    int transfer = 13;
    bool got = heif_image_handle_get_nclx_color_profile(h, &nclx).code == heif_error_Ok;
    /* Primaries and transfer both 2 ("unspecified", as avifenc writes beside an ICC profile)
     * say nothing about the colours: the profile or sRGB rules then. */
    if (got && nclx && !(nclx->color_primaries == 2 && nclx->transfer_characteristics == 2)) {
        double xy[4][2] = {{nclx->color_primary_red_x, nclx->color_primary_red_y},
                           {nclx->color_primary_green_x, nclx->color_primary_green_y},
                           {nclx->color_primary_blue_x, nclx->color_primary_blue_y},
                           {nclx->color_primary_white_x, nclx->color_primary_white_y}};
        memcpy(img->colour.xy, xy, sizeof xy);
        img->colour.source = IMAGE_COLOUR_CICP;
        transfer = (int)nclx->transfer_characteristics;
        char v[64];
        snprintf(v, sizeof v, "%d/%d/%d/%d", (int)nclx->color_primaries, transfer,
                 (int)nclx->matrix_coefficients, nclx->full_range_flag);
        image_meta_add(img, "cicp", v);
    }
    if (nclx) /* allocated on failure too (scripts/fuzz formats: a leak) */
        heif_nclx_color_profile_free(nclx);
    size_t n = heif_image_handle_get_raw_color_profile_size(h);
    if (n > 0 && (img->icc = malloc(n))) {
        if (heif_image_handle_get_raw_color_profile(h, img->icc).code == heif_error_Ok) {
            img->icc_size = n;
            image_meta_icc(img, img->icc, n);
        } else {
            free(img->icc);
            img->icc = NULL;
        }
    }
    return transfer;
}

/* The decoded image's HDR light levels (the clli and mdcv boxes) as metadata. */
static void light_levels(const struct heif_image *im, hdr_image *img)
{
    char v[160];
    if (heif_image_has_content_light_level(im)) {
        struct heif_content_light_level l;
        heif_image_get_content_light_level(im, &l);
        snprintf(v, sizeof v, "MaxCLL %u, MaxFALL %u cd/m2", l.max_content_light_level,
                 l.max_pic_average_light_level);
        image_meta_add(img, "content_light_level", v);
    }
    struct heif_mastering_display_colour_volume m;
    struct heif_decoded_mastering_display_colour_volume d;
    if (heif_image_has_mastering_display_colour_volume(im)) {
        heif_image_get_mastering_display_colour_volume(im, &m);
        if (heif_mastering_display_colour_volume_decode(&m, &d).code == heif_error_Ok) {
            /* In the file's order: H.265 only recommends green, blue, red. */
            snprintf(v, sizeof v, "primaries %.4g,%.4g %.4g,%.4g %.4g,%.4g white %.4g,%.4g; "
                     "%.4g-%.4g cd/m2", d.display_primaries_x[0], d.display_primaries_y[0],
                     d.display_primaries_x[1], d.display_primaries_y[1],
                     d.display_primaries_x[2], d.display_primaries_y[2], d.white_point_x,
                     d.white_point_y, d.min_display_mastering_luminance,
                     d.max_display_mastering_luminance);
            image_meta_add(img, "mastering_display", v);
        }
    }
}

/* Decodes the primary image of the opened context into IMG; *BITS_OUT: the bits per sample
 * its values are codes of. */
static bool decode(const char *path, const struct heif_image_handle *h,
                   const image_load_options *opts, hdr_image *img, int *bits_out, char *err,
                   size_t errlen)
{
    int w = heif_image_handle_get_width(h), ht = heif_image_handle_get_height(h);
    if (w <= 0 || ht <= 0 || w > IMAGE_MAX_SIDE || ht > IMAGE_MAX_SIDE) {
        snprintf(err, errlen, "%s: HEIF file declares an unusable size", path);
        return false;
    }
    if (!image_check_pixels(path, (uint64_t)w, (uint64_t)ht, opts, err, errlen))
        return false;
    int bits = heif_image_handle_get_luma_bits_per_pixel(h);
    bool alpha = heif_image_handle_has_alpha_channel(h);
    enum heif_chroma chroma = bits > 8 ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE
                                                : heif_chroma_interleaved_RRGGBB_LE)
                                       : (alpha ? heif_chroma_interleaved_RGBA
                                                : heif_chroma_interleaved_RGB);
    struct heif_image *im = NULL;
    struct heif_error e = heif_decode_image(h, &im, heif_colorspace_RGB, chroma, NULL);
    if (e.code != heif_error_Ok)
        return failed(path, "is damaged or truncated", e, err, errlen);
    int stride = 0, pw = heif_image_get_width(im, heif_channel_interleaved),
        ph = heif_image_get_height(im, heif_channel_interleaved),
        pbits = heif_image_get_bits_per_pixel_range(im, heif_channel_interleaved);
    const uint8_t *p = heif_image_get_plane_readonly(im, heif_channel_interleaved, &stride);
    bool ok = p && pw == w && ph == ht && pbits >= 1 && pbits <= 16 &&
              stride >= pw * (alpha ? 4 : 3) * (bits > 8 ? 2 : 1);
    if (!ok)
        snprintf(err, errlen, "%s: HEIF file is damaged: its picture decodes to %d x %d, its "
                              "header says %d x %d", path, pw, ph, w, ht);
    else if (!(img->rgba = image_pool_get((size_t)w * ht * 4 * sizeof(float)))) {
        snprintf(err, errlen, "%s: out of memory for %d x %d pixels", path, w, ht);
        ok = false;
    } else {
        *bits_out = bits > 8 ? pbits : 8;
        to_rgba(p, stride, w, ht, alpha ? 4 : 3, *bits_out, img->rgba);
        img->width = w;
        img->height = ht;
        snprintf(img->channels, sizeof img->channels, "R,G,B%s (%d-bit)", alpha ? ",A" : "",
                 bits);
        light_levels(im, img);
    }
    heif_image_release(im);
    return ok;
}

bool image_load_heif(const char *path, const uint8_t *data, size_t size,
                     const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    struct heif_context *ctx = heif_context_alloc();
    struct heif_image_handle *h = NULL;
    bool ok = false;
    int bits = 8;
    struct heif_error e;
    if (!ctx)
        snprintf(err, errlen, "%s: out of memory for the HEIF decoder", path);
    else if ((e = heif_context_read_from_memory_without_copy(ctx, data, size, NULL)).code !=
             heif_error_Ok)
        failed(path, "cannot be read", e, err, errlen);
    else if ((e = heif_context_get_primary_image_handle(ctx, &h)).code != heif_error_Ok)
        failed(path, "has no primary image", e, err, errlen);
    else
        ok = decode(path, h, opts, img, &bits, err, errlen);
    if (ok) {
        int transfer = colour_of(h, img);
        /* The numbers first, then the profile (PNG's precedence: cICP before iCCP). */
        if (img->icc && img->colour.source != IMAGE_COLOUR_CICP)
            ok = image_icc_apply(img, false, path, err, errlen);
        else
            image_linearise(img->rgba, (size_t)img->width * img->height, transfer, 1, bits);
        if (transfer == IMAGE_TRANSFER_PQ)
            img->white_luminance = 10000.0;
        img->data_window[2] = img->display_window[2] = img->width - 1;
        img->data_window[3] = img->display_window[3] = img->height - 1;
        snprintf(img->format, sizeof img->format, "HEIF");
        snprintf(img->decoder, sizeof img->decoder, "libheif");
        snprintf(img->rgb_source, sizeof img->rgb_source, "R,G,B");
    }
    if (h)
        heif_image_handle_release(h);
    if (ctx)
        heif_context_free(ctx);
    return ok;
}
