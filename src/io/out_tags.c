/* Colour tags as bytes (out_tags.h). */
#include "out_tags.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lcms2.h>
#include <libdeflate.h>

enum {
    PNG_SRGB_PERCEPTUAL = 0,   /* the sRGB chunk's rendering intent */
    JPEG_ICC_PIECE = 65519,    /* a marker's 65533 data bytes less the 14 of its header */
    ICC_DEFLATE_LEVEL = 9,
};

void put_be16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

void put_be32(uint8_t *p, uint32_t v)
{
    put_be16(p, v >> 16);
    put_be16(p + 2, v & 0xffff);
}

uint8_t *png_chunk(uint8_t *p, const char type[4], const uint8_t *data, size_t len)
{
    put_be32(p, (uint32_t)len);
    memcpy(p + 4, type, 4);
    if (len)
        memmove(p + 8, data, len);
    put_be32(p + 8 + len, libdeflate_crc32(0, p + 4, len + 4));
    return p + 12 + len;
}

/* The iCCP chunk's bound: name, NUL, method, zlib of the profile. */
static size_t iccp_bound(size_t icc_len)
{
    return 12 + 16 + icc_len + icc_len / 8 + 64;
}

size_t out_tags_png_size(const encode_image *im)
{
    const encode_tags *t = im->tags;
    size_t n = (12 + 4) + (12 + 1);   /* cICP or gAMA, sRGB */
    if (t)
        n += (12 + 4) + (12 + 24) + (12 + 8) + (t->icc ? iccp_bound(t->icc_len) : 0);
    return n;
}

static uint8_t *gama_chunk(uint8_t *p, double gamma)
{
    uint8_t gama[4];
    put_be32(gama, (uint32_t)lround(100000.0 / gamma));
    return png_chunk(p, "gAMA", gama, sizeof gama);
}

/* iCCP: "ICC profile", NUL, method 0, the zlib stream (compressed in place after the header). */
static uint8_t *iccp_chunk(uint8_t *p, const uint8_t *icc, size_t len)
{
    static const char name[] = "ICC profile";
    uint8_t *d = p + 8;
    memcpy(d, name, sizeof name);   /* with its NUL */
    d[sizeof name] = 0;
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(ICC_DEFLATE_LEVEL);
    size_t z = c ? libdeflate_zlib_compress(c, icc, len, d + sizeof name + 1,
                                            iccp_bound(len) - 12 - sizeof name - 1) : 0;
    libdeflate_free_compressor(c);
    if (!z)   /* out of memory: the chunk left out (cICP still says the space) */
        return p;
    return png_chunk(p, "iCCP", d, sizeof name + 1 + z);
}

/* mDCv: the display's R, G, B and white in 0.00002, its maximum and minimum luminance in
 * 0.0001 cd/m^2 (PNG third edition, SMPTE ST 2086's values). */
static uint8_t *mdcv_chunk(uint8_t *p, const encode_tags *t)
{
    uint8_t d[24];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++)
            put_be16(d + 4 * i + 2 * k, (unsigned)lround(t->xy[i][k] / 0.00002));
    put_be32(d + 16, (uint32_t)lround(t->ldmax * 10000.0));
    put_be32(d + 20, (uint32_t)lround(t->ldmin * 10000.0));
    return png_chunk(p, "mDCv", d, sizeof d);
}

/* cLLi: MaxCLL and MaxFALL in 0.0001 cd/m^2. */
static uint8_t *clli_chunk(uint8_t *p, const encode_tags *t)
{
    uint8_t d[8];
    put_be32(d, (uint32_t)lround(fmin(t->max_cll, 4e5) * 10000.0));
    put_be32(d + 4, (uint32_t)lround(fmin(t->max_fall, 4e5) * 10000.0));
    return png_chunk(p, "cLLi", d, sizeof d);
}

uint8_t *out_tags_png(uint8_t *p, const encode_image *im)
{
    const encode_tags *t = im->tags;
    uint8_t intent = PNG_SRGB_PERCEPTUAL;
    if (!t)
        return im->gamma > 0 ? gama_chunk(p, im->gamma) : png_chunk(p, "sRGB", &intent, 1);
    if (t->cicp[0])
        p = png_chunk(p, "cICP", t->cicp, 4);
    if (t->srgb)
        p = png_chunk(p, "sRGB", &intent, 1);
    else if (t->icc)
        p = iccp_chunk(p, t->icc, t->icc_len);
    if (t->gamma > 0 && !t->srgb)
        p = gama_chunk(p, t->gamma);
    if (t->ldmax > 0)
        p = mdcv_chunk(p, t);
    if (t->max_cll > 0)
        p = clli_chunk(p, t);
    return p;
}

size_t out_tags_jpeg_insert_at(const uint8_t *d, size_t n)
{
    size_t at = 2;
    if (n >= 6 && d[2] == 0xFF && d[3] == 0xE0)
        at = 4 + (size_t)(d[4] << 8 | d[5]);
    return at <= n ? at : 0;
}

bool out_tags_jpeg_icc(encode_buffer *out, const uint8_t *icc, size_t len, char *err,
                       size_t errlen)
{
    static const char sig[12] = "ICC_PROFILE";   /* with its NUL */
    size_t pieces = (len + JPEG_ICC_PIECE - 1) / JPEG_ICC_PIECE;
    size_t at = out->len >= 2 && out->data[0] == 0xFF && out->data[1] == 0xD8
                    ? out_tags_jpeg_insert_at(out->data, out->len) : 0;
    uint8_t *d = at && pieces && pieces <= 255 ? malloc(out->len + len + 18 * pieces) : NULL;
    if (!d) {
        snprintf(err, errlen, "cannot embed the ICC profile (%s)",
                 !at ? "not a JPEG" : pieces > 255 ? "too large" : "out of memory");
        return false;
    }
    memcpy(d, out->data, at);
    uint8_t *p = d + at;
    for (size_t i = 0; i < pieces; i++) {
        size_t n = len - i * JPEG_ICC_PIECE < JPEG_ICC_PIECE ? len - i * JPEG_ICC_PIECE
                                                              : JPEG_ICC_PIECE;
        p[0] = 0xFF;
        p[1] = 0xE2;
        put_be16(p + 2, (unsigned)(2 + 14 + n));
        memcpy(p + 4, sig, 12);
        p[16] = (uint8_t)(i + 1);
        p[17] = (uint8_t)pieces;
        memcpy(p + 18, icc + i * JPEG_ICC_PIECE, n);
        p += 18 + n;
    }
    memcpy(p, out->data + at, out->len - at);
    p += out->len - at;
    free(out->data);
    out->data = d;
    out->len = (size_t)(p - d);
    return true;
}

size_t out_tags_primaries_line(const encode_tags *t, char *buf, size_t len)
{
    const double(*xy)[2] = t->xy;
    if (!(xy[3][1] > 0))
        return 0;
    int n = snprintf(buf, len, "PRIMARIES= %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f\n", xy[0][0],
                     xy[0][1], xy[1][0], xy[1][1], xy[2][0], xy[2][1], xy[3][0], xy[3][1]);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* The creation date of every profile (the header's 12 bytes: 2026-01-01 00:00:00). */
static const uint8_t ICC_DATE[12] = {0x07, 0xea, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};

/* The tone curve: IEC 61966-2-1's as lcms2's parametric type 4, or a plain power. */
static cmsToneCurve *profile_curve(double gamma)
{
    if (gamma > 0)
        return cmsBuildGamma(NULL, gamma);
    const double srgb[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(NULL, 4, srgb);
}

bool out_profile_make(const double xy[4][2], double gamma, const char *desc, uint8_t **icc,
                      size_t *len, char *err, size_t errlen)
{
    cmsCIExyY white = {xy[3][0], xy[3][1], 1.0};
    cmsCIExyYTRIPLE prim = {{xy[0][0], xy[0][1], 1.0}, {xy[1][0], xy[1][1], 1.0},
                            {xy[2][0], xy[2][1], 1.0}};
    cmsToneCurve *curve = profile_curve(gamma);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE h = curve ? cmsCreateRGBProfile(&white, &prim, curves) : NULL;
    cmsMLU *mlu = h ? cmsMLUalloc(NULL, 1) : NULL;
    cmsUInt32Number n = 0;
    bool ok = mlu && cmsMLUsetASCII(mlu, "en", "US", desc) &&
              cmsWriteTag(h, cmsSigProfileDescriptionTag, mlu) &&
              cmsSaveProfileToMem(h, NULL, &n) && n >= 128 && (*icc = malloc(n)) != NULL;
    if (ok && !(ok = cmsSaveProfileToMem(h, *icc, &n))) {
        free(*icc);
        *icc = NULL;
    }
    if (ok)   /* the same bytes on every run: a fixed creation date, no profile ID (zero) */
        memcpy(*icc + 24, ICC_DATE, sizeof ICC_DATE);
    *len = ok ? n : 0;
    if (!ok)
        snprintf(err, errlen, "cannot make the ICC profile of %s", desc);
    cmsMLUfree(mlu);
    if (h)
        cmsCloseProfile(h);
    cmsFreeToneCurve(curve);
    return ok;
}
