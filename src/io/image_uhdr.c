/* Ultra HDR gain-map JPEGs read back (uhdr.h): the base plus the gain map as the HDR
 * rendition at the full display boost, in cd/m^2 (SDR white at HT_HDR_REF_WHITE), or the base
 * alone (image_load_options.sdr_base); the gain map's metadata from hdrgm's XMP, or without it
 * ISO 21496-1's APP2. A file whose primary says hdrgm (or ISO 21496-1) but whose MPF
 * index, gain map or metadata is malformed is refused, naming what is wrong: hdrtone opens
 * files to check them, and a silent SDR fallback would pass a broken file as an SDR one. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "image_internal.h"
#include "image_ldr.h"
#include "uhdr.h"
#include "../ref/transfer.h"

static unsigned rd16(const uint8_t *p, bool be)
{
    return be ? (unsigned)(p[0] << 8 | p[1]) : (unsigned)(p[1] << 8 | p[0]);
}

static uint32_t rd32(const uint8_t *p, bool be)
{
    return be ? (uint32_t)rd16(p, true) << 16 | rd16(p + 2, true)
              : (uint32_t)rd16(p + 2, false) << 16 | rd16(p, false);
}

/* The APP segment of marker MARKER whose payload starts with SIG (with its NUL) among D's
 * (N bytes, a JPEG) markers before SOS: its payload after SIG into *BODY, *LEN; false when
 * there is none (or the markers run past N). */
static bool find_app(const uint8_t *d, size_t n, int marker, const char *sig,
                     const uint8_t **body, size_t *len)
{
    size_t sl = strlen(sig) + 1;
    if (n < 4 || d[0] != 0xFF || d[1] != 0xD8)
        return false;
    for (size_t p = 2; p + 4 <= n && d[p] == 0xFF && d[p + 1] != 0xDA;) {
        size_t sn = rd16(d + p + 2, true);
        if (sn < 2 || sn > n - p - 2)
            return false;
        if (d[p + 1] == marker && sn - 2 >= sl && memcmp(d + p + 4, sig, sl) == 0) {
            *body = d + p + 4 + sl;
            *len = sn - 2 - sl;
            return true;
        }
        p += 2 + sn;
    }
    return false;
}

/* Whether the text X (LEN bytes) holds S. */
static bool has_text(const uint8_t *x, size_t len, const char *s)
{
    size_t sl = strlen(s);
    for (size_t p = 0; p + sl <= len; p++)
        if (memcmp(x + p, s, sl) == 0)
            return true;
    return false;
}

/* Whether the XMP text X (LEN bytes) has hdrgm:NAME="V"; its value into *V when it is a
 * number (a missing attribute leaves *V, a malformed one is false). */
static bool xmp_number(const uint8_t *x, size_t len, const char *name, double *v, bool *found)
{
    char key[64], val[64];
    int kn = snprintf(key, sizeof key, "hdrgm:%s=\"", name);
    *found = false;
    for (size_t p = 0; p + (size_t)kn <= len; p++)
        if (memcmp(x + p, key, (size_t)kn) == 0) {
            size_t q = p + (size_t)kn, k = 0;
            while (q < len && x[q] != '"' && k + 1 < sizeof val)
                val[k++] = (char)x[q++];
            val[k] = '\0';
            char *end;
            *v = strtod(val, &end);
            *found = true;
            return k > 0 && *end == '\0' && isfinite(*v);
        }
    return true;
}

bool uhdr_meta_valid(const uhdr_meta *m, char *err, size_t errlen)
{
    const char *why = !(m->map_min <= m->map_max) ? "GainMapMin above GainMapMax"
                      : !(m->gamma > 0) ? "Gamma not above 0"
                      : !(m->offset_sdr >= 0 && m->offset_hdr >= 0) ? "a negative offset"
                      : !(m->cap_min >= 0 && m->cap_max > m->cap_min)
                          ? "HDRCapacityMax not above HDRCapacityMin (>= 0)" : NULL;
    if (why)
        snprintf(err, errlen, "%s", why);
    return !why;
}

/* The gain map's metadata from its XMP packet X (LEN bytes): hdrgm's attributes with their
 * defaults; false with the reason. */
static bool gainmap_meta(const uint8_t *x, size_t len, uhdr_meta *m, char *err, size_t errlen)
{
    static const char *const names[7] = {"GainMapMin", "GainMapMax", "Gamma", "OffsetSDR",
                                         "OffsetHDR", "HDRCapacityMin", "HDRCapacityMax"};
    *m = (uhdr_meta){0.0, 0.0, 1.0, 1.0 / 64, 1.0 / 64, 0.0, 0.0};
    double *v[7] = {&m->map_min, &m->map_max, &m->gamma, &m->offset_sdr, &m->offset_hdr,
                    &m->cap_min, &m->cap_max};
    for (int i = 0; i < 7; i++) {
        bool found;
        if (!xmp_number(x, len, names[i], v[i], &found)) {
            snprintf(err, errlen, "the gain map's hdrgm:%s is not a number", names[i]);
            return false;
        }
        if (!found && (i == 1 || i == 6)) {
            snprintf(err, errlen, "the gain map's XMP has no hdrgm:%s", names[i]);
            return false;
        }
    }
    if (has_text(x, len, "hdrgm:BaseRenditionIsHDR=\"True\"")) {
        snprintf(err, errlen, "an HDR base (BaseRenditionIsHDR): hdrtone reads SDR bases");
        return false;
    }
    return uhdr_meta_valid(m, err, errlen);
}

/* ISO 21496-1's flags (the byte after the versions). */
enum { ISO_MULTICHANNEL = 0x80, ISO_COMMON_DENOMINATOR = 0x08, ISO_BACKWARD = 0x04 };

/* Value K of ISO 21496-1's fractions at P (its N bytes after the versions and flags; SIGNED
 * numerator or not): each numerator after its denominator's common one (COMMON) or before its
 * own; NaN past the end or over a zero denominator. */
static double iso_value(const uint8_t *p, size_t n, bool common, int k, bool is_signed)
{
    size_t at = common ? 4 + 4 * (size_t)k : 8 * (size_t)k;
    if (at + (common ? 4 : 8) > n)
        return NAN;
    uint32_t num = rd32(p + at, true), den = rd32(common ? p : p + at + 4, true);
    return den == 0 ? NAN : (is_signed ? (double)(int32_t)num : (double)num) / den;
}

/* The gain map's metadata from ISO 21496-1's APP2 payload P (N bytes, after its namespace):
 * base and alternate HDR headroom (log2, hdrgm's capacities), then per channel the gain map's
 * min and max (log2), gamma and the base and alternate offsets; one channel, or three alike.
 * False with the reason. */
static bool iso_meta(const uint8_t *p, size_t n, uhdr_meta *m, char *err, size_t errlen)
{
    if (n < 5) {
        snprintf(err, errlen, "the gain map's ISO 21496-1 metadata is cut short");
        return false;
    }
    unsigned flags = p[4];
    if (rd16(p, true) != 0 || (flags & ISO_BACKWARD)) {
        snprintf(err, errlen, "ISO 21496-1 metadata %s", rd16(p, true) != 0
                 ? "of a version above 0 (hdrtone reads version 0)"
                 : "of an HDR base (backward direction): hdrtone reads SDR bases");
        return false;
    }
    bool common = flags & ISO_COMMON_DENOMINATOR;
    int channels = flags & ISO_MULTICHANNEL ? 3 : 1;
    const uint8_t *f = p + 5;
    double head[2] = {iso_value(f, n - 5, common, 0, false), iso_value(f, n - 5, common, 1, false)};
    double v[3][5];
    bool ok = isfinite(head[0]) && isfinite(head[1]);
    for (int c = 0; c < channels; c++)
        for (int i = 0; i < 5; i++) {
            v[c][i] = iso_value(f, n - 5, common, 2 + 5 * c + i, i != 2);
            ok = ok && isfinite(v[c][i]) && v[c][i] == v[0][i];
        }
    if (!ok) {
        snprintf(err, errlen, "the gain map's ISO 21496-1 metadata is cut short, divides by 0 "
                              "or differs between channels (hdrtone reads one set)");
        return false;
    }
    *m = (uhdr_meta){v[0][0], v[0][1], v[0][2], v[0][3], v[0][4], head[0], head[1]};
    return uhdr_meta_valid(m, err, errlen);
}

/* The second image of the primary's MPF index (CIPA DC-007): its offset in D and length;
 * false with the reason. */
static bool mpf_second(const uint8_t *d, size_t n, size_t *at, size_t *len, char *err,
                       size_t errlen)
{
    const uint8_t *t;
    size_t tn;
    if (!find_app(d, n, 0xE2, UHDR_MPF_SIG, &t, &tn)) {
        snprintf(err, errlen, "no MPF index (APP2 \"MPF\") locates the gain map");
        return false;
    }
    bool be = tn >= 8 && memcmp(t, "MM\0\x2A", 4) == 0;
    uint32_t ifd = tn >= 8 ? rd32(t + 4, be) : 0;
    if (!(be || (tn >= 8 && memcmp(t, "II\x2A\0", 4) == 0)) || ifd > tn - 2) {
        snprintf(err, errlen, "a malformed MPF index (its TIFF header)");
        return false;
    }
    unsigned count = rd16(t + ifd, be);
    for (unsigned i = 0; i < count && ifd + 2 + 12 * (size_t)(i + 1) <= tn; i++) {
        const uint8_t *e = t + ifd + 2 + 12 * i;
        uint32_t cnt = rd32(e + 4, be), off = rd32(e + 8, be);
        if (rd16(e, be) != 0xB002)
            continue;
        if (cnt < 32 || off > tn || tn - off < 32) {
            snprintf(err, errlen, "a malformed MPF index (its MP entries)");
            return false;
        }
        uint32_t size = rd32(t + off + 20, be), start = rd32(t + off + 24, be);
        size_t base = (size_t)(t - d);
        if (start > n - base || size > n - base - start || size < 4) {
            snprintf(err, errlen, "the MPF index puts the gain map (%u bytes at %u) outside "
                     "the file", size, start);
            return false;
        }
        *at = base + start;
        *len = size;
        return true;
    }
    snprintf(err, errlen, "a malformed MPF index (no MP entries)");
    return false;
}

/* Whether D's first image (a JPEG) says it has a gain map: its XMP names hdrgm:Version, or
 * (a file without hdrgm's XMP) it has ISO 21496-1's APP2. */
bool image_jpeg_is_uhdr(const uint8_t *data, size_t size)
{
    const uint8_t *x;
    size_t xn;
    return (find_app(data, size, 0xE1, UHDR_XMP_SIG, &x, &xn) &&
            has_text(x, xn, "hdrgm:Version")) ||
           find_app(data, size, 0xE2, UHDR_ISO_SIG, &x, &xn);
}

/* The gain map's stored values (MW x MH) sampled at base pixel (X, Y) of W x H, bilinear
 * between the map's pixel centres (the nearest value at the borders). */
static double sample(const uint8_t *map, int mw, int mh, int w, int h, int x, int y)
{
    if (mw == w && mh == h)
        return map[(size_t)y * w + x];
    double fx = (x + 0.5) * mw / w - 0.5, fy = (y + 0.5) * mh / h - 0.5;
    fx = fx < 0 ? 0 : fx > mw - 1 ? mw - 1 : fx;
    fy = fy < 0 ? 0 : fy > mh - 1 ? mh - 1 : fy;
    int x0 = (int)fx, y0 = (int)fy, x1 = x0 + (x0 + 1 < mw), y1 = y0 + (y0 + 1 < mh);
    double ax = fx - x0, ay = fy - y0;
    const uint8_t *r0 = map + (size_t)y0 * mw, *r1 = map + (size_t)y1 * mw;
    return (1 - ay) * ((1 - ax) * r0[x0] + ax * r0[x1]) + ay * ((1 - ax) * r1[x0] + ax * r1[x1]);
}

/* IMG's pixels (cd/m^2) from the base B (linear, its white 1) and, unless MAP is NULL, the
 * gain map MAP (MW x MH) of M applied completely (weight 1). */
static void rendition(const ldr_image *b, const uint8_t *map, int mw, int mh,
                      const uhdr_meta *m, hdr_image *img)
{
    int w = b->width, h = b->height;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t k = (size_t)y * w + x;
            const float *s = b->rgb + 3 * k;
            float *d = img->rgba + 4 * k;
            double f = 1.0, os = 0.0, oh = 0.0;
            if (map) {
                double g = sample(map, mw, mh, w, h, x, y) / 255.0;
                f = exp2(m->map_min + (m->map_max - m->map_min) * pow(g, 1.0 / m->gamma));
                os = m->offset_sdr;
                oh = m->offset_hdr;
            }
            for (int c = 0; c < 3; c++) {
                double v = b->linear ? s[c] : transfer_srgb_decode(s[c]);
                d[c] = (float)(HT_HDR_REF_WHITE * ((v + os) * f - oh));
            }
            d[3] = 1.0f;
        }
}

/* The gain map image at D (N bytes): its metadata and values (a grey JPEG), malloc'd into
 * *MAP; false with the reason. */
static bool load_gainmap(const uint8_t *d, size_t n, uint64_t limit, uhdr_meta *m,
                         uint8_t **map, int *mw, int *mh, char *err, size_t errlen)
{
    const uint8_t *x;
    size_t xn;
    int comp;
    if (find_app(d, n, 0xE1, UHDR_XMP_SIG, &x, &xn) && has_text(x, xn, "hdrgm:")) {
        if (!gainmap_meta(x, xn, m, err, errlen))
            return false;
    } else if (find_app(d, n, 0xE2, UHDR_ISO_SIG, &x, &xn)) {
        if (!iso_meta(x, xn, m, err, errlen))
            return false;
    } else {
        snprintf(err, errlen, "no metadata for the gain map (neither hdrgm's XMP nor ISO "
                              "21496-1's APP2)");
        return false;
    }
    if (n > INT_MAX || !stbi_info_from_memory(d, (int)n, mw, mh, &comp) || comp != 1) {
        snprintf(err, errlen, "the gain map is %s", n > INT_MAX ? "too large"
                 : comp != 1 ? "not one channel (hdrtone reads single-channel maps)"
                             : "not a readable JPEG");
        return false;
    }
    if ((uint64_t)*mw * (uint64_t)*mh > limit) {
        snprintf(err, errlen, "a %d x %d gain map (more pixels than the limit)", *mw, *mh);
        return false;
    }
    if (!(*map = stbi_load_from_memory(d, (int)n, mw, mh, &comp, 1))) {
        snprintf(err, errlen, "the gain map: %s", stbi_failure_reason());
        return false;
    }
    return true;
}

/* IMG from the SDR picture in DATA's first AT bytes and, when MAP is set, its gain map;
 * CHANNELS names what was used. False with "PATH: reason". */
static bool from_base(const char *path, const uint8_t *data, size_t at,
                      const image_load_options *opts, const uint8_t *map, int mw, int mh,
                      const uhdr_meta *m, const char *channels, hdr_image *img, char *err,
                      size_t errlen)
{
    ldr_image b = {0};
    if (!image_ldr_load_memory(path, data, at, image_max_pixels(opts), &b, err, errlen))
        return false;
    img->rgba = malloc((size_t)b.width * b.height * 4 * sizeof *img->rgba);
    if (!img->rgba) {
        snprintf(err, errlen, "%s: out of memory", path);
    } else {
        img->width = b.width;
        img->height = b.height;
        rendition(&b, map, mw, mh, m, img);
        img->colour = b.colour;
        img->data_window[2] = img->display_window[2] = b.width - 1;
        img->data_window[3] = img->display_window[3] = b.height - 1;
        img->white_luminance = 1.0;   /* values in cd/m^2 */
        snprintf(img->format, sizeof img->format, "%s", b.format);
        snprintf(img->channels, sizeof img->channels, "%s", channels);
        snprintf(img->compression, sizeof img->compression, "%s", b.format);
        snprintf(img->rgb_source, sizeof img->rgb_source, "R,G,B");
    }
    image_ldr_free(&b);
    return img->rgba != NULL;
}

bool image_load_sdr(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    return from_base(path, data, size, opts, NULL, 0, 0, NULL, "R,G,B (display-referred)", img,
                     err, errlen);
}

bool image_load_uhdr(const char *path, const uint8_t *data, size_t size,
                     const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    char why[HT_ERR_MAX];
    size_t at = size, len = 0;
    uhdr_meta m;
    uint8_t *map = NULL;
    int mw = 0, mh = 0;
    bool ok = opts->sdr_base || (mpf_second(data, size, &at, &len, why, sizeof why) &&
                                 load_gainmap(data + at, len, image_max_pixels(opts), &m, &map,
                                              &mw, &mh, why, sizeof why));
    if (!ok) {
        snprintf(err, errlen, "%s: an Ultra HDR JPEG with %s (--sdr-base opens its base)", path,
                 why);
        return false;
    }
    ok = from_base(path, data, at, opts, map, mw, mh, &m,
                   map ? "R,G,B (Ultra HDR base + gain map)" : "R,G,B (Ultra HDR base alone)",
                   img, err, errlen);
    stbi_image_free(map);
    return ok;
}
