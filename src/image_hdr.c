/* Radiance .hdr (RGBE) through stb_image.
 *
 * stb_image decodes what it understands but is silent about much of what it does not: old-style
 * (pre-1991) RLE comes back as garbage, truncated data reads as zeros, a zero-length literal
 * run loops forever, and a file mixing RLE and flat scanlines restarts at the top row. So the
 * header and every scanline are checked here first, and stb only ever sees data it decodes
 * correctly. It also insists on "#?RADIANCE"/"#?RGBE" and a FORMAT line that Radiance itself
 * does not require, so stb is given a normalised header in front of the pixel data. */
#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

/* Same limits as the EXR loader: nothing large is allocated for a bogus header. */
#define HDR_MAX_DIM (1 << 20)
#define HDR_MAX_RGBA_BYTES ((uint64_t)4 << 30)
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

/* Walks the pixel data the way stb_image will read it and says why it would go wrong.
 * Sets *rle when the (first) scanline is new-style RLE. */
static bool hdr_check_scanlines(const uint8_t *d, size_t size, size_t pos, long w, long h,
                                bool *rle, char *why, size_t whylen)
{
    /* stb reads flat pixels for widths outside 8..32767, and also when the first scanline
     * does not start like a new-style RLE scanline. */
    bool rle_possible = w >= 8 && w < 32768;
    *rle = rle_possible && size - pos >= 4 && d[pos] == 2 && d[pos + 1] == 2 &&
           !(d[pos + 2] & 0x80);
    if (!*rle) {
        uint64_t need = (uint64_t)w * (uint64_t)h * 4;
        if (size - pos < need) {
            snprintf(why, whylen,
                     "pixel data is truncated (%zu of %llu bytes of flat scanlines)",
                     size - pos, (unsigned long long)need);
            return false;
        }
        for (uint64_t i = 0; i < (uint64_t)w * (uint64_t)h; i++) {
            const uint8_t *px = d + pos + i * 4;
            if (px[0] == 1 && px[1] == 1 && px[2] == 1) {
                snprintf(why, whylen, "old-style RLE .hdr is not supported yet "
                                      "(run marker 1,1,1 in scanline %llu)",
                         (unsigned long long)(i / (uint64_t)w));
                return false;
            }
        }
        return true;
    }
    for (long y = 0; y < h; y++) {
        if (size - pos < 4) {
            snprintf(why, whylen, "pixel data is truncated at scanline %ld of %ld", y, h);
            return false;
        }
        const uint8_t *s = d + pos;
        if (!(s[0] == 2 && s[1] == 2 && !(s[2] & 0x80))) {
            /* stb would restart at the top row here and decode garbage. */
            snprintf(why, whylen,
                     "scanline %ld is not RLE-encoded while earlier ones are "
                     "(mixed flat/RLE scanlines are not supported)", y);
            return false;
        }
        long len = ((long)s[2] << 8) | s[3];
        if (len != w) {
            snprintf(why, whylen, "scanline %ld has length %ld, expected %ld (corrupt RLE data)",
                     y, len, w);
            return false;
        }
        pos += 4;
        for (int c = 0; c < 4; c++) {
            long x = 0;
            while (x < w) {
                if (pos >= size) {
                    snprintf(why, whylen, "pixel data is truncated in scanline %ld of %ld", y, h);
                    return false;
                }
                unsigned count = d[pos++];
                if (count > 128) {
                    count -= 128;
                    if ((long)count > w - x) {
                        snprintf(why, whylen, "corrupt RLE data in scanline %ld (run too long)",
                                 y);
                        return false;
                    }
                    if (pos >= size) {
                        snprintf(why, whylen, "pixel data is truncated in scanline %ld of %ld",
                                 y, h);
                        return false;
                    }
                    pos++;
                } else {
                    /* A zero count would make stb loop forever. */
                    if (count == 0 || (long)count > w - x) {
                        snprintf(why, whylen, "corrupt RLE data in scanline %ld (bad literal "
                                              "count %u)", y, count);
                        return false;
                    }
                    if (size - pos < count) {
                        snprintf(why, whylen, "pixel data is truncated in scanline %ld of %ld",
                                 y, h);
                        return false;
                    }
                    pos += count;
                }
                x += (long)count;
            }
        }
    }
    return true;
}

bool image_load_hdr(const char *path, const uint8_t *data, size_t size, hdr_image *img,
                    char *err, size_t errlen)
{
    char line[HDR_MAX_LINE + 1];
    char why[256];
    size_t pos = 0;
    memset(img, 0, sizeof *img);

    if (!hdr_read_line(data, size, &pos, line, sizeof line) || strncmp(line, "#?", 2) != 0) {
        snprintf(err, errlen, "%s: not a Radiance .hdr file (bad or truncated header)", path);
        return false;
    }
    /* Header variables up to the blank line. */
    for (;;) {
        if (!hdr_read_line(data, size, &pos, line, sizeof line)) {
            snprintf(err, errlen, "%s: Radiance header is truncated or has no blank line "
                                  "before the resolution line", path);
            return false;
        }
        if (line[0] == '\0')
            break;
        if (strncmp(line, "FORMAT=", 7) == 0) {
            const char *fmt = line + 7;
            size_t fl = strlen(fmt);
            while (fl && (fmt[fl - 1] == ' ' || fmt[fl - 1] == '\r' || fmt[fl - 1] == '\t'))
                fl--;
            if (!(fl == 15 && memcmp(fmt, "32-bit_rle_rgbe", 15) == 0)) {
                if (fl == 15 && memcmp(fmt, "32-bit_rle_xyze", 15) == 0)
                    snprintf(err, errlen, "%s: XYZE Radiance files (FORMAT=32-bit_rle_xyze) "
                                          "are not supported yet", path);
                else
                    snprintf(err, errlen, "%s: unsupported Radiance FORMAT '%.*s'", path,
                             (int)(fl > 64 ? 64 : fl), fmt);
                return false;
            }
        }
    }
    if (!hdr_read_line(data, size, &pos, line, sizeof line)) {
        snprintf(err, errlen, "%s: Radiance resolution line is missing or truncated", path);
        return false;
    }
    /* Only "-Y H +X W" (top row first, left to right) is what stb_image reads; the other
     * seven orientations would need transposes/flips we do not do yet. */
    const char *s = line;
    long w = -1, h = -1;
    bool layout_ok = false;
    if (strncmp(s, "-Y ", 3) == 0) {
        s += 3;
        h = hdr_parse_dim(&s);
        if (h >= 0 && strncmp(s, " +X ", 4) == 0) {
            s += 4;
            w = hdr_parse_dim(&s);
            while (*s == ' ' || *s == '\r' || *s == '\t')
                s++;
            layout_ok = w >= 0 && *s == '\0';
        }
    }
    if (!layout_ok) {
        bool other_orientation = (line[0] == '+' || line[0] == '-') &&
                                 (line[1] == 'X' || line[1] == 'Y');
        snprintf(err, errlen, "%s: %s Radiance resolution line '%.60s' (only '-Y H +X W' "
                              "is supported)", path,
                 other_orientation ? "unsupported orientation in" : "bad", line);
        return false;
    }
    if (w <= 0 || h <= 0 || w > HDR_MAX_DIM || h > HDR_MAX_DIM ||
        (uint64_t)w * (uint64_t)h * 16 > HDR_MAX_RGBA_BYTES) {
        snprintf(err, errlen, "%s: absurd Radiance image size %ld x %ld", path, w, h);
        return false;
    }
    bool rle = false;
    if (!hdr_check_scanlines(data, size, pos, w, h, &rle, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }

    /* stb gets a header it accepts, followed by the pixel data as in the file. */
    char head[96];
    int hl = snprintf(head, sizeof head, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %ld +X %ld\n",
                      h, w);
    size_t pix = size - pos;
    if (pix > (size_t)0x7fffffff - (size_t)hl) {
        snprintf(err, errlen, "%s: file is too large for the Radiance decoder", path);
        return false;
    }
    uint8_t *buf = malloc((size_t)hl + pix);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    memcpy(buf, head, (size_t)hl);
    memcpy(buf + hl, data + pos, pix);
    int sw = 0, sh = 0, comp = 0;
    float *rgba = stbi_loadf_from_memory(buf, (int)((size_t)hl + pix), &sw, &sh, &comp, 4);
    free(buf);
    if (!rgba) {
        const char *r = stbi_failure_reason();
        snprintf(err, errlen, "%s: Radiance decoder failed: %s", path, r ? r : "unknown error");
        return false;
    }
    if (sw != w || sh != h) {
        stbi_image_free(rgba);
        snprintf(err, errlen, "%s: Radiance decoder returned %d x %d, expected %ld x %ld", path,
                 sw, sh, w, h);
        return false;
    }
    /* stb fills alpha with 1 when asked for 4 components. rgba is malloc'd by stb (default
     * STBI_MALLOC), so image_free's free() is the right release. */
    img->width = (int)w;
    img->height = (int)h;
    img->rgba = rgba;
    img->data_window[0] = img->display_window[0] = 0;
    img->data_window[1] = img->display_window[1] = 0;
    img->data_window[2] = img->display_window[2] = (int)w - 1;
    img->data_window[3] = img->display_window[3] = (int)h - 1;
    img->half_exact = false;
    snprintf(img->format, sizeof img->format, "Radiance");
    snprintf(img->channels, sizeof img->channels, "RGBE (8-bit shared exponent)");
    snprintf(img->compression, sizeof img->compression, "%s", rle ? "RLE" : "none");
    snprintf(img->rgb_source, sizeof img->rgb_source, "RGBE m*2^(e-136)");
    return true;
}
