/* PNG's and JPEG's colour tags (ldr_colour.h). */
#include "ldr_colour.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"

void ldr_tags_free(ldr_tags *t)
{
    free(t->icc);
    memset(t, 0, sizeof *t);
}

/* The chunks of a PNG that say what its colours are: data and length of each, NULL when
 * absent (the first of each kind counts). */
typedef struct png_chunks {
    const uint8_t *cicp, *iccp, *srgb, *gama, *chrm;
    uint32_t cicp_n, iccp_n, srgb_n, gama_n, chrm_n;
} png_chunks;

static void png_find(const uint8_t *d, size_t n, png_chunks *c)
{
    static const char names[5][5] = {"cICP", "iCCP", "sRGB", "gAMA", "cHRM"};
    const uint8_t **ptr[5] = {&c->cicp, &c->iccp, &c->srgb, &c->gama, &c->chrm};
    uint32_t *len[5] = {&c->cicp_n, &c->iccp_n, &c->srgb_n, &c->gama_n, &c->chrm_n};
    memset(c, 0, sizeof *c);
    for (size_t pos = 8; pos + 12 <= n;) {
        uint32_t l = image_be32(d + pos);
        const uint8_t *type = d + pos + 4;
        if (l > n - pos - 12 || memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0)
            break;   /* (a truncated chunk is the pixel decoder's to report) */
        for (int k = 0; k < 5; k++)
            if (memcmp(type, names[k], 4) == 0 && !*ptr[k]) {
                *ptr[k] = d + pos + 8;
                *len[k] = l;
            }
        pos += (size_t)l + 12;
    }
}

static bool png_cicp(const png_chunks *c, ldr_tags *t, char *why, size_t wl)
{
    if (c->cicp_n != 4) {
        snprintf(why, wl, "the cICP chunk is %u bytes, not 4", c->cicp_n);
        return false;
    }
    int mc = c->cicp[2], full = c->cicp[3];
    snprintf(t->chunk, sizeof t->chunk, "cICP %d/%d/%d/%d", c->cicp[0], c->cicp[1], mc, full);
    const char *no = mc != 0    ? "matrix coefficients other than 0 (PNG's RGB)"
                     : full > 1 ? "a video full-range flag other than 0 or 1"
                     : !full    ? "narrow (video) range, not read"
                                : NULL;
    char reason[160];
    if (!no && icc_cicp_encoding(c->cicp[0], c->cicp[1], &t->enc, reason, sizeof reason)) {
        t->kind = LDR_TAG_ENCODING;
        return true;
    }
    snprintf(why, wl, "%s: %s", t->chunk, no ? no : reason);
    return false;
}

/* The inflated profile of an iCCP chunk (keyword, 0, compression method 0, zlib data). */
static bool png_iccp(const png_chunks *c, ldr_tags *t, char *why, size_t wl)
{
    const uint8_t *z = memchr(c->iccp, 0, c->iccp_n < 81 ? c->iccp_n : 81);
    if (!z || z == c->iccp || (size_t)(z - c->iccp) + 2 > c->iccp_n || z[1] != 0) {
        snprintf(why, wl, "the iCCP chunk is corrupt (no keyword, or not zlib-compressed)");
        return false;
    }
    const uint8_t *in = z + 2;
    size_t in_n = c->iccp_n - (size_t)(in - c->iccp), cap = in_n * 8 + 4096, got = 0;
    struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor();
    enum libdeflate_result r = LIBDEFLATE_INSUFFICIENT_SPACE;
    for (; dec && r == LIBDEFLATE_INSUFFICIENT_SPACE; cap *= 2) {
        cap = cap < ICC_MAX_PROFILE_BYTES ? cap : ICC_MAX_PROFILE_BYTES;
        free(t->icc);
        if (!(t->icc = malloc(cap)))
            break;
        r = libdeflate_zlib_decompress(dec, in, in_n, t->icc, cap, &got);
        if (r == LIBDEFLATE_INSUFFICIENT_SPACE && cap == ICC_MAX_PROFILE_BYTES)
            break;
    }
    libdeflate_free_decompressor(dec);
    if (!t->icc || r != LIBDEFLATE_SUCCESS) {
        snprintf(why, wl, "the iCCP chunk's profile %s",
                 !t->icc || !dec ? "does not fit in memory"
                 : r == LIBDEFLATE_INSUFFICIENT_SPACE ? "inflates to more than the largest "
                                                        "profile read (64 MiB)"
                                                      : "does not inflate (corrupt zlib data)");
        return false;
    }
    t->icc_size = got;
    t->kind = LDR_TAG_ICC;
    snprintf(t->chunk, sizeof t->chunk, "iCCP");
    return true;
}

/* cHRM and/or gAMA: the one missing is sRGB's (Rec. 709 primaries; the sRGB curve). */
static bool png_chrm_gama(const png_chunks *c, ldr_tags *t, char *why, size_t wl)
{
    if ((c->gama && c->gama_n != 4) || (c->chrm && c->chrm_n != 32)) {
        snprintf(why, wl, "the %s chunk is %u bytes, not %d", c->gama && c->gama_n != 4 ? "gAMA"
                 : "cHRM", c->gama && c->gama_n != 4 ? c->gama_n : c->chrm_n,
                 c->gama && c->gama_n != 4 ? 4 : 32);
        return false;
    }
    char unused[8];
    icc_cicp_encoding(1, 13, &t->enc, unused, sizeof unused);   /* sRGB's */
    t->enc.source = IMAGE_COLOUR_CHROMATICITIES;
    if (c->chrm)   /* white, red, green, blue: x, y each times 100000 */
        for (int k = 0; k < 8; k++)
            t->enc.xy[(k / 2 + 3) % 4][k % 2] = image_be32(c->chrm + 4 * k) / 100000.0;
    if (c->gama) {
        uint32_t g = image_be32(c->gama);
        if (g == 0) {
            snprintf(why, wl, "the gAMA chunk says gamma 0");
            return false;
        }
        t->enc.curve = ICC_CURVE_GAMMA;
        t->enc.gamma = 100000.0 / g;   /* gAMA is the encoding's exponent: decoding inverts it */
    }
    snprintf(t->chunk, sizeof t->chunk, "%s%s%s", c->gama ? "gAMA" : "",
             c->gama && c->chrm ? " and " : "", c->chrm ? "cHRM" : "");
    t->kind = LDR_TAG_ENCODING;
    return true;
}

bool ldr_tags_png(const char *path, const uint8_t *data, size_t size, ldr_tags *t, char *err,
                  size_t errlen)
{
    memset(t, 0, sizeof *t);
    png_chunks c;
    png_find(data, size, &c);
    char why[256] = "";
    bool ok = true;
    if (c.cicp)
        ok = png_cicp(&c, t, why, sizeof why);
    else if (c.iccp)
        ok = png_iccp(&c, t, why, sizeof why);
    else if (c.srgb)
        t->kind = LDR_TAG_SRGB;
    else if (c.gama || c.chrm)
        ok = png_chrm_gama(&c, t, why, sizeof why);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, why);
        ldr_tags_free(t);
    }
    return ok;
}

/* JPEG's APP2 ICC_PROFILE segments: up to 255, numbered 1..count. */
typedef struct jpeg_icc {
    const uint8_t *part[256];
    size_t len[256];
    int count, seen;
} jpeg_icc;

/* Collects the ICC segments of DATA before the first scan into *J; false with WHY when they
 * disagree. */
static bool jpeg_collect(const uint8_t *d, size_t n, jpeg_icc *j, char *why, size_t wl)
{
    memset(j, 0, sizeof *j);
    for (size_t pos = 2; pos + 4 <= n;) {
        if (d[pos] != 0xFF)
            break;   /* not a marker: the pixel decoder reports a corrupt file */
        uint8_t m = d[pos + 1];
        if (m == 0xFF) {   /* fill byte */
            pos++;
            continue;
        }
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD8)) {   /* no length */
            pos += 2;
            continue;
        }
        size_t l = (size_t)d[pos + 2] << 8 | d[pos + 3];
        if (m == 0xDA || m == 0xD9 || l < 2 || pos + 2 + l > n)
            break;
        const uint8_t *s = d + pos + 4;
        if (m == 0xE2 && l >= 16 && memcmp(s, "ICC_PROFILE", 12) == 0) {
            int seq = s[12], count = s[13];
            if (seq < 1 || seq > count || (j->count && count != j->count) || j->part[seq]) {
                snprintf(why, wl, "its APP2 ICC_PROFILE segments are inconsistent (segment %d "
                                  "of %d%s)", seq, count, j->part[seq] ? ", twice" : "");
                return false;
            }
            j->count = count;
            j->part[seq] = s + 14;
            j->len[seq] = l - 16;
            j->seen++;
        }
        pos += 2 + l;
    }
    if (j->seen != j->count) {
        snprintf(why, wl, "its APP2 ICC_PROFILE segments are incomplete (%d of %d)", j->seen,
                 j->count);
        return false;
    }
    return true;
}

bool ldr_tags_jpeg(const char *path, const uint8_t *data, size_t size, ldr_tags *t, char *err,
                   size_t errlen)
{
    memset(t, 0, sizeof *t);
    jpeg_icc j;
    char why[256];
    if (!jpeg_collect(data, size, &j, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }
    if (!j.count)
        return true;
    size_t total = 0;
    for (int k = 1; k <= j.count; k++)
        total += j.len[k];
    if (!(t->icc = malloc(total ? total : 1))) {
        snprintf(err, errlen, "%s: out of memory for the ICC profile", path);
        return false;
    }
    for (int k = 1; k <= j.count; k++) {
        memcpy(t->icc + t->icc_size, j.part[k], j.len[k]);
        t->icc_size += j.len[k];
    }
    t->kind = LDR_TAG_ICC;
    snprintf(t->chunk, sizeof t->chunk, "APP2 ICC_PROFILE (%d segment%s)", j.count,
             j.count > 1 ? "s" : "");
    return true;
}
