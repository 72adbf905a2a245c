/* The formats read through OpenImageIO (oiio.h): the size checked before anything decodes,
 * the channels made RGBA, the transfer decoded to linear light, the metadata kept. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include "image_internal.h"
#include "icc.h"
#include "image_formats.h"
#include "oiio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le24(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16; }
static uint32_t le32(const uint8_t *p) { return le24(p) | (uint32_t)p[3] << 24; }

/* The canvas of a WebP file (VP8X, lossless VP8L or lossy VP8 header). */
static bool webp_size(const uint8_t *d, size_t size, uint64_t *w, uint64_t *h)
{
    if (size >= 30 && memcmp(d + 12, "VP8X", 4) == 0)
        *w = le24(d + 24) + 1, *h = le24(d + 27) + 1;
    else if (size >= 25 && memcmp(d + 12, "VP8L", 4) == 0)
        *w = ((d[21] | d[22] << 8) & 0x3fff) + 1,
        *h = (((d[22] >> 6) | d[23] << 2 | (d[24] & 0xf) << 10) & 0x3fff) + 1;
    else if (size >= 30 && memcmp(d + 12, "VP8 ", 4) == 0)
        *w = (d[26] | d[27] << 8) & 0x3fff, *h = (d[28] | d[29] << 8) & 0x3fff;
    else
        return false;
    return true;
}

static uint32_t rd32(const uint8_t *p, bool le) { return le ? le32(p) : be32(p); }

/* The next decimal number of a PNM header after *POS (whitespace and # comments skipped). */
static uint64_t pnm_number(const uint8_t *d, size_t size, size_t *pos)
{
    size_t i = *pos;
    while (i < size && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n' ||
                        d[i] == '#'))
        if (d[i++] == '#')
            while (i < size && d[i] != '\n')
                i++;
    uint64_t v = 0;
    for (; i < size && d[i] >= '0' && d[i] <= '9' && v < ((uint64_t)1 << 40); i++)
        v = v * 10 + (uint64_t)(d[i] - '0');
    *pos = i;
    return v;
}

/* The size the headers of DPX, Cineon, PSD, TGA, BMP, DDS and PNM declare (OpenImageIO's
 * readers of DPX, for one, allocate their pixel buffer as they open the file). */
static bool plain_size(int format, const uint8_t *d, size_t size, uint64_t *w, uint64_t *h)
{
    size_t pos = 2;
    bool le = d[0] == 'X' || d[0] == 0xd7; /* DPX "XPDS", Cineon d7 5f 2a 80: little-endian */
    switch (format) {
    case IMAGE_FORMAT_DPX:
        return size >= 780 && (*w = rd32(d + 772, le), *h = rd32(d + 776, le), true);
    case IMAGE_FORMAT_CINEON:
        return size >= 208 && (*w = rd32(d + 200, le), *h = rd32(d + 204, le), true);
    case IMAGE_FORMAT_PSD:
        return size >= 22 && (*h = be32(d + 14), *w = be32(d + 18), true);
    case IMAGE_FORMAT_TGA:
        return size >= 18 && (*w = d[12] | d[13] << 8, *h = d[14] | d[15] << 8, true);
    case IMAGE_FORMAT_DDS:
        return size >= 20 && (*h = le32(d + 12), *w = le32(d + 16), true);
    case IMAGE_FORMAT_BMP:
        if (size >= 22 && le32(d + 14) == 12)
            return *w = d[18] | d[19] << 8, *h = d[20] | d[21] << 8, true;
        return size >= 26 && (*w = (uint64_t)llabs((int32_t)le32(d + 18)),
                              *h = (uint64_t)llabs((int32_t)le32(d + 22)), true);
    case IMAGE_FORMAT_PNM:
        return *w = pnm_number(d, size, &pos), *h = pnm_number(d, size, &pos), true;
    default:
        return false;
    }
}

/* The size of a JPEG 2000 codestream's SIZ segment, or a JP2 file's image header box. */
static bool jp2_size(const uint8_t *d, size_t size, uint64_t *w, uint64_t *h)
{
    if (size >= 16 && d[0] == 0xff && d[1] == 0x4f) { /* SOC, SIZ: Xsiz Ysiz XOsiz YOsiz */
        uint64_t x = be32(d + 8), y = be32(d + 12);
        *w = size >= 24 && be32(d + 16) < x ? x - be32(d + 16) : x;
        *h = size >= 24 && be32(d + 20) < y ? y - be32(d + 20) : y;
        return true;
    }
    for (size_t i = 12; i + 16 <= size && i < 4096; i++)
        if (memcmp(d + i, "ihdr", 4) == 0) {
            *h = be32(d + i + 4), *w = be32(d + i + 8);
            return true;
        }
    return false;
}

/* What OpenImageIO's Cineon reader asserts on (Debian keeps assertions: an abort, not an
 * error): an element count or a bit depth its library does not know; and what it allocates:
 * the header's user-data length (4 GB in a fuzzed file: scripts/fuzz formats). */
static bool check_cineon(const char *path, const uint8_t *d, size_t size, char *err,
                         size_t errlen)
{
    int n = size > 193 ? d[193] : 0;
    uint32_t user = size >= 20 ? rd32(d + 16, d[0] == 0xd7) : 0;
    bool ok = n >= 1 && n <= 8 && size >= 196 + 28 * (size_t)n && user <= size;
    for (int k = 0; ok && k < n; k++) {
        int bits = d[196 + 28 * k + 2];
        ok = bits == 8 || bits == 10 || bits == 12 || bits == 16;
    }
    if (!ok)
        snprintf(err, errlen, "%s: Cineon header is damaged (%d elements, a bit depth other "
                              "than 8, 10, 12 or 16, or user data of %u bytes in a file of %zu)",
                 path, n, user, size);
    return ok;
}

/* What OpenImageIO's DPX reader allocates or asserts on: a user-data size beyond the file (it
 * allocates that much and makes it an attribute of negative length: scripts/fuzz formats),
 * or more than the 8 image elements DPX has. */
static bool check_dpx(const char *path, const uint8_t *d, size_t size, char *err, size_t errlen)
{
    bool le = d[0] == 'X';
    uint32_t user = size >= 36 ? rd32(d + 32, le) : 0;
    unsigned elements = size >= 772 ? (le ? d[770] | d[771] << 8 : d[770] << 8 | d[771]) : 0;
    bool ok = size >= 772 && (user == 0xffffffffu || user <= size) && elements <= 8;
    if (!ok)
        snprintf(err, errlen, "%s: DPX header is damaged (user data of %u bytes, %u image "
                              "elements, in a file of %zu bytes)", path, user, elements, size);
    return ok;
}

/* What OpenImageIO's DDS reader loops forever on (fuzz_formats found it): an uncompressed
 * pixel format whose colour mask is 0 (it shifts the mask until a bit appears), or a bit
 * count it cannot step through. */
static bool check_dds(const char *path, const uint8_t *d, size_t size, char *err, size_t errlen)
{
    enum { ALPHAPIXELS = 0x1, ALPHA = 0x2, FOURCC = 0x4, RGB = 0x40, LUMINANCE = 0x20000 };
    bool ok = size >= 128 && le32(d + 4) == 124 && le32(d + 76) == 32;
    uint32_t flags = ok ? le32(d + 80) : 0, bits = ok ? le32(d + 88) : 0;
    if (ok && !(flags & FOURCC)) {
        ok = bits == 8 || bits == 16 || bits == 24 || bits == 32;
        if (flags & (RGB | LUMINANCE))
            ok = ok && le32(d + 92) != 0 && (!(flags & RGB) || (le32(d + 96) && le32(d + 100)));
        if (flags & (ALPHAPIXELS | ALPHA))
            ok = ok && le32(d + 104) != 0;
        ok = ok && (flags & (RGB | LUMINANCE | ALPHA));
    }
    if (!ok)
        snprintf(err, errlen, "%s: DDS header is damaged (its pixel format has a bit count "
                              "or a colour mask no reader can use)", path);
    return ok;
}

/* The codestream of a JPEG 2000 file: the file itself, or a JP2 file's first jp2c box. */
static const uint8_t *jp2_codestream(const uint8_t *d, size_t size, size_t *n)
{
    for (size_t at = 0; at + 8 <= size;) {
        uint64_t len = be32(d + at), head = 8;
        if (at == 0 && d[0] == 0xff && d[1] == 0x4f)
            return *n = size, d;
        if (len == 1 && at + 16 <= size)
            len = (uint64_t)be32(d + at + 8) << 32 | be32(d + at + 12), head = 16;
        if (len == 0)
            len = size - at;
        if (len < head || len > size - at)
            return NULL;
        if (memcmp(d + at + 4, "jp2c", 4) == 0)
            return *n = (size_t)(len - head), d + at + head;
        at += (size_t)len;
    }
    return NULL;
}

/* What OpenImageIO 2.4's JPEG 2000 reader reads past (fuzz_formats found it: valgrind shows
 * a read beyond OpenJPEG's component buffer, whose stale bytes then differed run to run): it
 * makes the picture the union of the components' areas and indexes each component by the
 * union's columns and rows, testing x > its width where x >= is meant. Safe only when every
 * component, at its subsampling, starts where the union does and reaches its far edge; that
 * refuses components of different areas (damaged files, and 4:2:0 files of odd size). The
 * component's area is OpenJPEG's: ceil(X1/dx) - ceil(X0/dx) samples. */
static bool check_jp2(const char *path, const uint8_t *d, size_t size, char *err,
                      size_t errlen)
{
    size_t n = 0;
    const uint8_t *c = jp2_codestream(d, size, &n);
    unsigned comps = c && n >= 42 && c[2] == 0xff && c[3] == 0x51 ? c[40] << 8 | c[41] : 0;
    bool ok = comps >= 1 && n >= 42 + 3 * (size_t)comps;
    uint64_t lo[2] = {UINT64_MAX, UINT64_MAX}, hi[2] = {0, 0};
    for (int pass = 0; ok && pass < 2; pass++) /* the union first, then each against it */
        for (unsigned k = 0; ok && k < comps; k++)
            for (int a = 0; ok && a < 2; a++) { /* x, then y: Xsiz at 8, XOsiz at 16 */
                uint64_t step = c[43 + 3 * k + a], x1 = be32(c + 8 + 4 * a);
                uint64_t x0 = be32(c + 16 + 4 * a);
                if (!(ok = step > 0 && x0 < x1))
                    break;
                uint64_t begin = (x0 + step - 1) / step;
                uint64_t end = begin + ((x1 + step - 1) / step - begin) * step;
                if (pass == 0)
                    lo[a] = begin < lo[a] ? begin : lo[a], hi[a] = end > hi[a] ? end : hi[a];
                else
                    ok = begin == lo[a] && end - begin >= hi[a] - lo[a];
            }
    if (!ok)
        snprintf(err, errlen, "%s: JPEG 2000 codestream is damaged or its components cover "
                              "different areas (which this build's reader cannot read safely)",
                 path);
    return ok;
}

/* Every format's size read from its own header first (WebP, JPEG 2000 and DPX readers of
 * OpenImageIO decode or allocate as they open the file), so that --max-pixels refuses before
 * any of them allocates (TIFF's and camera raws' are read by the libraries without pixel
 * buffers, and checked after opening); and the header fields a reader would abort on. */
static bool check_early(const char *path, int format, const uint8_t *d, size_t size,
                        const image_load_options *opts, char *err, size_t errlen)
{
    uint64_t w = 0, h = 0;
    bool known = format == IMAGE_FORMAT_WEBP ? webp_size(d, size, &w, &h)
                 : format == IMAGE_FORMAT_JP2  ? jp2_size(d, size, &w, &h)
                                               : plain_size(format, d, size, &w, &h);
    if ((format == IMAGE_FORMAT_CINEON && !check_cineon(path, d, size, err, errlen)) ||
        (format == IMAGE_FORMAT_DDS && !check_dds(path, d, size, err, errlen)) ||
        (format == IMAGE_FORMAT_DPX && !check_dpx(path, d, size, err, errlen)) ||
        (format == IMAGE_FORMAT_JP2 && !check_jp2(path, d, size, err, errlen)))
        return false;
    return !known || image_check_pixels(path, w, h, opts, err, errlen);
}

typedef enum { TRANSFER_LINEAR, TRANSFER_SRGB, TRANSFER_GAMMA, TRANSFER_CINEON } transfer;

/* How the file's values encode light when it has no ICC profile: float samples and camera raws
 * are linear; DPX and Cineon by their transfer (printing density: Kodak's log); integer
 * pictures by OpenImageIO's colour space, sRGB when it says none. */
static transfer transfer_of(int format, const oiio_spec *s, double *gamma)
{
    if (format == IMAGE_FORMAT_RAW || s->is_float || strcasecmp(s->colorspace, "linear") == 0)
        return TRANSFER_LINEAR;
    if (format == IMAGE_FORMAT_CINEON || strcmp(s->colorspace, "KodakLog") == 0)
        return TRANSFER_CINEON;
    if (strncmp(s->colorspace, "Gamma", 5) == 0 && (*gamma = atof(s->colorspace + 5)) > 0)
        return TRANSFER_GAMMA;
    return TRANSFER_SRGB;
}

/* Kodak's Cineon printing-density log: code values 95 (black) to 685 (white) of 1023, 0.002
 * density a code, negative gamma 0.6; black maps to 0, reference white to 1. */
static float cineon_to_linear(float v)
{
    static float black = 0.0f;
    if (black == 0.0f)
        black = powf(10.0f, (95.0f - 685.0f) * 0.002f / 0.6f);
    float l = powf(10.0f, (v * 1023.0f - 685.0f) * 0.002f / 0.6f);
    return (l - black) / (1.0f - black);
}

/* The first NCH channels, read packed into P, spread to R, G, B, A in place from the last
 * pixel back (grey: R=G=B; no alpha: 1), then the transfer decoded on R, G, B (integer
 * samples of BITS bits through a table). */
static void finish_pixels(float *p, size_t n, int nch, transfer t, double gamma, int bits)
{
    int k = nch < 4 ? nch : 4;
    for (size_t i = n; k < 4 && i-- > 0;) {
        const float *s = p + (size_t)k * i;
        float v[4] = {s[0], k >= 2 ? s[1] : 1.0f, k >= 3 ? s[2] : 1.0f, 1.0f};
        if (k <= 2)
            v[3] = v[1], v[1] = v[2] = v[0];
        memcpy(p + 4 * i, v, sizeof v);
    }
    if (t == TRANSFER_SRGB || t == TRANSFER_GAMMA) {
        image_linearise(p, n, t == TRANSFER_SRGB ? IMAGE_TRANSFER_SRGB : IMAGE_TRANSFER_GAMMA,
                        (float)(1.0 / gamma), bits);
        return;
    }
    for (size_t i = 0; t == TRANSFER_CINEON && i < n; i++)
        for (int c = 0; c < 3; c++)
            p[4 * i + c] = cineon_to_linear(p[4 * i + c]);
}

/* libraw's own linear output: OpenImageIO 2.4 multiplies a linear camera picture by its
 * "raw:camera_to_scene_linear_scale" (1/0.45) even when asked not to; divided out here, so
 * that a DNG equals dcraw_emu's output (test_formats_encoders). */
static void raw_unscale(hdr_image *img)
{
    double k = 0;
    for (int i = 0; i < img->meta_count; i++)
        if (strcmp(img->meta[i].key, "raw:camera_to_scene_linear_scale") == 0)
            k = atof(img->meta[i].value);
    size_t n = (size_t)img->width * img->height;
    for (size_t i = 0; k > 0 && i < n; i++)
        for (int c = 0; c < 3; c++)
            img->rgba[4 * i + c] = (float)(img->rgba[4 * i + c] / k);
}

bool image_icc_apply(hdr_image *img, bool grey, const char *path, char *err, size_t errlen)
{
    size_t n = (size_t)img->width * img->height;
    float *in = img->rgba;
    if (grey && icc_profile_is_grey(img->icc, img->icc_size)) {
        if (!(in = malloc(n * sizeof *in))) { /* lcms2 reads one value a pixel */
            snprintf(err, errlen, "%s: out of memory for the ICC conversion", path);
            return false;
        }
        for (size_t i = 0; i < n; i++)
            in[i] = img->rgba[4 * i];
    }
    icc_pixels px = {in, ICC_F32, in == img->rgba ? 4 : 1, n, img->rgba, 4};
    bool ok = icc_to_linear(img->icc, img->icc_size, &px, &img->colour, path, err, errlen);
    if (in != img->rgba)
        free(in);
    return ok;
}

static void add_attribute(void *img, const char *name, const char *value)
{
    image_meta_add(img, name, value);
}

/* The page asked for: "N" (the parts of a multi-page file are its pages). */
static bool page_of(const char *path, const image_load_options *opts, int *page, char *err,
                    size_t errlen)
{
    char *end = NULL;
    long v = opts->part && opts->part[0] ? strtol(opts->part, &end, 10) : 0;
    if ((end && *end) || v < 0 || v > 4095) {
        snprintf(err, errlen, "%s: no part '%s' (the pages of this file are numbered from 0)",
                 path, opts->part);
        return false;
    }
    if (opts->layer && opts->layer[0]) {
        snprintf(err, errlen, "%s: no layer '%s' (the file has R,G,B only)", path, opts->layer);
        return false;
    }
    *page = (int)v;
    return true;
}

/* Fills IMG's description from the opened file. */
static void describe(hdr_image *img, const image_format *fmt, const oiio_spec *s, oiio_file *f,
                     int page)
{
    img->width = s->width;
    img->height = s->height;
    img->data_window[0] = s->x;
    img->data_window[1] = s->y;
    img->data_window[2] = s->x + s->width - 1;
    img->data_window[3] = s->y + s->height - 1;
    bool full = s->full_width > 0 && s->full_height > 0;
    img->display_window[0] = full ? s->full_x : s->x;
    img->display_window[1] = full ? s->full_y : s->y;
    img->display_window[2] = full ? s->full_x + s->full_width - 1 : img->data_window[2];
    img->display_window[3] = full ? s->full_y + s->full_height - 1 : img->data_window[3];
    img->part = page;
    img->part_count = s->subimages;
    snprintf(img->format, sizeof img->format, "%s", fmt->name);
    snprintf(img->channels, sizeof img->channels, "%s", s->channels);
    snprintf(img->compression, sizeof img->compression, "%s", s->compression);
    snprintf(img->decoder, sizeof img->decoder, "OpenImageIO");
    snprintf(img->rgb_source, sizeof img->rgb_source, "%s",
             strcmp(fmt->plugin, "raw") == 0 ? "camera RGB, white-balanced, camera matrix to "
                                               "linear Rec. 709 (libraw)"
             : s->nchannels <= 2            ? "grey (R=G=B)"
                                            : "the first three channels");
    oiio_each_attribute(f, add_attribute, img);
}

/* WebP's ICCP chunk, or NULL (OpenImageIO 2.4's WebP reader does not hand the profile over). */
static const uint8_t *webp_icc(const uint8_t *d, size_t size, size_t *n)
{
    for (size_t i = 12; size >= 8 && i <= size - 8;) {
        size_t len = le32(d + i + 4);
        if (len > size - i - 8)
            return NULL;
        if (memcmp(d + i, "ICCP", 4) == 0)
            return *n = len, d + i + 8;
        i += 8 + len + (len & 1);
    }
    return NULL;
}

/* IMG's copy of the file's ICC profile, if it has one, and its metadata entries. */
static void keep_icc(hdr_image *img, oiio_file *f, int format, const uint8_t *d, size_t size)
{
    size_t n = 0;
    const uint8_t *icc = oiio_icc_profile(f, &n);
    if (!icc && format == IMAGE_FORMAT_WEBP)
        icc = webp_icc(d, size, &n);
    if (icc && n > 0 && (img->icc = malloc(n))) {
        memcpy(img->icc, icc, n);
        img->icc_size = n;
        image_meta_icc(img, icc, n);
    }
}

bool image_load_oiio(const char *path, const uint8_t *data, size_t size, int format,
                     const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    const image_format *fmt = image_format_get(format);
    int page = 0;
    if (!page_of(path, opts, &page, err, errlen) ||
        !check_early(path, format, data, size, opts, err, errlen))
        return false;
    oiio_spec s;
    char why[HT_ERR_MAX];
    oiio_file *f = oiio_open(data, size, fmt->plugin, page, &s, why, sizeof why);
    if (!f && format == IMAGE_FORMAT_RAW && image_format_raw_by_guess(data, size)) {
        format = IMAGE_FORMAT_TIFF; /* a TIFF with a camera's tags that libraw does not know */
        fmt = image_format_get(format);
        f = oiio_open(data, size, fmt->plugin, page, &s, why, sizeof why);
    }
    if (!f) {
        snprintf(err, errlen, "%s: cannot read this %s file: %s", path, fmt->name, why);
        return false;
    }
    bool ok = false;
    if (s.width <= 0 || s.height <= 0 || s.width > IMAGE_MAX_SIDE ||
        s.height > IMAGE_MAX_SIDE || s.nchannels < 1) {
        snprintf(err, errlen, "%s: %s file declares an unusable size (%d x %d, %d channels)",
                 path, fmt->name, s.width, s.height, s.nchannels);
    } else if (image_check_pixels(path, (uint64_t)s.width, (uint64_t)s.height, opts, err,
                                  errlen)) {
        /* The buffer is zeroed first: a reader that leaves rows unwritten must not show the
         * pool's stale memory (fuzz_formats found OpenImageIO's HEIF reader doing it; HEIF is
         * heif_read.c's now). Not for TIFF, measured (BENCHMARKS.md): libtiff fails a strip
         * it cannot read, and the recorded error fails the load. */
        size_t n = (size_t)s.width * (size_t)s.height;
        img->rgba = image_pool_get(n * 4 * sizeof(float));
        if (!img->rgba)
            snprintf(err, errlen, "%s: out of memory for %zu pixels", path, n);
        else if ((format != IMAGE_FORMAT_TIFF && !memset(img->rgba, 0, n * 4 * sizeof(float)))
                 || !oiio_read_rgba(f, img->rgba, opts->threads, why, sizeof why))
            snprintf(err, errlen, "%s: %s file is damaged or truncated: %s", path, fmt->name,
                     why);
        else
            ok = true;
        if (ok) {
            double gamma = 1.0;
            describe(img, fmt, &s, f, page);
            keep_icc(img, f, format, data, size);
            /* An embedded profile rules the values (libraw's output is linear already). */
            bool icc = img->icc && format != IMAGE_FORMAT_RAW;
            finish_pixels(img->rgba, n, s.nchannels,
                          icc ? TRANSFER_LINEAR : transfer_of(format, &s, &gamma), gamma,
                          s.is_float ? 0 : s.type_bits);
            if (icc)
                ok = image_icc_apply(img, s.nchannels <= 2, path, err, errlen);
            if (format == IMAGE_FORMAT_RAW)
                raw_unscale(img);
        }
    }
    oiio_close(f);
    return ok;
}

bool image_library_floor(const uint8_t *data, size_t size, float *out, size_t nfloats,
                         char *why, size_t wl)
{
    image_format_id id = image_format_sniff(data, size);
    const image_format *fmt = image_format_get(id);
    if (id == IMAGE_FORMAT_JXL)
        return image_jxl_floor(data, size, out, nfloats, why, wl);
    if (!fmt || !fmt->plugin) {
        snprintf(why, wl, "no library floor for this format");
        return false;
    }
    oiio_spec s;
    oiio_file *f = oiio_open(data, size, fmt->plugin, 0, &s, why, wl);
    bool ok = f && (size_t)s.width * s.height * (size_t)s.nchannels <= nfloats &&
              oiio_read_native(f, out, why, wl);
    oiio_close(f);
    return ok;
}
