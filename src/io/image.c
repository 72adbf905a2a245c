/* Loading by content (magic bytes) and the reference statistics. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "image_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest file we read into memory. The biggest image we accept (1<<20 pixels a side, capped
 * at 4 GiB of RGBA floats) compresses to far less than this, so a bigger file is a mistake
 * (or a device such as /dev/zero) rather than a picture. */
#define IMAGE_MAX_FILE_BYTES ((size_t)2 << 30)

static const uint8_t EXR_MAGIC[4] = {0x76, 0x2f, 0x31, 0x01};

/* Reads the whole of PATH into a malloc'd buffer. Returns NULL with err filled on failure. */
static uint8_t *read_whole_file(const char *path, size_t *size_out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory, not an image file", path);
        fclose(f);
        return NULL;
    }
    /* Regular files tell their size; pipes and devices are read until EOF, still capped. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : (size_t)1 << 20;
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > IMAGE_MAX_FILE_BYTES) {
        snprintf(err, errlen, "%s: file is too large (%lld bytes, limit %zu)", path,
                 (long long)st.st_size, IMAGE_MAX_FILE_BYTES);
        fclose(f);
        return NULL;
    }
    uint8_t *buf = malloc(cap);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory reading the file", path);
        fclose(f);
        return NULL;
    }
    size_t len = 0;
    for (;;) {
        if (len == cap) {
            if (cap >= IMAGE_MAX_FILE_BYTES) {
                snprintf(err, errlen, "%s: file is too large (limit %zu bytes)", path,
                         IMAGE_MAX_FILE_BYTES);
                free(buf);
                fclose(f);
                return NULL;
            }
            size_t ncap = cap * 2 > IMAGE_MAX_FILE_BYTES ? IMAGE_MAX_FILE_BYTES : cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                snprintf(err, errlen, "%s: out of memory reading the file", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
                free(buf);
                fclose(f);
                return NULL;
            }
            break;
        }
    }
    fclose(f);
    *size_out = len;
    return buf;
}

const image_load_options image_load_defaults = {0};

uint64_t image_max_pixels(const image_load_options *opts)
{
    return opts && opts->max_pixels ? opts->max_pixels : HT_DEFAULT_MAX_PIXELS;
}

bool image_check_pixels(const char *path, uint64_t w, uint64_t h, const image_load_options *opts,
                        char *err, size_t errlen)
{
    uint64_t limit = image_max_pixels(opts);
    /* w, h < 2^32 each (checked by the loaders), so the product does not overflow. */
    if (w * h > limit) {
        snprintf(err, errlen, "%s: image is %llu x %llu = %llu pixels, more than the limit of "
                              "%llu pixels (--max-pixels)",
                 path, (unsigned long long)w, (unsigned long long)h,
                 (unsigned long long)(w * h), (unsigned long long)limit);
        return false;
    }
    return true;
}

void image_get_pixel(const hdr_image *img, size_t k, float rgba[4])
{
    for (int c = 0; c < 4; c++)
        rgba[c] = img->rgba   ? img->rgba[4 * k + c]
                  : img->half ? image_half_to_float(img->half[4 * k + c])
                              : 0.0f;
}

float image_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 0) {
        float v = ldexpf((float)m, -24); /* zero or subnormal, exact */
        return sign ? -v : v;
    }
    if (e == 31)
        x = sign | 0x7f800000u | (m << 13);
    else
        x = sign | ((e + 112) << 23) | (m << 13);
    float f;
    memcpy(&f, &x, 4);
    return f;
}

uint16_t image_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (e == 0xff) /* Inf stays Inf; NaN stays a (quiet) NaN */
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
    int he = (int)e - 127 + 15;
    if (he <= 0) { /* half subnormal or zero: round to nearest even */
        if (he < -10)
            return (uint16_t)sign;
        uint32_t mm = m | 0x800000u;
        int shift = 14 - he;
        uint32_t hm = mm >> shift, rem = mm & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (hm & 1)))
            hm++;
        return (uint16_t)(sign | hm);
    }
    uint32_t hv = ((uint32_t)he << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (hv & 1)))
        hv++;
    if (hv >= 0x7c00u)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | hv);
}

bool image_load(const char *path, const image_load_options *opts, hdr_image *img, char *err,
                size_t errlen)
{
    memset(img, 0, sizeof *img);
    if (errlen)
        err[0] = '\0';
    if (!path || !*path) {
        snprintf(err, errlen, "(no path): no image file given");
        return false;
    }
    size_t size = 0;
    uint8_t *data = read_whole_file(path, &size, err, errlen);
    if (!data)
        return false;
    bool ok = image_load_memory(path, data, size, opts, img, err, errlen);
    free(data);
    return ok;
}

/* Radiance and PFM files hold one image with plain R,G,B: a part other than the first, or a
 * layer, is an error as it is for a single-part OpenEXR file, not silently ignored. */
static bool single_image_options(const char *path, const image_load_options *opts, char *err,
                                 size_t errlen)
{
    if (opts->part && opts->part[0] && strcmp(opts->part, "0") != 0) {
        snprintf(err, errlen, "%s: no part '%s' (the file holds one image)", path, opts->part);
        return false;
    }
    if (opts->layer && opts->layer[0]) {
        snprintf(err, errlen, "%s: no layer '%s' (the file has R,G,B only)", path, opts->layer);
        return false;
    }
    return true;
}

bool image_load_memory(const char *path, const uint8_t *data, size_t size,
                       const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    if (!opts)
        opts = &image_load_defaults;
    if (errlen)
        err[0] = '\0';
    bool ok;
    if (size == 0) {
        snprintf(err, errlen, "%s: file is empty", path);
        ok = false;
    } else if (size >= 4 && memcmp(data, EXR_MAGIC, 4) == 0) {
        ok = image_load_exr(path, data, size, opts, img, err, errlen);
    } else if (size >= 2 && data[0] == '#' && data[1] == '?') {
        /* "#?RADIANCE" and "#?RGBE" are the usual, but Radiance itself only checks "#?". */
        ok = single_image_options(path, opts, err, errlen) &&
             image_load_hdr(path, data, size, opts, img, err, errlen);
    } else if (size >= 3 && data[0] == 'P' && (data[1] == 'F' || data[1] == 'f') &&
               (data[2] == '\n' || data[2] == '\r' || data[2] == ' ' || data[2] == '\t')) {
        ok = single_image_options(path, opts, err, errlen) &&
             image_load_pfm(path, data, size, opts, img, err, errlen);
    } else if (size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0) {
        snprintf(err, errlen, "%s: is a PNG file, not an HDR image (OpenEXR, Radiance .hdr or "
                              "PFM)", path);
        ok = false;
    } else {
        snprintf(err, errlen,
                 "%s: not an OpenEXR, Radiance .hdr or PFM file (unrecognised content)", path);
        ok = false;
    }
    if (!ok)
        image_free(img);
    else if (img->part_count == 0) /* formats with one image */
        img->part_count = 1;
    if (ok && !(img->exposure > 0))
        img->exposure = 1.0;
    return ok;
}

void image_free(hdr_image *img)
{
    if (!img)
        return;
    free(img->rgba);
    free(img->half);
    free(img->parts);
    memset(img, 0, sizeof *img);
}

void image_compute_stats(const hdr_image *img, image_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!img || !img->rgba || img->width <= 0 || img->height <= 0)
        return;
    size_t n = (size_t)img->width * (size_t)img->height;
    st->total = n;
    double sum = 0.0, log_sum = 0.0;
    double ymin = INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        const float *p = img->rgba + i * 4;
        bool finite = true;
        for (int c = 0; c < 3; c++) {
            float v = p[c];
            if (isnan(v)) {
                st->nan++;
                finite = false;
            } else if (isinf(v)) {
                st->inf++;
                finite = false;
            } else if (v < 0.0f) { /* -0.0 compares equal to 0: not negative */
                st->negative++;
            }
        }
        if (!finite)
            continue;
        st->finite++;
        double y = 0.2126 * (double)p[0] + 0.7152 * (double)p[1] + 0.0722 * (double)p[2];
        if (!(y > 0.0))
            continue;
        st->positive++;
        sum += y;
        log_sum += log(y);
        if (y < ymin)
            ymin = y;
        if (y > ymax)
            ymax = y;
    }
    if (st->positive) {
        st->y_min = ymin;
        st->y_max = ymax;
        st->y_mean = sum / (double)st->positive;
        st->y_log_average = exp(log_sum / (double)st->positive);
    }
}

#ifdef HT_HAVE_F16C
#include <immintrin.h>
/* The CPU's own conversion (F16C), 8 values an instruction, rounding to nearest even with the
 * same results as image_float_to_half (NaN payloads and signs included; tests/unit/test_half.c). */
__attribute__((target("avx,f16c"))) static void to_half_f16c(const float *v, size_t n,
                                                              uint16_t *out)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(out + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(v + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; i++)
        out[i] = image_float_to_half(v[i]);
}
#endif

bool image_half_f16c(void)
{
#ifdef HT_HAVE_F16C
    return __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
#else
    return false;
#endif
}

void image_rgba_to_half(const float *v, size_t n, uint16_t *out)
{
#ifdef HT_HAVE_F16C
    if (image_half_f16c()) {
        to_half_f16c(v, n, out);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        out[i] = image_float_to_half(v[i]);
}

bool image_add_half(hdr_image *img, bool drop_floats)
{
    size_t n = (size_t)img->width * img->height * 4;
    if (!img->half_exact || !img->rgba || img->half || !(img->half = malloc(n * sizeof *img->half)))
        return false;
    image_rgba_to_half(img->rgba, n, img->half);
    if (drop_floats) {
        free(img->rgba);
        img->rgba = NULL;
    }
    return true;
}
