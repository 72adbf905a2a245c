/* Portable Float Map (PFM): "PF" (RGB) or "Pf" (grey), width and height, a scale whose sign
 * gives the byte order (negative: little-endian, positive: big-endian), one whitespace byte,
 * then 32-bit floats, rows from the bottom of the image to the top. The magnitude of the scale
 * is not applied (writers put 1.0 there; readers such as tev and HDRView ignore it too). */
#include "image_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PFM_MAX_DIM (1 << 20)

static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The next whitespace-separated token of the header (at most 63 bytes) into tok. */
static bool next_token(const uint8_t *d, size_t size, size_t *pos, char tok[64])
{
    size_t p = *pos;
    while (p < size && is_space(d[p]))
        p++;
    size_t n = 0;
    while (p < size && !is_space(d[p])) {
        if (n == 63)
            return false;
        tok[n++] = (char)d[p++];
    }
    tok[n] = '\0';
    *pos = p;
    return n > 0 && p < size; /* a whitespace byte must follow */
}

static bool parse_dim(const char *s, long *v)
{
    if (!*s)
        return false;
    long x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > PFM_MAX_DIM)
            return false;
        x = x * 10 + (*s - '0');
    }
    *v = x;
    return true;
}

bool image_load_pfm(const char *path, const uint8_t *data, size_t size,
                         const image_load_options *opts, hdr_image *img, char *err,
                         size_t errlen)
{
    memset(img, 0, sizeof *img);
    if (!opts)
        opts = &image_load_defaults;
    if (size < 3 || data[0] != 'P' || (data[1] != 'F' && data[1] != 'f') || !is_space(data[2])) {
        snprintf(err, errlen, "%s: not a PFM file (bad magic)", path);
        return false;
    }
    int comps = data[1] == 'F' ? 3 : 1;
    size_t pos = 2;
    char tw[64], th[64], ts[64];
    long w, h;
    if (!next_token(data, size, &pos, tw) || !next_token(data, size, &pos, th) ||
        !next_token(data, size, &pos, ts)) {
        snprintf(err, errlen, "%s: PFM header is truncated or malformed", path);
        return false;
    }
    if (!parse_dim(tw, &w) || !parse_dim(th, &h) || w <= 0 || h <= 0 || w > PFM_MAX_DIM ||
        h > PFM_MAX_DIM) {
        snprintf(err, errlen, "%s: invalid PFM size '%.20s x %.20s'", path, tw, th);
        return false;
    }
    char *end;
    double scale = strtod(ts, &end);
    if (*end || !isfinite(scale) || scale == 0) {
        snprintf(err, errlen, "%s: invalid PFM scale '%.20s' (a non-zero number whose sign "
                              "gives the byte order)", path, ts);
        return false;
    }
    pos++; /* the single whitespace byte after the scale */
    if (!image_check_pixels(path, (uint64_t)w, (uint64_t)h, opts, err, errlen))
        return false;
    uint64_t need = (uint64_t)w * (uint64_t)h * (uint64_t)comps * 4;
    if (size - pos < need) {
        snprintf(err, errlen, "%s: PFM pixel data is truncated (%zu of %llu bytes)", path,
                 size - pos, (unsigned long long)need);
        return false;
    }
    float *rgba = malloc((size_t)w * (size_t)h * 4 * sizeof *rgba);
    if (!rgba) {
        snprintf(err, errlen, "%s: out of memory (%ld x %ld)", path, w, h);
        return false;
    }
    bool little = scale < 0;
    const uint8_t *src = data + pos;
    for (long y = 0; y < h; y++) {
        float *row = rgba + (size_t)(h - 1 - y) * (size_t)w * 4; /* bottom row first */
        for (long x = 0; x < w; x++) {
            float v[3];
            for (int c = 0; c < comps; c++, src += 4) {
                uint32_t u = little ? (uint32_t)src[0] | (uint32_t)src[1] << 8 |
                                          (uint32_t)src[2] << 16 | (uint32_t)src[3] << 24
                                    : (uint32_t)src[3] | (uint32_t)src[2] << 8 |
                                          (uint32_t)src[1] << 16 | (uint32_t)src[0] << 24;
                memcpy(&v[c], &u, 4);
            }
            float *d = row + x * 4;
            d[0] = v[0];
            d[1] = comps == 3 ? v[1] : v[0];
            d[2] = comps == 3 ? v[2] : v[0];
            d[3] = 1.0f;
        }
    }
    img->width = (int)w;
    img->height = (int)h;
    img->rgba = rgba;
    img->data_window[2] = img->display_window[2] = (int)w - 1;
    img->data_window[3] = img->display_window[3] = (int)h - 1;
    img->half_exact = false;
    snprintf(img->format, sizeof img->format, "PFM");
    snprintf(img->channels, sizeof img->channels, "%s (float, %s-endian)",
             comps == 3 ? "R,G,B" : "Y", little ? "little" : "big");
    snprintf(img->compression, sizeof img->compression, "none");
    snprintf(img->rgb_source, sizeof img->rgb_source, "%s", comps == 3 ? "R,G,B" : "Y (R=G=B=Y)");
    img->part_count = 1;
    img->exposure = 1.0;
    return true;
}
