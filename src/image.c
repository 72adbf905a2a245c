/* Loading by content (magic bytes) and the reference statistics. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "image.h"

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

bool image_load(const char *path, hdr_image *img, char *err, size_t errlen)
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

    bool ok;
    if (size == 0) {
        snprintf(err, errlen, "%s: file is empty", path);
        ok = false;
    } else if (size >= 4 && memcmp(data, EXR_MAGIC, 4) == 0) {
        ok = image_load_exr(path, data, size, img, err, errlen);
    } else if (size >= 2 && data[0] == '#' && data[1] == '?') {
        /* "#?RADIANCE" and "#?RGBE" are the usual, but Radiance itself only checks "#?". */
        ok = image_load_hdr(path, data, size, img, err, errlen);
    } else if (size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0) {
        snprintf(err, errlen, "%s: is a PNG file, not an HDR image (OpenEXR or Radiance .hdr)",
                 path);
        ok = false;
    } else {
        snprintf(err, errlen,
                 "%s: not an OpenEXR or Radiance .hdr file (unrecognised content)", path);
        ok = false;
    }
    free(data);
    if (!ok)
        image_free(img);
    return ok;
}

void image_free(hdr_image *img)
{
    if (!img)
        return;
    free(img->rgba);
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
