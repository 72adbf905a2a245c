#include "image_ldr.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>
#include <turbojpeg.h>

#include "icc.h"
#include "image_internal.h"
#include "ldr_colour.h"

static bool is_png(const uint8_t *h, size_t n)
{
    return n >= 8 && memcmp(h, "\x89PNG\r\n\x1a\n", 8) == 0;
}

static bool is_jpeg(const uint8_t *h, size_t n)
{
    return n >= 3 && h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF;
}

bool image_ldr_sniff(const uint8_t *head, size_t len)
{
    return is_png(head, len) || is_jpeg(head, len);
}

bool image_ldr_is_ldr(const char *path)
{
    uint8_t head[8];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return image_ldr_sniff(head, n);
}

/* IMG's values from the decoded PX (CHANNELS a pixel, 16-bit when WIDE) by the tags T. */
static bool ldr_values(const char *path, const void *px, int channels, bool wide,
                       const ldr_tags *t, ldr_image *img, char *err, size_t errlen)
{
    size_t n = (size_t)img->width * (size_t)img->height;
    if (t->kind == LDR_TAG_ICC || t->kind == LDR_TAG_ENCODING) {
        icc_pixels p = {px, wide ? ICC_U16 : ICC_U8, channels, n, img->rgb, 3};
        img->linear = true;
        return t->kind == LDR_TAG_ICC
                   ? icc_to_linear(t->icc, t->icc_size, &p, &img->colour, path, err, errlen)
                   : icc_encoding_to_linear(&t->enc, &p, &img->colour, path, err, errlen);
    }
    for (size_t i = 0; i < n * 3; i++)
        img->rgb[i] = wide ? ((const uint16_t *)px)[i] / 65535.0f
                           : ((const uint8_t *)px)[i] / 255.0f;
    return true;
}

/* Whether the JPEG DATA decodes without an error or a warning in libjpeg-turbo (at 1/8 scale:
 * every entropy-coded segment still read). stb_image decodes some damaged files "successfully"
 * with rows it never wrote (pixels of whatever memory held), so a damaged file is refused
 * here, as libjpeg's tools and Pillow refuse it. False with "PATH: reason". */
static bool jpeg_intact(const char *path, const uint8_t *data, size_t size, char *err,
                        size_t errlen)
{
    tjhandle tj = tjInitDecompress();
    if (!tj) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    int w, h, sub, cs;
    unsigned char *out = NULL;
    const char *why = NULL;
    if (tjDecompressHeader3(tj, data, (unsigned long)size, &w, &h, &sub, &cs) != 0) {
        why = tjGetErrorStr2(tj);
    } else {
        int pf = cs == TJCS_CMYK || cs == TJCS_YCCK ? TJPF_CMYK : TJPF_GRAY;
        tjscalingfactor eighth = {1, 8};
        int sw = TJSCALED(w, eighth), sh = TJSCALED(h, eighth);
        out = malloc((size_t)sw * sh * tjPixelSize[pf]);
        if (!out)
            why = "out of memory";
        else if (tjDecompress2(tj, data, (unsigned long)size, out, sw, 0, sh, pf,
                               0) != 0 && tjGetErrorCode(tj) == TJERR_FATAL)
            why = tjGetErrorStr2(tj);
    }
    if (why)
        snprintf(err, errlen, "%s: damaged JPEG (%s)", path, why);
    free(out);
    tjDestroy(tj);
    return why == NULL;
}

bool image_ldr_load_memory(const char *path, const uint8_t *data, size_t size,
                           uint64_t max_pixels, ldr_image *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    bool png = is_png(data, size);
    if (!image_ldr_sniff(data, size) || size > INT_MAX) {
        snprintf(err, errlen, "%s: %s", path, size > INT_MAX ? "file is too large for a PNG or "
                 "JPEG (2 GiB)" : "not a PNG or JPEG file");
        return false;
    }
    int w, h, comp, len = (int)size;
    if (!stbi_info_from_memory(data, len, &w, &h, &comp)) {
        snprintf(err, errlen, "%s: unreadable %s (%s)", path, png ? "PNG" : "JPEG",
                 stbi_failure_reason());
        return false;
    }
    uint64_t limit = max_pixels ? max_pixels : HT_DEFAULT_MAX_PIXELS;
    if ((uint64_t)w * (uint64_t)h > limit) {
        snprintf(err, errlen, "%s: %dx%d is more than %llu pixels", path, w, h,
                 (unsigned long long)limit);
        return false;
    }
    if (!png && !jpeg_intact(path, data, size, err, errlen))
        return false;
    ldr_tags t;
    if (!(png ? ldr_tags_png : ldr_tags_jpeg)(path, data, size, &t, err, errlen))
        return false;
    /* A grey picture with a grey profile: the grey values; else R, G, B (so that a grey
     * profile on colours is refused, and an RGB profile on grey applies to it expanded). */
    bool grey = comp <= 2 && t.kind == LDR_TAG_ICC && icc_profile_is_grey(t.icc, t.icc_size);
    int want = grey ? 1 : 3;
    bool wide = stbi_is_16_bit_from_memory(data, len);
    void *px = wide ? (void *)stbi_load_16_from_memory(data, len, &w, &h, &comp, want)
                    : (void *)stbi_load_from_memory(data, len, &w, &h, &comp, want);
    img->width = w;
    img->height = h;
    img->rgb = px ? malloc((size_t)w * (size_t)h * 3 * sizeof *img->rgb) : NULL;
    bool ok = img->rgb != NULL;
    if (!ok)
        snprintf(err, errlen, "%s: %s%s%s", path, px ? "out of memory" : "unreadable ",
                 px ? "" : png ? "PNG: " : "JPEG: ", px ? "" : stbi_failure_reason());
    else
        ok = ldr_values(path, px, want, wide, &t, img, err, errlen);
    stbi_image_free(px);
    snprintf(img->tag, sizeof img->tag, "%s", t.kind == LDR_TAG_SRGB ? "sRGB" : t.chunk);
    ldr_tags_free(&t);
    if (!ok) {
        image_ldr_free(img);
        return false;
    }
    img->bits = wide ? 16 : 8;
    snprintf(img->format, sizeof img->format, "%s", png ? "PNG" : "JPEG");
    return true;
}

bool image_ldr_load(const char *path, uint64_t max_pixels, ldr_image *img, char *err,
                    size_t errlen)
{
    memset(img, 0, sizeof *img);
    size_t size = 0;
    bool owned = false;
    uint8_t *data = image_read_file(path, 1, &size, &owned, err, errlen);
    if (!data)
        return false;
    bool ok = image_ldr_load_memory(path, data, size, max_pixels, img, err, errlen);
    if (owned)
        free(data);
    return ok;
}

void image_ldr_free(ldr_image *img)
{
    free(img->rgb);
    memset(img, 0, sizeof *img);
}
