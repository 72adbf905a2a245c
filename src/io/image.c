/* Loading by content (magic bytes) and the reference statistics. */
#define _POSIX_C_SOURCE 200809L /* pread */
#include "image_internal.h"
#include "image_formats.h"
#include "parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Largest file we read into memory. The biggest image we accept (1<<20 pixels a side, capped
 * at 4 GiB of RGBA floats) compresses to far less than this, so a bigger file is a mistake
 * (or a device such as /dev/zero) rather than a picture. */
#define IMAGE_MAX_FILE_BYTES ((size_t)2 << 30)

/* Files up to this size are read into the reading thread's buffer, which stays for the next
 * one (an 8K PIZ frame is ~75 MB, uncompressed ~400 MB); a larger one gets its own. */
#define IMAGE_KEEP_FILE_BYTES ((size_t)512 << 20)

static const uint8_t EXR_MAGIC[4] = {0x76, 0x2f, 0x31, 0x01};

/* Reads the stream FD (a pipe or a device) until EOF into a malloc'd buffer, grown as it fills
 * up to IMAGE_MAX_FILE_BYTES. Returns it (its length in *SIZE_OUT) or NULL with err filled. */
static uint8_t *read_stream(const char *path, int fd, char *err, size_t errlen, size_t *size_out)
{
    size_t cap = (size_t)1 << 20, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, errlen, "%s: out of memory reading the file", path);
            return NULL;
        }
        if (len == cap) {
            if (cap >= IMAGE_MAX_FILE_BYTES) {
                snprintf(err, errlen, "%s: file is too large (limit %zu bytes)", path,
                         IMAGE_MAX_FILE_BYTES);
                free(buf);
                return NULL;
            }
            cap = cap * 2 > IMAGE_MAX_FILE_BYTES ? IMAGE_MAX_FILE_BYTES : cap * 2;
            uint8_t *nb = realloc(buf, cap);
            if (!nb)
                free(buf);
            buf = nb;
            continue;
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
            free(buf);
            return NULL;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    *size_out = len;
    return buf;
}

/* A file's bytes read in pieces, one a worker (read_piece). */
typedef struct file_read {
    int fd;
    size_t size, piece;
    uint8_t *buf;
    int error;      /* the first piece's errno that failed; -1: the file shrank */
    pthread_mutex_t mu;
} file_read;

/* Reads worker W's piece with pread. */
static void read_piece(void *ctx, int w)
{
    file_read *r = ctx;
    size_t at = (size_t)w * r->piece, end = at + r->piece < r->size ? at + r->piece : r->size;
    int error = 0;
    while (at < end && !error) {
        ssize_t got = pread(r->fd, r->buf + at, end - at, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        error = got < 0 ? errno : got == 0 ? -1 : 0;
        at += got > 0 ? (size_t)got : 0;
    }
    pthread_mutex_lock(&r->mu);
    if (error && !r->error)
        r->error = error;
    pthread_mutex_unlock(&r->mu);
}

/* Pieces of a large file read at once: one thread's copy out of the page cache runs at a
 * fraction of the memory's speed (an uncompressed 4K frame's 50 MB took longer to read than
 * OpenEXR took to decode it on 16 cores: BENCHMARKS.md, "Opening one file"). */
enum { READ_PIECE_MIN = 4 << 20 };

/* Reads the regular file FD of SIZE bytes with pread into BUF (SIZE + 1 bytes; NULL: out of
 * memory), on up to THREADS threads. Returns it, or NULL with err filled (BUF then is the
 * caller's to free). */
static uint8_t *read_regular(const char *path, int fd, size_t size, int threads, uint8_t *buf,
                             char *err, size_t errlen)
{
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory reading the file", path);
        return NULL;
    }
    size_t pieces = size / READ_PIECE_MIN;
    pieces = pieces < 1 ? 1 : pieces > (size_t)threads ? (size_t)threads : pieces;
    file_read r = {fd, size, (size + pieces - 1) / pieces, buf, 0, PTHREAD_MUTEX_INITIALIZER};
    if (pieces > 1)
        parallel_run((int)pieces, read_piece, &r);
    else
        read_piece(&r, 0);
    pthread_mutex_destroy(&r.mu);
    if (r.error) {
        snprintf(err, errlen, "%s: read error: %s", path,
                 r.error > 0 ? strerror(r.error) : "the file shrank while it was read");
        return NULL;
    }
    return buf;
}

int image_load_threads(const image_load_options *opts)
{
    long n = opts && opts->threads > 0 ? opts->threads : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > HT_MAX_LOAD_THREADS ? HT_MAX_LOAD_THREADS : (int)n;
}

uint8_t *image_read_file(const char *path, int threads, size_t *size_out, bool *owned,
                         char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    uint8_t *buf = NULL;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory, not an image file", path);
    } else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > IMAGE_MAX_FILE_BYTES) {
        snprintf(err, errlen, "%s: file is too large (%lld bytes, limit %zu)", path,
                 (long long)st.st_size, IMAGE_MAX_FILE_BYTES);
    } else if (S_ISREG(st.st_mode)) {
        /* Regular files tell their size; pipes and devices are read until EOF, capped. A
         * file larger than a stream's frames gets a buffer of its own, not kept. */
        size_t n = (size_t)st.st_size;
        *owned = n > IMAGE_KEEP_FILE_BYTES;
        *size_out = n;
        uint8_t *mem = *owned ? malloc(n + 1) : image_thread_buffer(n + 1);
        if (!(buf = read_regular(path, fd, n, threads, mem, err, errlen)) && *owned)
            free(mem);
    } else {
        *owned = true;
        buf = read_stream(path, fd, err, errlen, size_out);
    }
    close(fd);
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
    bool owned = false;
    uint8_t *data = image_read_file(path, image_load_threads(opts), &size, &owned, err, errlen);
    if (!data)
        return false;
    bool ok = image_load_memory(path, data, size, opts, img, err, errlen);
    if (owned)
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
    image_format_id fmt;
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
    } else if (image_png_is_hdr(data, size)) {
        ok = single_image_options(path, opts, err, errlen) &&
             image_load_png_hdr(path, data, size, opts, img, err, errlen);
    } else if (image_jpeg_is_uhdr(data, size)) {
        ok = single_image_options(path, opts, err, errlen) &&
             image_load_uhdr(path, data, size, opts, img, err, errlen);
    } else if ((fmt = image_format_sniff(data, size)) == IMAGE_FORMAT_JXL) {
        ok = single_image_options(path, opts, err, errlen) &&
             image_load_jxl(path, data, size, opts, img, err, errlen);
    } else if (fmt == IMAGE_FORMAT_HEIF) {
        ok = single_image_options(path, opts, err, errlen) &&
             image_load_heif(path, data, size, opts, img, err, errlen);
    } else if (fmt == IMAGE_FORMAT_PNG || fmt == IMAGE_FORMAT_JPEG) {
        ok = single_image_options(path, opts, err, errlen) &&
             image_load_sdr(path, data, size, opts, img, err, errlen);
    } else if (fmt != IMAGE_FORMAT_NONE) {
        ok = image_load_oiio(path, data, size, fmt, opts, img, err, errlen);
    } else {
        snprintf(err, errlen,
                 "%s: not an image file hdrtone reads (unrecognised content; hdrtone --formats "
                 "lists them)", path);
        ok = false;
    }
    if (!ok)
        image_free(img);
    else if (opts->half_only && img->half_exact && !img->half)
        image_add_half(img, true); /* a decoder that made floats: the halves from them */
    if (ok && img->part_count == 0) /* formats with one image */
        img->part_count = 1;
    if (ok && !(img->exposure > 0))
        img->exposure = 1.0;
    if (ok && opts->colour.source == IMAGE_COLOUR_OPTION)
        img->colour = opts->colour;
    char why[256];
    if (ok && !image_colour_check(&img->colour, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        image_free(img);
        ok = false;
    }
    return ok;
}

void image_free(hdr_image *img)
{
    if (!img)
        return;
    /* The next frame of a stream takes the same buffers, their pages still mapped. */
    size_t n = img->width > 0 && img->height > 0 ? (size_t)img->width * img->height * 4 : 0;
    image_pool_put(img->rgba, n * sizeof *img->rgba);
    if (img->half && img->half_alloc)
        img->half_alloc->put(img->half_alloc->ctx, img->half);
    else
        image_pool_put(img->half, n * sizeof *img->half);
    free(img->parts);
    for (int i = 0; i < img->meta_count; i++) {
        free(img->meta[i].key);
        free(img->meta[i].value);
    }
    free(img->meta);
    free(img->icc);
    memset(img, 0, sizeof *img);
}

void image_compute_stats(const hdr_image *img, image_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!img || !img->rgba || img->width <= 0 || img->height <= 0)
        return;
    size_t n = (size_t)img->width * (size_t)img->height;
    st->total = n;
    double w[3];
    image_colour_weights(&img->colour, w);
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
        double y = w[0] * (double)p[0] + w[1] * (double)p[1] + w[2] * (double)p[2];
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
    if (!img->half_exact || !img->rgba || img->half ||
        !(img->half = image_pool_get(n * sizeof *img->half)))
        return false;
    image_rgba_to_half(img->rgba, n, img->half);
    if (drop_floats) {
        image_pool_put(img->rgba, n * sizeof *img->rgba);
        img->rgba = NULL;
    }
    return true;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* F16C, 8 values an instruction; a block with a NaN goes through image_half_to_float, which
 * keeps a signalling NaN's payload as it is (F16C would quieten it). */
__attribute__((target("avx,f16c"))) static void from_half_f16c(const uint16_t *h, size_t n,
                                                                float *out)
{
    size_t i = 0;
    const __m128i abs = _mm_set1_epi16(0x7fff), inf = _mm_set1_epi16(0x7c00);
    for (; i + 8 <= n; i += 8) {
        __m128i v = _mm_loadu_si128((const __m128i *)(h + i));
        if (_mm_movemask_epi8(_mm_cmpgt_epi16(_mm_and_si128(v, abs), inf))) {
            for (size_t k = i; k < i + 8; k++)
                out[k] = image_half_to_float(h[k]);
            continue;
        }
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(v));
    }
    for (; i < n; i++)
        out[i] = image_half_to_float(h[i]);
}
#endif

void image_half_to_rgba(const uint16_t *h, size_t n, float *out)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx")) {
        from_half_f16c(h, n, out);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        out[i] = image_half_to_float(h[i]);
}

bool image_add_floats(hdr_image *img)
{
    if (img->rgba)
        return true;
    size_t n = (size_t)img->width * img->height * 4;
    if (!img->half || !n || !(img->rgba = image_pool_get(n * sizeof *img->rgba)))
        return false;
    image_half_to_rgba(img->half, n, img->rgba);
    return true;
}
