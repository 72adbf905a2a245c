/* PNGs that carry an HDR signal (cICP with PQ or HLG: hdrtone's --hdr outputs, HDRView's):
 * read back as linear cd/m^2 in the cICP's primaries, so an output can be checked by opening
 * it. The curves are transfer.h's (header-only, so this layer can use them). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "cicp.h"
#include "image_internal.h"
#include "../ref/transfer.h"


typedef struct png_hdr_info {
    uint8_t cicp[4];
    double peak;   /* mDCv's maximum luminance, cd/m^2 (0: none) */
} png_hdr_info;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The cICP and mDCv chunks before the first IDAT; false when there is no cICP (or the chunks
 * run past the end). */
static bool png_hdr_scan(const uint8_t *d, size_t n, png_hdr_info *info)
{
    memset(info, 0, sizeof *info);
    bool cicp = false;
    for (size_t p = 8; p + 12 <= n;) {
        uint32_t len = be32(d + p);
        const uint8_t *type = d + p + 4, *body = d + p + 8;
        if (len > n - p - 12 || memcmp(type, "IDAT", 4) == 0)
            break;
        if (memcmp(type, "cICP", 4) == 0 && len == 4) {
            memcpy(info->cicp, body, 4);
            cicp = true;
        } else if (memcmp(type, "mDCv", 4) == 0 && len == 24) {
            info->peak = be32(body + 16) * 0.0001;
        }
        p += 12 + (size_t)len;
    }
    return cicp;
}

bool image_png_is_hdr(const uint8_t *data, size_t size)
{
    png_hdr_info info;
    return size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0 &&
           png_hdr_scan(data, size, &info) &&
           (info.cicp[1] == CICP_PQ || info.cicp[1] == CICP_HLG);
}

/* IMG's colour from the cICP primaries; false (reason in err) for others. */
static bool cicp_colour(const char *path, int primaries, hdr_image *img, char *err,
                        size_t errlen)
{
    static const double xy[3][4][2] = {CICP_BT709_XY, CICP_BT2020_XY, CICP_P3_D65_XY};
    int k = primaries == CICP_BT709 ? 0 : primaries == CICP_BT2020 ? 1
          : primaries == CICP_P3_D65 ? 2 : -1;
    if (k < 0) {
        snprintf(err, errlen, "%s: cICP colour primaries %d: hdrtone reads 1 (BT.709), 9 "
                 "(BT.2020) and 12 (P3-D65)", path, primaries);
        return false;
    }
    memcpy(img->colour.xy, xy[k], sizeof xy[k]);
    img->colour.source = IMAGE_COLOUR_CICP;
    return true;
}

/* 16-bit codes to cd/m^2: PQ's EOTF, or HLG's inverse OETF and OOTF (nominal peak PEAK,
 * the luminance of IMG's primaries). */
static void decode_pixels(const uint16_t *px, int transfer, double peak, hdr_image *img)
{
    double m[9], lum[3];
    image_rgb_to_xyz(image_colour_xy(&img->colour), m);
    memcpy(lum, m + 3, sizeof lum);
    size_t n = (size_t)img->width * img->height;
    for (size_t k = 0; k < n; k++, px += 3) {
        double v[3] = {px[0] / 65535.0, px[1] / 65535.0, px[2] / 65535.0};
        if (transfer == CICP_PQ)
            for (int c = 0; c < 3; c++)
                v[c] = HT_PQ_PEAK * transfer_pq_decode(v[c]);
        else
            transfer_hlg_to_display(lum, peak, v);
        float *d = img->rgba + 4 * k;
        for (int c = 0; c < 3; c++)
            d[c] = (float)v[c];
        d[3] = 1.0f;
    }
}

bool image_load_png_hdr(const char *path, const uint8_t *data, size_t size,
                        const image_load_options *opts, hdr_image *img, char *err,
                        size_t errlen)
{
    png_hdr_info info;
    png_hdr_scan(data, size, &info);
    int w, h, comp;
    if (info.cicp[2] != 0 || info.cicp[3] != 1) {
        snprintf(err, errlen, "%s: cICP matrix %d, full range %d: hdrtone reads RGB (0), full "
                 "range (1)", path, info.cicp[2], info.cicp[3]);
        return false;
    }
    if (size > INT_MAX) {   /* stb_image takes an int */
        snprintf(err, errlen, "%s: a PNG of %zu bytes is more than hdrtone reads", path, size);
        return false;
    }
    if (!stbi_info_from_memory(data, (int)size, &w, &h, &comp)) {
        snprintf(err, errlen, "%s: unreadable PNG (%s)", path, stbi_failure_reason());
        return false;
    }
    if (!image_check_pixels(path, (uint64_t)w, (uint64_t)h, opts, err, errlen) ||
        !cicp_colour(path, info.cicp[0], img, err, errlen))
        return false;
    uint16_t *px = stbi_load_16_from_memory(data, (int)size, &w, &h, &comp, 3);
    img->rgba = px ? malloc((size_t)w * h * 4 * sizeof *img->rgba) : NULL;
    if (!img->rgba) {
        snprintf(err, errlen, "%s: %s", path, px ? "out of memory" : stbi_failure_reason());
        stbi_image_free(px);
        return false;
    }
    img->width = w;
    img->height = h;
    bool pq = info.cicp[1] == CICP_PQ;
    decode_pixels(px, info.cicp[1], info.peak > 0 ? info.peak : HT_HDR_LDMAX, img);
    stbi_image_free(px);
    img->data_window[2] = img->display_window[2] = w - 1;
    img->data_window[3] = img->display_window[3] = h - 1;
    img->white_luminance = 1.0;   /* values in cd/m^2 */
    snprintf(img->format, sizeof img->format, "PNG");
    snprintf(img->channels, sizeof img->channels, "R,G,B (%s)", pq ? "PQ" : "HLG");
    snprintf(img->compression, sizeof img->compression, "deflate");
    snprintf(img->rgb_source, sizeof img->rgb_source, "R,G,B");
    return true;
}
