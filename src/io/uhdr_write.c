/* Ultra HDR gain-map JPEGs written on libturbojpeg (encode_codecs.h's encode_ultrahdr; the
 * layout in uhdr.h). Written from Google's Ultra HDR v1 format page, ISO 21496-1's metadata
 * as its readers lay it out, and CIPA DC-007's MP index; libultrahdr is not in Debian. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>

#include "cicp.h"
#include "encode_codecs.h"
#include "image.h"
#include "out_tags.h"
#include "uhdr.h"
#include "../ref/transfer.h"

/* The gain map: full resolution (one gain a pixel), JPEG quality 100, whatever the base's
 * --quality. It corrects the base's 8-bit codes pixel by pixel, and its errors are multiplied
 * by (HDR + offset) / HDR in the dark: at half resolution, or at quality 95, or with Ultra
 * HDR's suggested offsets (1/64), a quarter to half of Desk.exr's pixels missed the rendition
 * by more than 5 % (docs/hdr.md, "Ultra HDR"). */
enum { UHDR_MAP_QUALITY = 100 };
/* The offsets of both renditions: 2^-12 of SDR white (0.05 cd/m^2, below the HDR display's
 * black), bounding the gain where the base is black. */
static const float UHDR_OFFSET = 1.0f / 4096.0f;
/* log2 of the largest gain kept (a black base under a bright HDR pixel). */
static const float UHDR_LOG2_LIMIT = 16.0f;

/* The luminance weights (Y of R, G, B) of T's primaries; BT.709's when it has none. */
static void lum_weights(const encode_tags *t, double lum[3])
{
    double m[9];
    if (t && t->xy[3][1] > 0 && image_rgb_to_xyz(t->xy, m)) {
        memcpy(lum, m + 3, 3 * sizeof *lum);
        return;
    }
    lum[0] = HT_LUM_R;
    lum[1] = HT_LUM_G;
    lum[2] = HT_LUM_B;
}

/* Tables made once a process, read by every encoding thread: PQ's 65536 codes as linear
 * light over HT_HDR_REF_WHITE (two pow a code: 5 ms, every frame's cost before), and log2 of
 * a float's mantissa at LOG2_BITS of it (log2_fast). */
enum { LOG2_BITS = 12 };
static float pq_light[65536];
static float log2_mant[(1 << LOG2_BITS) + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_make(void)
{
    for (int v = 0; v < 65536; v++)
        pq_light[v] = (float)(HT_PQ_PEAK * transfer_pq_decode(v / 65535.0) / HT_HDR_REF_WHITE);
    for (int i = 0; i <= 1 << LOG2_BITS; i++)
        log2_mant[i] = (float)log2(1.0 + (double)i / (1 << LOG2_BITS));
}

/* log2(X) for a positive normal float X: its exponent plus its mantissa's log2 interpolated
 * in log2_mant, within 2e-6 of the exact value (libm's log2f: 9.6e-7; 8e-8 for X in 0.5..2,
 * the rest the float's rounding of results near +-30; checked over every float from 1e-9 to
 * 1e9), far below a gain map code (its range / 255). libm's log2f was 14 % of the encode. */
static inline float log2_fast(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    const int low = 23 - LOG2_BITS;
    uint32_t i = (u >> low) & ((1u << LOG2_BITS) - 1);
    float f = (float)(u & ((1u << low) - 1)) * (1.0f / (float)(1u << low));
    return (float)((int)(u >> 23) - 127) + log2_mant[i] + f * (log2_mant[i + 1] - log2_mant[i]);
}

/* The luminance of the HDR rendition's pixel P (16-bit PQ or HLG codes; HLG: the display light
 * for the tags' nominal PEAK) over HT_HDR_REF_WHITE, LUM its primaries' weights. */
static float hdr_luminance(const uint16_t *p, bool pq, const double lum[3], double peak)
{
    if (pq)
        return (float)lum[0] * pq_light[p[0]] + (float)lum[1] * pq_light[p[1]] +
               (float)lum[2] * pq_light[p[2]];
    double v[3] = {p[0] / 65535.0, p[1] / 65535.0, p[2] / 65535.0};
    transfer_hlg_to_display(lum, peak, v);
    return (float)((lum[0] * v[0] + lum[1] * v[1] + lum[2] * v[2]) / HT_HDR_REF_WHITE);
}

/* The log2 gains of the HDR rendition HDR (16-bit, its tags T) over the decoded base DEC
 * (8-bit, through its curve: GAMMA 0 is sRGB, its white 1), N pixels, into LG, clipped to
 * +-UHDR_LOG2_LIMIT; their range into *LO <= 0 <= *HI. One pass: each pixel's two luminances
 * and its gain together (three passes over frames of floats before). */
static void log_gains(const uint8_t *dec, double gamma, const uint16_t *hdr,
                      const encode_tags *t, size_t n, float *lg, float *lo, float *hi)
{
    double lum[3];
    lum_weights(t, lum);
    float lin[3][256];   /* the base's codes as luminance: a table a channel */
    for (int v = 0; v < 256; v++) {
        double e = v / 255.0, l = gamma > 0 ? pow(e, gamma) : transfer_srgb_decode(e);
        for (int c = 0; c < 3; c++)
            lin[c][v] = (float)(lum[c] * l);
    }
    bool pq = t->cicp[1] == CICP_PQ;
    pthread_once(&tables_once, tables_make);
    float a = 0.0f, b = 0.0f;
    for (size_t k = 0; k < n; k++, dec += 3, hdr += 3) {
        float ys = lin[0][dec[0]] + lin[1][dec[1]] + lin[2][dec[2]];
        float g = log2_fast((hdr_luminance(hdr, pq, lum, t->ldmax) + UHDR_OFFSET) /
                            (ys + UHDR_OFFSET));
        /* Ternaries, not fminf/fmaxf: GCC calls libm for those (NaN rules), 13 % of the
         * encode; g is never NaN (both luminances finite, the offsets > 0). */
        g = g < -UHDR_LOG2_LIMIT ? -UHDR_LOG2_LIMIT : g > UHDR_LOG2_LIMIT ? UHDR_LOG2_LIMIT : g;
        lg[k] = g;
        a = g < a ? g : a;
        b = g > b ? g : b;
    }
    *lo = a;
    *hi = b;
}

/* The gain map MAP (N codes) of the log2 gains LG (range LO..HI, log_gains') and its metadata
 * M, for a display of PEAK cd/m^2. */
static void gain_map(const float *lg, size_t n, float lo, float hi, double peak, uint8_t *map,
                     uhdr_meta *m)
{
    /* Min content boost <= 1 <= max; a map with no gain still spans a range to divide by. */
    *m = (uhdr_meta){.map_min = lo, .map_max = hi > lo + 1e-3f ? hi : lo + 1e-3,
                     .gamma = 1.0, .offset_sdr = UHDR_OFFSET, .offset_hdr = UHDR_OFFSET,
                     .cap_min = 0.0};
    /* Applied completely on a display of the rendition's peak: a boost of PEAK over SDR white
     * (at least a little above 1: HDRCapacityMax must exceed HDRCapacityMin). */
    double cap = log2(peak / HT_HDR_REF_WHITE);
    m->cap_max = cap > 1e-3 ? cap : 1e-3;
    float lo_f = (float)m->map_min, scale = (float)(255.0 / (m->map_max - m->map_min));
    for (size_t k = 0; k < n; k++)   /* lg >= lo: only the top needs the clip */
    {
        float r = (lg[k] - lo_f) * scale;
        map[k] = (uint8_t)((r < 255.0f ? r : 255.0f) + 0.5f);
    }
}

/* One APP marker at P: FF MARKER, its length, SIG (with its NUL), BODY. Returns its end. */
static uint8_t *put_marker(uint8_t *p, int marker, const char *sig, const void *body,
                           size_t len)
{
    size_t sl = strlen(sig) + 1;
    p[0] = 0xFF;
    p[1] = (uint8_t)marker;
    put_be16(p + 2, (unsigned)(2 + sl + len));
    memcpy(p + 4, sig, sl);
    memcpy(p + 4 + sl, body, len);
    return p + 4 + sl + len;
}

/* A signed rational of V over 2^20 (ISO 21496-1's fractions, big-endian). */
static uint8_t *put_rational(uint8_t *p, double v)
{
    put_be32(p, (uint32_t)(int32_t)lround(v * 1048576.0));
    put_be32(p + 4, 1048576u);
    return p + 8;
}

/* ISO 21496-1's metadata of M (FULL) or its version alone, into P; its length. */
static size_t iso_metadata(const uhdr_meta *m, bool full, uint8_t *p)
{
    uint8_t *q = p;
    put_be16(q, 0);       /* minimum version a reader needs */
    put_be16(q + 2, 0);   /* writer version */
    q += 4;
    if (!full)
        return 4;
    *q++ = 0x40;   /* one channel, the gain applied in the base's colour space */
    q = put_rational(q, m->cap_min);   /* base HDR headroom (an SDR base) */
    q = put_rational(q, m->cap_max);   /* alternate HDR headroom */
    const double v[5] = {m->map_min, m->map_max, m->gamma, m->offset_sdr, m->offset_hdr};
    for (int i = 0; i < 5; i++)
        q = put_rational(q, v[i]);
    return (size_t)(q - p);
}

/* The gain map image's XMP packet (hdrgm's attributes of M) into BUF; its length. */
static size_t gainmap_xmp(const uhdr_meta *m, char *buf, size_t len)
{
    int n = snprintf(buf, len,
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"hdrtone\">"
        "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
        "<rdf:Description rdf:about=\"\" xmlns:hdrgm=\"" UHDR_HDRGM_NS "\" hdrgm:Version=\"1.0\""
        " hdrgm:GainMapMin=\"%.9g\" hdrgm:GainMapMax=\"%.9g\" hdrgm:Gamma=\"%.9g\""
        " hdrgm:OffsetSDR=\"%.9g\" hdrgm:OffsetHDR=\"%.9g\" hdrgm:HDRCapacityMin=\"%.9g\""
        " hdrgm:HDRCapacityMax=\"%.9g\" hdrgm:BaseRenditionIsHDR=\"False\"/>"
        "</rdf:RDF></x:xmpmeta>",
        m->map_min, m->map_max, m->gamma, m->offset_sdr, m->offset_hdr, m->cap_min, m->cap_max);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* The primary image's XMP packet: hdrgm:Version and the GContainer directory (the gain map
 * GAIN_LEN bytes). */
static size_t primary_xmp(size_t gain_len, char *buf, size_t len)
{
    int n = snprintf(buf, len,
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"hdrtone\">"
        "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
        "<rdf:Description rdf:about=\"\""
        " xmlns:Container=\"http://ns.google.com/photos/1.0/container/\""
        " xmlns:Item=\"http://ns.google.com/photos/1.0/container/item/\""
        " xmlns:hdrgm=\"" UHDR_HDRGM_NS "\" hdrgm:Version=\"1.0\">"
        "<Container:Directory><rdf:Seq>"
        "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Semantic=\"Primary\""
        " Item:Mime=\"image/jpeg\"/></rdf:li>"
        "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Semantic=\"GainMap\""
        " Item:Mime=\"image/jpeg\" Item:Length=\"%zu\"/></rdf:li>"
        "</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>", gain_len);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

enum { MPF_BODY = 82 };   /* the TIFF header, a 3-entry MP index IFD and two MP entries */

/* The MP index (CIPA DC-007) at P: the primary of PRIMARY_LEN bytes at 0, the gain map of
 * GAIN_LEN bytes at GAIN_AT from the index's TIFF header (big-endian). */
static void mpf_body(uint8_t *p, uint32_t primary_len, uint32_t gain_len, uint32_t gain_at)
{
    static const uint8_t head[50] = {
        'M', 'M', 0, 0x2A, 0, 0, 0, 8, 0, 3,
        0xB0, 0x00, 0, 7, 0, 0, 0, 4, '0', '1', '0', '0',     /* MPFVersion "0100" */
        0xB0, 0x01, 0, 4, 0, 0, 0, 1, 0, 0, 0, 2,             /* NumberOfImages 2 */
        0xB0, 0x02, 0, 7, 0, 0, 0, 32, 0, 0, 0, 50,           /* MPEntry, 2 x 16 bytes at 50 */
        0, 0, 0, 0};                                          /* no next IFD */
    memcpy(p, head, sizeof head);
    memset(p + 50, 0, 32);
    put_be32(p + 50, 0x00030000u);   /* baseline MP primary image, JPEG */
    put_be32(p + 54, primary_len);
    put_be32(p + 66 + 4, gain_len);
    put_be32(p + 66 + 8, gain_at);
}

/* J (a JPEG of LEN bytes) with the markers M (MLEN bytes) inserted after SOI and its APP0,
 * into a new buffer *OUT; its MPF body, if M has one at MPF_AT (else SIZE_MAX), filled in with
 * GAIN_LEN after the result's length is known. False when out of memory. */
static bool splice(const encode_buffer *j, const uint8_t *m, size_t mlen, size_t mpf_at,
                   size_t gain_len, encode_buffer *out)
{
    size_t at = out_tags_jpeg_insert_at(j->data, j->len);
    out->len = j->len + mlen;
    if (!at || !(out->data = malloc(out->len + gain_len)))
        return false;
    memcpy(out->data, j->data, at);
    memcpy(out->data + at, m, mlen);
    memcpy(out->data + at + mlen, j->data + at, j->len - at);
    if (mpf_at != SIZE_MAX) {
        size_t tiff = at + mpf_at + 4 + sizeof UHDR_MPF_SIG;   /* marker, length, "MPF\0" */
        mpf_body(out->data + tiff, (uint32_t)out->len, (uint32_t)gain_len,
                 (uint32_t)(out->len - tiff));
    }
    return true;
}

/* The gain map JPEG of MAP (MW x MH) with its XMP and ISO 21496-1 metadata into *OUT. */
static bool encode_gainmap(const uint8_t *map, int mw, int mh, const uhdr_meta *m, int quality,
                           int threads, encode_buffer *out, char *err, size_t errlen)
{
    encode_image g = {map, mw, mh, 1, 8, 0.0, NULL};
    encode_buffer j;
    if (!encode_image_threads(ENCODE_JPEG, quality, &g, 0.0, threads, &j, err, errlen))
        return false;
    char xmp[1024];
    uint8_t marks[1024 + 256], iso[128], *p = marks;
    size_t xl = gainmap_xmp(m, xmp, sizeof xmp);
    p = put_marker(p, 0xE1, UHDR_XMP_SIG, xmp, xl);
    p = put_marker(p, 0xE2, UHDR_ISO_SIG, iso, iso_metadata(m, true, iso));
    bool ok = splice(&j, marks, (size_t)(p - marks), SIZE_MAX, 0, out);
    free(j.data);
    if (!ok)
        snprintf(err, errlen, "out of memory for the gain map");
    return ok;
}

/* The base JPEG (SDR's, as encode_image_to writes it) and the gain map of HDR over it,
 * computed against the base as a reader decodes it, into *BASE, *MAP (W x H) and *M. */
static bool base_and_map(const encode_image *sdr, const encode_image *hdr, int quality,
                         int threads, encode_buffer *base, uint8_t **map, uhdr_meta *m,
                         char *err, size_t errlen)
{
    int w = sdr->width, h = sdr->height;
    size_t n = (size_t)w * h;
    if (!encode_image_threads(ENCODE_JPEG, quality, sdr, 0.0, threads, base, err, errlen))
        return false;
    /* One block from the pool (its pages stay mapped from frame to frame): the gains, the
     * decoded base. */
    size_t bytes = n * (sizeof(float) + 3);
    float *lg = image_pool_get(bytes);
    uint8_t *dec = lg ? (uint8_t *)(lg + n) : NULL;
    *map = malloc(n);
    tjhandle tj = tjInitDecompress();
    bool ok = lg && *map && tj;
    if (ok && tjDecompress2(tj, base->data, base->len, dec, w, w * 3, h, TJPF_RGB, 0) != 0) {
        snprintf(err, errlen, "decoding the base JPEG: %s", tjGetErrorStr2(tj));
        ok = false;
    } else if (!ok) {
        snprintf(err, errlen, "out of memory for a %d x %d gain map", w, h);
    }
    if (ok) {
        float lo, hi;
        log_gains(dec, sdr->gamma, hdr->pixels, hdr->tags, n, lg, &lo, &hi);
        gain_map(lg, n, lo, hi, hdr->tags->ldmax, *map, m);
    }
    if (tj)
        tjDestroy(tj);
    image_pool_put(lg, bytes);
    if (!ok) {
        free(base->data);
        free(*map);
        *map = NULL;
    }
    return ok;
}

bool encode_ultrahdr(const encode_image *sdr, const encode_image *hdr, int quality,
                     int threads, encode_buffer *out, char *err, size_t errlen)
{
    out->data = NULL;
    out->len = 0;
    if (hdr->width != sdr->width || hdr->height != sdr->height || hdr->depth != 16 ||
        sdr->depth != 8 || hdr->channels != 3 || sdr->channels != 3 || !hdr->tags) {
        snprintf(err, errlen, "an Ultra HDR JPEG needs an 8-bit SDR and a 16-bit HDR picture "
                 "of one size");
        return false;
    }
    encode_buffer base, gain;
    uint8_t *map;
    uhdr_meta m;
    if (!base_and_map(sdr, hdr, quality, threads, &base, &map, &m, err, errlen))
        return false;
    bool ok = encode_gainmap(map, sdr->width, sdr->height, &m, UHDR_MAP_QUALITY, threads, &gain,
                             err, errlen);
    free(map);
    if (ok) {
        char xmp[2048];
        uint8_t marks[2048 + 256], iso[8], mpf[MPF_BODY] = {0}, *p = marks;
        p = put_marker(p, 0xE1, UHDR_XMP_SIG, xmp, primary_xmp(gain.len, xmp, sizeof xmp));
        p = put_marker(p, 0xE2, UHDR_ISO_SIG, iso, iso_metadata(&m, false, iso));
        size_t mpf_at = (size_t)(p - marks);
        p = put_marker(p, 0xE2, UHDR_MPF_SIG, mpf, sizeof mpf);
        if (!(ok = splice(&base, marks, (size_t)(p - marks), mpf_at, gain.len, out)))
            snprintf(err, errlen, "out of memory for the Ultra HDR JPEG");
        else {
            memcpy(out->data + out->len, gain.data, gain.len);
            out->len += gain.len;
        }
        free(gain.data);
    }
    free(base.data);
    return ok;
}
