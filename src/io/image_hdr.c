/* Radiance .hdr (RGBE), decoded here.
 *
 * stb_image reads only the "-Y H +X W" orientation, decodes old-style (pre-1991) RLE to garbage
 * without an error, reads truncated data as zeros, loops forever on a zero-length literal run
 * and restarts at the top row when flat and RLE scanlines are mixed. This decoder follows
 * Radiance's own reader (freadcolrs/oldreadcolrs) instead: every scanline is new-style RLE
 * (per component) or flat, flat scanlines may carry old-style runs (a pixel 1,1,1,n repeats the
 * previous pixel n times, consecutive run pixels shifting n by 8 bits more, the previous pixel
 * possibly being the last of the previous scanline), all eight orientations of the resolution
 * line are honoured, and every count is checked against what is left of the scanline and the
 * file before it is used.
 *
 * Values are decode_rgbe's: mantissa * 2^(exponent - 136) (Ward's rgbe.c, stb_image; exponent 0
 * is black), or with image_load_options.rgbe_mid (mantissa + 0.5) * 2^(exponent - 136),
 * Radiance's colr_color.
 * EXPOSURE: Radiance multiplies the pixel values by every EXPOSURE it applies, so the file's
 * values are divided by the product of its EXPOSURE lines to give the scene values before the
 * exposure — as in the --scale sense: a file written with EXPOSURE=2 holds values twice the
 * scene's, and loads as the scene's. */
#include "image_internal.h"

#include "encode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR_MAX_DIM (1 << 20)
/* Radiance headers are a few lines; anything longer is not a header. */
#define HDR_MAX_HEADER_BYTES (64 * 1024)
#define HDR_MAX_LINE 1000

/* Copies line at data[*pos] (without '\n') into line; advances past the '\n'.
 * Returns false when there is no complete line within the header limit. */
static bool hdr_read_line(const uint8_t *data, size_t size, size_t *pos, char *line, size_t cap)
{
    size_t p = *pos, n = 0;
    while (p < size && data[p] != '\n') {
        if (p >= HDR_MAX_HEADER_BYTES || n + 1 >= cap)
            return false;
        line[n++] = (char)data[p++];
    }
    if (p >= size)
        return false;
    line[n] = '\0';
    *pos = p + 1;
    return true;
}

/* Parses an unsigned decimal at *s; returns -1 when there is none or it is too large. */
static long hdr_parse_dim(const char **s)
{
    const char *p = *s;
    if (*p < '0' || *p > '9')
        return -1;
    long v = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        if (v > 100000000L)
            return -1;
        p++;
    }
    *s = p;
    return v;
}

/* "sA N sB M": sign and axis of the major (scanline) direction, then of the minor one. */
typedef struct hdr_layout {
    char major_sign, major_axis, minor_sign, minor_axis;
    long width, height; /* image size: X extent, Y extent */
} hdr_layout;

static bool hdr_parse_resolution(const char *line, hdr_layout *l)
{
    const char *s = line;
    long n[2];
    char sign[2], axis[2];
    for (int k = 0; k < 2; k++) {
        if ((s[0] != '+' && s[0] != '-') || (s[1] != 'X' && s[1] != 'Y') || s[2] != ' ')
            return false;
        sign[k] = s[0];
        axis[k] = s[1];
        s += 3;
        while (*s == ' ')
            s++;
        n[k] = hdr_parse_dim(&s);
        if (n[k] < 0)
            return false;
        if (k == 0) {
            if (*s != ' ')
                return false;
            while (*s == ' ')
                s++;
        }
    }
    while (*s == ' ' || *s == '\r' || *s == '\t')
        s++;
    if (*s || axis[0] == axis[1])
        return false;
    l->major_sign = sign[0];
    l->major_axis = axis[0];
    l->minor_sign = sign[1];
    l->minor_axis = axis[1];
    l->width = axis[0] == 'X' ? n[0] : n[1];
    l->height = axis[0] == 'Y' ? n[0] : n[1];
    return true;
}

enum { SEEN_NEW = 1, SEEN_FLAT = 2, SEEN_OLD = 4 };

/* Decodes new-style RLE scanline S (of NS) of LEN pixels at *pos, its 4-byte header already
 * checked, into SL. */
static bool hdr_rle_scanline(const uint8_t *d, size_t size, size_t *pos, long len, long s,
                             long ns, uint8_t *sl, char *why, size_t wl)
{
    size_t p = *pos + 4;
    for (int c = 0; c < 4; c++) {
        long x = 0;
        while (x < len) {
            if (p >= size) {
                snprintf(why, wl, "pixel data is truncated in scanline %ld of %ld", s, ns);
                return false;
            }
            unsigned count = d[p++];
            if (count > 128) {
                count -= 128;
                if ((long)count > len - x) {
                    snprintf(why, wl, "corrupt RLE data in scanline %ld (run too long)", s);
                    return false;
                }
                if (p >= size) {
                    snprintf(why, wl, "pixel data is truncated in scanline %ld of %ld", s, ns);
                    return false;
                }
                uint8_t v = d[p++];
                for (unsigned k = 0; k < count; k++)
                    sl[(x + (long)k) * 4 + c] = v;
            } else {
                if (count == 0 || (long)count > len - x) {
                    snprintf(why, wl, "corrupt RLE data in scanline %ld (bad literal count %u)",
                             s, count);
                    return false;
                }
                if (size - p < count) {
                    snprintf(why, wl, "pixel data is truncated in scanline %ld of %ld", s, ns);
                    return false;
                }
                for (unsigned k = 0; k < count; k++)
                    sl[(x + (long)k) * 4 + c] = d[p++];
            }
            x += (long)count;
        }
    }
    *pos = p;
    return true;
}

/* Decodes flat scanline S (of NS) at *pos, with old-style runs, into SL; RGBE holds every
 * pixel decoded so far, *DONE of them (a run repeats the previous pixel in file order).
 * Adds SEEN_OLD to *SEEN when there are runs. */
static bool hdr_flat_scanline(const uint8_t *d, size_t size, size_t *pos, long len, long s,
                              long ns, uint8_t *rgbe, uint64_t *done, int *seen, char *why,
                              size_t wl)
{
    uint8_t *sl = rgbe + (size_t)s * (size_t)len * 4;
    long x = 0;
    int shift = 0;
    while (x < len) {
        if (size - *pos < 4) {
            snprintf(why, wl, "pixel data is truncated in scanline %ld of %ld (flat "
                              "scanlines)", s, ns);
            return false;
        }
        const uint8_t *px = d + *pos;
        *pos += 4;
        if (px[0] == 1 && px[1] == 1 && px[2] == 1) {
            if (*done == 0) {
                snprintf(why, wl, "old-style RLE run with no previous pixel");
                return false;
            }
            uint64_t count = shift < 32 ? (uint64_t)px[3] << shift : UINT64_MAX;
            if (count > (uint64_t)(len - x)) {
                snprintf(why, wl, "old-style RLE run past the end of scanline %ld", s);
                return false;
            }
            /* The previous pixel in file order (maybe the previous scanline's last). */
            uint8_t prev[4];
            memcpy(prev, rgbe + (*done - 1) * 4, 4);
            for (uint64_t k = 0; k < count; k++, x++, (*done)++)
                memcpy(sl + x * 4, prev, 4);
            shift += 8;
            *seen |= SEEN_OLD;
        } else {
            memcpy(sl + x * 4, px, 4);
            x++;
            (*done)++;
            shift = 0;
        }
    }
    return true;
}

/* Decodes NS scanlines of LEN pixels into rgbe (file order). Returns the encoding seen. */
static bool hdr_decode(const uint8_t *d, size_t size, size_t pos, long len, long ns,
                       uint8_t *rgbe, int *seen, char *why, size_t wl)
{
    *seen = 0;
    uint64_t done = 0; /* pixels decoded so far, over all scanlines */
    for (long s = 0; s < ns; s++) {
        if (size - pos < 4) {
            snprintf(why, wl, "pixel data is truncated at scanline %ld of %ld", s, ns);
            return false;
        }
        const uint8_t *h = d + pos;
        if (len >= 8 && len <= 0x7fff && h[0] == 2 && h[1] == 2 && !(h[2] & 0x80)) {
            long l = ((long)h[2] << 8) | h[3];
            if (l != len) {
                snprintf(why, wl, "scanline %ld has length %ld, expected %ld (corrupt RLE data)",
                         s, l, len);
                return false;
            }
            if (!hdr_rle_scanline(d, size, &pos, len, s, ns,
                                  rgbe + (size_t)s * (size_t)len * 4, why, wl))
                return false;
            *seen |= SEEN_NEW;
            done += (uint64_t)len;
            continue;
        }
        if (!hdr_flat_scanline(d, size, &pos, len, s, ns, rgbe, &done, seen, why, wl))
            return false;
        *seen |= SEEN_FLAT;
    }
    return true;
}

/* PRIMARIES= rx ry gx gy bx by wx wy into C: Radiance white-balances to the picture's white
 * (RGB 1,1,1 is that white), so it is also the adopted one; all zeros say nothing (C stays
 * the default). False when malformed. */
static bool hdr_primaries(const char *v, image_colour *c)
{
    double p[8];
    char *end;
    for (int k = 0; k < 8; k++) {
        p[k] = strtod(v, &end);
        if (end == v || !isfinite(p[k]))
            return false;
        v = end;
    }
    while (*v == ' ' || *v == '\t' || *v == '\r')
        v++;
    if (*v)
        return false;
    memset(c, 0, sizeof *c);
    bool zero = true;   /* Photoshop writes PRIMARIES=0 0 0 0 0 0 0 0: none said */
    for (int k = 0; k < 8; k++)
        zero = zero && p[k] == 0.0;
    if (zero)
        return true;
    for (int k = 0; k < 8; k++)
        c->xy[k / 2][k % 2] = p[k];
    c->adopted[0] = p[6];
    c->adopted[1] = p[7];
    c->source = IMAGE_COLOUR_CHROMATICITIES;
    return true;
}

/* An XYZE picture's space: CIE XYZ, absolute (XYZ has no white of its own to adapt). */
static void hdr_xyz(image_colour *c)
{
    static const double xyz[4][2] = {{1, 0}, {0, 1}, {0, 0}, {1.0 / 3, 1.0 / 3}};
    memset(c, 0, sizeof *c);
    memcpy(c->xy, xyz, sizeof xyz);
    c->source = IMAGE_COLOUR_CHROMATICITIES;
}

/* Reads the header lines up to and including the resolution line from *pos: the EXPOSURE
 * product, the colour space (PRIMARIES=, XYZE), the layout. Writes "PATH: reason" to err when
 * the header is unusable. */
static bool hdr_read_header(const char *path, const uint8_t *data, size_t size, size_t *pos,
                            double *exposure, image_colour *colour, hdr_layout *lay, char *err,
                            size_t errlen)
{
    char line[HDR_MAX_LINE + 1];
    if (!hdr_read_line(data, size, pos, line, sizeof line) || strncmp(line, "#?", 2) != 0) {
        snprintf(err, errlen, "%s: not a Radiance .hdr file (bad or truncated header)", path);
        return false;
    }
    *exposure = 1.0;
    memset(colour, 0, sizeof *colour);
    bool xyze = false;
    for (;;) {
        if (!hdr_read_line(data, size, pos, line, sizeof line)) {
            snprintf(err, errlen, "%s: Radiance header is truncated or has no blank line "
                                  "before the resolution line", path);
            return false;
        }
        if (line[0] == '\0' || (line[0] == '\r' && line[1] == '\0'))
            break;
        if (strncmp(line, "FORMAT=", 7) == 0) {
            const char *fmt = line + 7;
            size_t fl = strlen(fmt);
            while (fl && (fmt[fl - 1] == ' ' || fmt[fl - 1] == '\r' || fmt[fl - 1] == '\t'))
                fl--;
            xyze = fl == 15 && memcmp(fmt, "32-bit_rle_xyze", 15) == 0;
            if (!xyze && !(fl == 15 && memcmp(fmt, "32-bit_rle_rgbe", 15) == 0)) {
                snprintf(err, errlen, "%s: unsupported Radiance FORMAT '%.*s'", path,
                         (int)(fl > 64 ? 64 : fl), fmt);
                return false;
            }
        } else if (strncmp(line, "PRIMARIES=", 10) == 0) {
            if (!hdr_primaries(line + 10, colour)) {
                snprintf(err, errlen, "%s: invalid Radiance PRIMARIES line '%.80s'", path, line);
                return false;
            }
        } else if (strncmp(line, "EXPOSURE=", 9) == 0) {
            char *end;
            double e = strtod(line + 9, &end);
            while (*end == ' ' || *end == '\t' || *end == '\r')
                end++;
            if (end == line + 9 || *end || !(e > 0) || !isfinite(e) ||
                !isfinite(*exposure * e) || *exposure * e == 0) {
                snprintf(err, errlen, "%s: invalid Radiance EXPOSURE line '%.40s'", path, line);
                return false;
            }
            *exposure *= e;
        }
    }
    if (xyze)   /* the pixels are X, Y, Z whatever PRIMARIES says */
        hdr_xyz(colour);
    if (!hdr_read_line(data, size, pos, line, sizeof line)) {
        snprintf(err, errlen, "%s: Radiance resolution line is missing or truncated", path);
        return false;
    }
    if (!hdr_parse_resolution(line, lay)) {
        snprintf(err, errlen, "%s: bad Radiance resolution line '%.60s' (expected e.g. "
                              "'-Y H +X W')", path, line);
        return false;
    }
    return true;
}

/* Places the scanlines of RGBE (file order) by the layout into RGBA, as floats divided by
 * EXPOSURE; MID: each mantissa plus 0.5. */
static void hdr_to_rgba(const uint8_t *rgbe, const hdr_layout *lay, double exposure, bool mid,
                        float *rgba)
{
    long w = lay->width, h = lay->height;
    long len = lay->minor_axis == 'X' ? w : h, ns = lay->major_axis == 'X' ? w : h;
    for (long s = 0; s < ns; s++) {
        for (long i = 0; i < len; i++) {
            long x, y;
            if (lay->major_axis == 'Y') {
                y = lay->major_sign == '-' ? s : h - 1 - s;
                x = lay->minor_sign == '+' ? i : w - 1 - i;
            } else {
                x = lay->major_sign == '+' ? s : w - 1 - s;
                y = lay->minor_sign == '-' ? i : h - 1 - i;
            }
            const uint8_t *p = rgbe + ((size_t)s * (size_t)len + (size_t)i) * 4;
            float *d = rgba + ((size_t)y * (size_t)w + (size_t)x) * 4;
            decode_rgbe(p, mid, d);
            if (exposure != 1.0)
                for (int c = 0; c < 3; c++)
                    d[c] = (float)(d[c] / exposure);
            d[3] = 1.0f;
        }
    }
}

/* Fills IMG's description: windows, format, the encodings SEEN, the EXPOSURE. */
static void hdr_describe(hdr_image *img, const hdr_layout *lay, int seen, double exposure,
                         bool mid)
{
    const char *decode = mid ? "RGBE (m+0.5)*2^(e-136)" : "RGBE m*2^(e-136)";
    long w = lay->width, h = lay->height;
    img->width = (int)w;
    img->height = (int)h;
    img->data_window[2] = img->display_window[2] = (int)w - 1;
    img->data_window[3] = img->display_window[3] = (int)h - 1;
    img->half_exact = false;
    snprintf(img->format, sizeof img->format, "Radiance");
    snprintf(img->channels, sizeof img->channels, "RGBE (8-bit shared exponent, %c%c %ld %c%c %ld)",
             lay->major_sign, lay->major_axis, lay->major_axis == 'Y' ? h : w, lay->minor_sign,
             lay->minor_axis, lay->minor_axis == 'X' ? w : h);
    const char *enc = seen == SEEN_NEW                                       ? "RLE"
                      : seen == SEEN_FLAT                                    ? "none"
                      : seen == (SEEN_FLAT | SEEN_OLD) || seen == SEEN_OLD   ? "old RLE"
                                                                             : "mixed";
    snprintf(img->compression, sizeof img->compression, "%s", enc);
    if (exposure != 1.0)
        snprintf(img->rgb_source, sizeof img->rgb_source, "%s / EXPOSURE %g", decode,
                 exposure);
    else
        snprintf(img->rgb_source, sizeof img->rgb_source, "%s", decode);
    img->part_count = 1;
    img->exposure = exposure;
}

bool image_load_hdr(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    size_t pos = 0;
    memset(img, 0, sizeof *img);
    if (!opts)
        opts = &image_load_defaults;
    double exposure;
    image_colour colour;
    hdr_layout lay;
    if (!hdr_read_header(path, data, size, &pos, &exposure, &colour, &lay, err, errlen))
        return false;
    long w = lay.width, h = lay.height;
    if (w <= 0 || h <= 0 || w > HDR_MAX_DIM || h > HDR_MAX_DIM) {
        snprintf(err, errlen, "%s: absurd Radiance image size %ld x %ld", path, w, h);
        return false;
    }
    if (!image_check_pixels(path, (uint64_t)w, (uint64_t)h, opts, err, errlen))
        return false;
    long len = lay.minor_axis == 'X' ? w : h, ns = lay.major_axis == 'X' ? w : h;
    /* Every scanline takes at least 4 bytes: a file far too short is refused before the
     * allocation (old-style runs can make a scanline that short, so no tighter bound). */
    if ((uint64_t)(size - pos) < (uint64_t)ns * 4) {
        snprintf(err, errlen, "%s: pixel data is truncated (%zu bytes for %ld scanlines)", path,
                 size - pos, ns);
        return false;
    }
    uint8_t *rgbe = malloc((size_t)w * (size_t)h * 4);
    float *rgba = malloc((size_t)w * (size_t)h * 4 * sizeof *rgba);
    char why[256];
    int seen = 0;
    bool ok = false;
    if (!rgbe || !rgba)
        snprintf(err, errlen, "%s: out of memory (%ld x %ld)", path, w, h);
    else if (!hdr_decode(data, size, pos, len, ns, rgbe, &seen, why, sizeof why))
        snprintf(err, errlen, "%s: %s", path, why);
    else
        ok = true;
    if (ok) {
        hdr_to_rgba(rgbe, &lay, exposure, opts->rgbe_mid, rgba);
        hdr_describe(img, &lay, seen, exposure, opts->rgbe_mid);
        img->colour = colour;
        img->rgba = rgba;
        rgba = NULL;
    }
    free(rgbe);
    free(rgba);
    return ok;
}
