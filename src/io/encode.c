/* The encoders of export (encode.h). PNG is written here, chunk by chunk, around one
 * zlib stream: the filter is ours (Sub on every row, cheap and good on photographs), the
 * compression ours in stripes on all cores (zlib_stripes.h, deflate_fast.h: matches one
 * sample or one pixel back at every position, a hash only where a stripe's sample says it
 * pays, literals alone where matches do not; BENCHMARKS.md, "The PNG encoder, fourth pass",
 * "PQ PNG and Ultra HDR: where the encode goes"). */
#include "encode.h"
#include "encode_codecs.h"
#include "encode_terms.h"
#include "out_tags.h"
#include "zlib_stripes.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>

enum {
    PNG_FILTER_SUB = 1,
    PNG_MAX_CHUNK = 1 << 30,           /* IDAT pieces, below the format's 2^31 - 1 */
};
/* Uncompressed bytes of a PNG stripe: a 4K RGB frame makes 48, enough for 16 cores, each
 * big enough that starting without the previous stripe's 32 KiB window costs little. */
#define PNG_STRIPE_BYTES ((size_t)512 << 10)

static const char *const FORMAT_NAMES[ENCODE_FORMAT_COUNT] = {
#define ENCODE_NAME_(id, name) [ENCODE_##id] = #name,
    [ENCODE_AUTO] = "auto", ENCODE_FORMATS(ENCODE_NAME_)
#undef ENCODE_NAME_
};

static const char *const EXTENSIONS[ENCODE_FORMAT_COUNT] = {
    [ENCODE_PNG] = "png", [ENCODE_JPEG] = "jpg", [ENCODE_RGB24] = "rgb", [ENCODE_Y4M] = "y4m",
    [ENCODE_HDR] = "hdr", [ENCODE_PFM] = "pfm", [ENCODE_AVIF] = "avif", [ENCODE_JXL] = "jxl",
};

enum {
    RGBE_EXCESS = 128,        /* Radiance's COLXS: the stored exponent's offset */
    RGBE_MIN_RUN = 4,         /* shorter repeats stay literal (Radiance's MINRUN) */
    RGBE_MIN_RLE = 8,         /* scanlines of 8..32767 pixels are run-length encoded */
    RGBE_MAX_RLE = 0x7fff,
};

const char *encode_format_name(encode_format f)
{
    return f >= 0 && f < ENCODE_FORMAT_COUNT ? FORMAT_NAMES[f] : "?";
}

const char *encode_format_extension(encode_format f)
{
    return f > ENCODE_AUTO && f < ENCODE_FORMAT_COUNT ? EXTENSIONS[f] : "png";
}

static bool ext_is(const char *ext, const char *name)
{
    for (; *ext && *name; ext++, name++)
        if (tolower((unsigned char)*ext) != *name)
            return false;
    return !*ext && !*name;
}

encode_format encode_format_of_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        return ENCODE_AUTO;
    if (ext_is(dot + 1, "jpeg"))
        return ENCODE_JPEG;
    for (int f = ENCODE_AUTO + 1; f < ENCODE_FORMAT_COUNT; f++)
        if (ext_is(dot + 1, EXTENSIONS[f]))
            return (encode_format)f;
    return ENCODE_AUTO;
}

bool encode_format_is_float(encode_format f)
{
    return f == ENCODE_HDR || f == ENCODE_PFM;
}

bool encode_format_is_linear(encode_format f, int depth)
{
    return encode_format_is_float(f) || (f == ENCODE_JXL && depth == 32);
}

bool encode_format_accepts(encode_format f, int channels, int depth, char *err, size_t errlen)
{
    const char *why = NULL;
    if (channels < 1 || channels > 4 || (depth != 8 && depth != 16 && depth != 32))
        why = "not an image of 1 to 4 channels of 8 or 16 bits or floats";
    else if (encode_format_is_float(f) && (depth != 32 || channels != 3))
        why = "holds the linear output, RGB floats, only";
    else if (!encode_format_is_float(f) && f != ENCODE_JXL && depth == 32)
        why = "holds no floats (the linear output: hdr, pfm or JPEG XL)";
    else if (f == ENCODE_JXL && depth == 32 && channels != 3)
        why = "holds the linear output as RGB floats only";
    else if (f != ENCODE_PNG && f != ENCODE_AVIF && f != ENCODE_JXL && f != ENCODE_Y4M &&
             !encode_format_is_float(f) && depth != 8)
        why = "holds 8 bits per channel only (16 bits: PNG, AVIF, JPEG XL, y4m)";
    else if (f == ENCODE_JPEG && channels != 1 && channels != 3)
        why = "holds no alpha channel";
    else if ((f == ENCODE_RGB24 || f == ENCODE_Y4M) && channels != 3)
        why = "holds RGB frames only";
    else if ((f == ENCODE_AVIF || f == ENCODE_JXL) && channels != 3)
        why = "is written as RGB only here";
    else if (f <= ENCODE_AUTO || f >= ENCODE_FORMAT_COUNT)
        why = "is not a format";
    if (why)
        snprintf(err, errlen, "%s %s", encode_format_name(f), why);
    return !why;
}

/* N 16-bit samples S (host order) of a row of pixels of PX samples, Sub-filtered into O:
 * each byte of a sample's big-endian pair minus the same byte of the sample one pixel to
 * the left (PNG filters bytes, so no borrow crosses from the low byte to the high). In one
 * pass of 16-bit lanes, which the compiler vectorises (a loop over the bytes, swapped then
 * differenced, cost 2.7x as much: BENCHMARKS.md, "PQ PNG and Ultra HDR: where the encode
 * goes"). */
static void png_filter_sub16(const uint16_t *restrict s, size_t n, size_t px,
                             uint8_t *restrict o)
{
    size_t i = 0;
    for (; i < px && i < n; i++) {   /* the first pixel: nothing on its left */
        o[2 * i] = (uint8_t)(s[i] >> 8);
        o[2 * i + 1] = (uint8_t)s[i];
    }
    for (; i < n; i++) {
        uint16_t v = s[i], w = s[i - px];
        uint16_t d = (uint16_t)(((v & 0xff00u) - (w & 0xff00u)) | ((v - w) & 0xffu));
        o[2 * i] = (uint8_t)(d >> 8);
        o[2 * i + 1] = (uint8_t)d;
    }
}

/* The filtered scanlines of rows [Y0, Y0 + ROWS): each row its filter byte (Sub) and the
 * differences of its bytes (big-endian for 16 bits) to those one pixel to the left. */
static void png_filter_sub(const encode_image *im, int y0, int rows, uint8_t *out)
{
    size_t bpp = (size_t)im->channels * (im->depth / 8);
    size_t row = (size_t)im->width * bpp;
    for (int y = y0; y < y0 + rows; y++) {
        uint8_t *o = out + (size_t)(y - y0) * (row + 1);
        *o++ = PNG_FILTER_SUB;
        if (im->depth == 16) {
            png_filter_sub16((const uint16_t *)im->pixels + (size_t)y * row / 2, row / 2,
                             bpp / 2, o);
        } else {
            const uint8_t *s = (const uint8_t *)im->pixels + (size_t)y * row;
            memcpy(o, s, bpp < row ? bpp : row);
            for (size_t i = bpp; i < row; i++)
                o[i] = (uint8_t)(s[i] - s[i - bpp]);
        }
    }
}

/* The PNG's stripes: STRIPE_ROWS rows each (the last fewer), filtered and compressed as
 * pieces of one zlib stream (zlib_stripes.h). */
typedef struct png_stripes {
    const encode_image *im;
    int stripe_rows;
} png_stripes;

static void png_stripe_fill(void *ctx, int k, uint8_t *out, size_t len)
{
    const png_stripes *s = ctx;
    int y0 = k * s->stripe_rows;
    (void)len;
    png_filter_sub(s->im, y0, s->im->height - y0 < s->stripe_rows ? s->im->height - y0
                                                                   : s->stripe_rows, out);
}

/* The zlib stream of IM's filtered scanlines at HEAD bytes into *Z (malloc'd, TAIL bytes of
 * room after it): stripes of about PNG_STRIPE_BYTES (by the image's size alone, so the
 * bytes do not depend on the threads). */
static bool png_deflate(const encode_image *im, int threads, size_t head, size_t tail,
                        uint8_t **z, size_t *zlen, char *err, size_t errlen)
{
    size_t row = (size_t)im->width * im->channels * (im->depth / 8) + 1;
    size_t rows = PNG_STRIPE_BYTES / row;
    png_stripes st = {im, rows < 1 ? 1 : rows > (size_t)im->height ? im->height : (int)rows};
    int n = (im->height + st.stripe_rows - 1) / st.stripe_rows;
    size_t *len = malloc((size_t)n * sizeof *len);
    if (!len) {
        snprintf(err, errlen, "out of memory for the PNG of %d x %d", im->width, im->height);
        return false;
    }
    for (int k = 0; k < n; k++) {
        int y0 = k * st.stripe_rows;
        len[k] = row * (size_t)(im->height - y0 < st.stripe_rows ? im->height - y0
                                                                 : st.stripe_rows);
    }
    char why[128];
    size_t sample = (size_t)im->depth / 8;
    bool ok = zlib_stripes_room(n, len, png_stripe_fill, &st, sample, sample * im->channels,
                                threads, head, tail, z, zlen, why, sizeof why);
    if (!ok)
        snprintf(err, errlen, "PNG of %d x %d: %s", im->width, im->height, why);
    free(len);
    return ok;
}

/* IM's chunks before the pixels (the signature, IHDR, the colour chunks) into P, which has
 * room for 8 + 25 + out_tags_png_size; returns the end. */
static uint8_t *png_head(uint8_t *p, const encode_image *im)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const uint8_t color_type[5] = {0, 0, 4, 2, 6};   /* by channel count */
    memcpy(p, signature, 8);
    uint8_t ihdr[13] = {0};
    put_be32(ihdr, (uint32_t)im->width);
    put_be32(ihdr + 4, (uint32_t)im->height);
    ihdr[8] = (uint8_t)im->depth;
    ihdr[9] = color_type[im->channels];
    p = png_chunk(p + 8, "IHDR", ihdr, sizeof ihdr);
    return out_tags_png(p, im);
}

/* The PNG: its head made first, the zlib stream deflated behind it in the same buffer (one
 * IDAT; a stream over PNG_MAX_CHUNK, which needs several, is copied into them), IEND. */
static bool encode_png(const encode_image *im, int threads, encode_buffer *out, char *err,
                       size_t errlen)
{
    uint8_t *head = malloc(8 + 25 + out_tags_png_size(im)), *z = NULL;
    if (!head) {
        snprintf(err, errlen, "out of memory for the PNG of %d x %d", im->width, im->height);
        return false;
    }
    size_t hlen = (size_t)(png_head(head, im) - head), zlen;
    bool ok = png_deflate(im, threads, hlen + 8, 4 + 12, &z, &zlen, err, errlen);
    encode_mark m = encode_mark_now();
    uint8_t *p = z;
    if (ok && zlen > PNG_MAX_CHUNK) {   /* several IDATs: the stream copied between them */
        size_t nidat = zlen / PNG_MAX_CHUNK + 1;
        ok = (p = malloc(hlen + zlen + 12 * nidat + 12)) != NULL;
        uint8_t *q = p + hlen;
        for (size_t at = 0; ok && at < zlen; at += PNG_MAX_CHUNK)
            q = png_chunk(q, "IDAT", z + hlen + 8 + at,
                          zlen - at < PNG_MAX_CHUNK ? zlen - at : PNG_MAX_CHUNK);
        if (ok)
            out->len = (size_t)(png_chunk(q, "IEND", NULL, 0) - p);
        free(z);
        if (!ok)
            snprintf(err, errlen, "out of memory for the PNG of %d x %d", im->width, im->height);
    } else if (ok) {   /* one IDAT around the stream where it lies */
        put_be32(p + hlen, (uint32_t)zlen);
        memcpy(p + hlen + 4, "IDAT", 4);
        put_be32(p + hlen + 8 + zlen, libdeflate_crc32(0, p + hlen + 4, zlen + 4));
        out->len = (size_t)(png_chunk(p + hlen + 12 + zlen, "IEND", NULL, 0) - p);
    }
    if (ok) {
        memcpy(p, head, hlen);
        out->data = p;
    }
    free(head);
    encode_term_add(ENCODE_TERM_assemble, m);
    return ok;
}

static uint8_t clamp_byte(float v)
{
    return (uint8_t)(v <= 0.0f ? 0 : v >= 255.0f ? 255 : (int)(v + 0.5f));
}

/* "FRAME\n" and the Y, Cb, Cr planes (encode_y4m_header's conversion). */
static bool encode_y4m_frame(const encode_image *im, encode_buffer *out, char *err,
                             size_t errlen)
{
    static const char tag[] = "FRAME\n";
    /* BT.709: Kr = 0.2126, Kb = 0.0722; Cb = (B - Y) / (2 (1 - Kb)),
     * Cr = (R - Y) / (2 (1 - Kr)). */
    const float kr = 0.2126f, kb = 0.0722f, kg = 1.0f - kr - kb;
    const float cb = 0.5f / (1.0f - kb), cr = 0.5f / (1.0f - kr);
    size_t npix = (size_t)im->width * im->height, head = sizeof tag - 1;
    uint8_t *p = malloc(head + 3 * npix);
    if (!p) {
        snprintf(err, errlen, "out of memory for a %d x %d frame", im->width, im->height);
        return false;
    }
    memcpy(p, tag, head);
    uint8_t *yp = p + head, *up = yp + npix, *vp = up + npix;
    const uint8_t *s = im->pixels;
    for (size_t k = 0; k < npix; k++, s += 3) {
        float r = s[0], g = s[1], b = s[2], y = kr * r + kg * g + kb * b;
        yp[k] = clamp_byte(y);
        up[k] = clamp_byte(128.0f + cb * (b - y));
        vp[k] = clamp_byte(128.0f + cr * (r - y));
    }
    out->data = p;
    out->len = head + 3 * npix;
    return true;
}

void encode_rgbe(double r, double g, double b, uint8_t rgbe[4])
{
    double d = fmax(r, fmax(g, b));
    memset(rgbe, 0, 4);
    if (!isfinite(r) || !isfinite(g) || !isfinite(b) || !(d > 1e-32))
        return;
    int e;
    d = frexp(d, &e) * 256.0 / d;   /* 2^(8 - e): the largest mantissa in 128..255 */
    if (e + RGBE_EXCESS > 255) {    /* beyond RGBE: the largest value it holds */
        memset(rgbe, 255, 4);
        return;
    }
    double v[3] = {r, g, b};
    for (int c = 0; c < 3; c++)
        rgbe[c] = v[c] > 0.0 ? (uint8_t)(v[c] * d) : 0;
    rgbe[3] = (uint8_t)(e + RGBE_EXCESS);
}

void decode_rgbe(const uint8_t rgbe[4], bool mid, float rgb[3])
{
    float half = mid ? 0.5f : 0.0f;
    for (int c = 0; c < 3; c++)
        rgb[c] = rgbe[3] ? ldexpf((float)rgbe[c] + half, (int)rgbe[3] - RGBE_EXCESS - 8) : 0.0f;
}

/* One component of a scanline, N bytes of V (stride 4), run-length encoded at P (Radiance's
 * fwritecolrs: runs of RGBE_MIN_RUN or more as 128 + count, value; the rest literal, count
 * then bytes); returns the end. */
static uint8_t *rle_component(const uint8_t *v, int n, uint8_t *p)
{
    int j = 0;
    while (j < n) {
        int beg = j, cnt = 1;
        for (; beg < n; beg += cnt) {   /* the next run long enough */
            for (cnt = 1; cnt < 127 && beg + cnt < n && v[4 * (beg + cnt)] == v[4 * beg]; cnt++)
                ;
            if (cnt >= RGBE_MIN_RUN)
                break;
        }
        while (j < beg) {   /* literals before it */
            int k = beg - j < 128 ? beg - j : 128;
            *p++ = (uint8_t)k;
            for (int i = 0; i < k; i++)
                *p++ = v[4 * (j + i)];
            j += k;
        }
        if (beg < n) {
            *p++ = (uint8_t)(128 + cnt);
            *p++ = v[4 * beg];
            j = beg + cnt;
        }
    }
    return p;
}

static bool encode_hdr(const encode_image *im, double exposure, encode_buffer *out, char *err,
                       size_t errlen)
{
    char head[320], prim[160] = "";
    if (im->tags)
        out_tags_primaries_line(im->tags, prim, sizeof prim);
    int w = im->width, hlen = exposure > 0
        ? snprintf(head, sizeof head, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=%.4e\n%s\n"
                   "-Y %d +X %d\n", exposure, prim, im->height, w)
        : snprintf(head, sizeof head, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n%s\n-Y %d +X %d\n",
                   prim, im->height, w);
    bool rle = w >= RGBE_MIN_RLE && w <= RGBE_MAX_RLE;
    /* RLE's worst case: a count byte per 128 literals, per component */
    size_t row = (size_t)w * 4, cap = (size_t)hlen + (row + 4 + 4 * (w / 128 + 1)) * im->height;
    uint8_t *line = malloc(row), *p = malloc(cap);
    if (!line || !p) {
        free(line);
        free(p);
        snprintf(err, errlen, "out of memory for the picture of %d x %d", w, im->height);
        return false;
    }
    out->data = p;
    memcpy(p, head, (size_t)hlen);
    p += hlen;
    const float *px = im->pixels;
    for (int y = 0; y < im->height; y++) {
        for (int x = 0; x < w; x++, px += 3)
            encode_rgbe(px[0], px[1], px[2], line + 4 * x);
        if (!rle) {
            memcpy(p, line, row);
            p += row;
            continue;
        }
        uint8_t start[4] = {2, 2, (uint8_t)(w >> 8), (uint8_t)w};
        memcpy(p, start, 4);
        p += 4;
        for (int c = 0; c < 4; c++)
            p = rle_component(line + c, w, p);
    }
    out->len = (size_t)(p - out->data);
    free(line);
    return true;
}

static bool encode_pfm(const encode_image *im, encode_buffer *out, char *err, size_t errlen)
{
    char head[64];
    int hlen = snprintf(head, sizeof head, "PF\n%d %d\n-1.0\n", im->width, im->height);
    size_t row = (size_t)im->width * 3;
    uint8_t *p = malloc((size_t)hlen + row * 4 * im->height);
    if (!p) {
        snprintf(err, errlen, "out of memory for the picture of %d x %d", im->width, im->height);
        return false;
    }
    out->data = p;
    out->len = (size_t)hlen + row * 4 * im->height;
    memcpy(p, head, (size_t)hlen);
    p += hlen;
    for (int y = im->height; y-- > 0;) {   /* bottom row first */
        const float *s = (const float *)im->pixels + (size_t)y * row;
        for (size_t i = 0; i < row; i++, p += 4) {
            uint32_t u;
            memcpy(&u, &s[i], 4);
            for (int b = 0; b < 4; b++)   /* little-endian, whatever the host */
                p[b] = (uint8_t)(u >> (8 * b));
        }
    }
    return true;
}

bool encode_image_to(encode_format f, int quality, const encode_image *im, encode_buffer *out,
                     char *err, size_t errlen)
{
    return encode_image_exposure(f, quality, im, 0.0, out, err, errlen);
}

bool encode_image_exposure(encode_format f, int quality, const encode_image *im,
                           double exposure, encode_buffer *out, char *err, size_t errlen)
{
    return encode_image_threads(f, quality, im, exposure, 0, out, err, errlen);
}

bool encode_image_threads(encode_format f, int quality, const encode_image *im,
                          double exposure, int threads, encode_buffer *out, char *err,
                          size_t errlen)
{
    out->data = NULL;
    out->len = 0;
    if (!im->pixels || im->width <= 0 || im->height <= 0 ||
        (uint64_t)im->width * im->height > UINT64_C(1) << 40) {
        snprintf(err, errlen, "invalid image to encode (%d x %d)", im->width, im->height);
        return false;
    }
    if (!encode_format_accepts(f, im->channels, im->depth, err, errlen))
        return false;
    if (f == ENCODE_JPEG && (im->width > 65535 || im->height > 65535)) {
        snprintf(err, errlen, "JPEG holds at most 65535 x 65535 pixels");
        return false;
    }
    switch (f) {
    case ENCODE_PNG:
        return encode_png(im, threads, out, err, errlen);
    case ENCODE_JPEG:
        return encode_jpeg(im, quality < 1 ? 1 : quality > 100 ? 100 : quality, threads, out,
                           err, errlen);
    case ENCODE_Y4M:
        return im->depth == 16
                   ? encode_y4m_frame10(im, im->tags && im->tags->chroma420, out, err, errlen)
                   : encode_y4m_frame(im, out, err, errlen);
    case ENCODE_HDR:
        return encode_hdr(im, exposure, out, err, errlen);
    case ENCODE_PFM:
        return encode_pfm(im, out, err, errlen);
    case ENCODE_AVIF:
        return encode_avif(im, quality < 0 ? 0 : quality > 100 ? 100 : quality, out, err, errlen);
    case ENCODE_JXL:
        return encode_jxl(im, quality < 0 ? 0 : quality > 100 ? 100 : quality, out, err, errlen);
    case ENCODE_RGB24: {
        size_t n = (size_t)im->width * im->height * 3;
        if (!(out->data = malloc(n))) {
            snprintf(err, errlen, "out of memory for a %d x %d frame", im->width, im->height);
            return false;
        }
        memcpy(out->data, im->pixels, n);
        out->len = n;
        return true;
    }
    default:
        return false;   /* encode_format_accepts refused it */
    }
}
