#include "region.h"

#include "colour.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_shared.h"

/* The corners in order (top left first); false with the reason in err. */
static bool corners_ordered(const int rect[4], char *err, size_t errlen)
{
    if (rect[0] <= rect[2] && rect[1] <= rect[3])
        return true;
    snprintf(err, errlen, "--region %d,%d,%d,%d: X0 > X1 or Y0 > Y1 (corners inclusive, "
                          "top left first)", rect[0], rect[1], rect[2], rect[3]);
    return false;
}

/* N integers within +-2^30 separated by commas, S whole, into OUT. */
static bool parse_ints(const char *s, int *out, int n)
{
    const char *p = s;
    for (int k = 0; k < n; k++) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || v < -(1L << 30) || v > (1L << 30) ||
            *end != (k < n - 1 ? ',' : '\0'))
            return false;
        out[k] = (int)v;
        p = end + 1;
    }
    return true;
}

bool region_parse(const char *s, int rect[4], char *err, size_t errlen)
{
    if (!parse_ints(s, rect, 4)) {
        snprintf(err, errlen, "--region: '%s' is not X0,Y0,X1,Y1 (four integers)", s);
        return false;
    }
    return corners_ordered(rect, err, errlen);
}

bool region_pixel(const char *s, const hdr_image *img, int xy[2], char *err, size_t errlen)
{
    if (!parse_ints(s, xy, 2)) {
        snprintf(err, errlen, "--pixel: '%s' is not X,Y (two integers)", s);
        return false;
    }
    if (img && (xy[0] < 0 || xy[1] < 0 || xy[0] >= img->width || xy[1] >= img->height)) {
        snprintf(err, errlen, "--pixel %d,%d: outside the data window's %dx%d pixels", xy[0],
                 xy[1], img->width, img->height);
        return false;
    }
    return true;
}

bool region_check(const hdr_image *img, const int rect[4], char *err, size_t errlen)
{
    int w = img->width, h = img->height;
    if (!corners_ordered(rect, err, errlen))
        return false;
    if (rect[0] < 0 || rect[1] < 0 || rect[2] >= w || rect[3] >= h) {
        snprintf(err, errlen, "--region %d,%d,%d,%d: outside the data window's %dx%d pixels "
                              "(0,0)-(%d,%d)", rect[0], rect[1], rect[2], rect[3], w, h,
                 w - 1, h - 1);
        return false;
    }
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* min, max, mean, median (the mean of the middle two of an even count) and log-average of
 * the N values V (sorted here). */
static void summarize(double *v, size_t n, region_lum *out)
{
    if (n == 0) {
        out->min = out->max = out->mean = out->median = out->log_average = NAN;
        return;
    }
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0, lsum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        lsum += log(v[i]);
    }
    out->min = v[0];
    out->max = v[n - 1];
    out->mean = sum / (double)n;
    out->median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    out->log_average = exp(lsum / (double)n);
}

/* The histogram of ln V (N values > 0, sorted: V[0] the smallest) into ST. */
static void histogram(const double *v, size_t n, region_stats *st)
{
    memset(st->hist, 0, sizeof st->hist);
    st->ln_min = n ? log(v[0]) : NAN;
    st->ln_max = n ? log(v[n - 1]) : NAN;
    double span = st->ln_max - st->ln_min;
    for (size_t i = 0; i < n; i++) {
        int b = span > 0 ? (int)((log(v[i]) - st->ln_min) / span * REGION_BINS) : 0;
        st->hist[b < 0 ? 0 : b >= REGION_BINS ? REGION_BINS - 1 : b]++;
    }
}

bool region_compute(const hdr_image *img, const int rect[4], const double weights[3],
                    double scale, region_stats *st, char *err, size_t errlen)
{
    double yw[3];   /* the Y row of the file's own primaries */
    image_colour_weights(&img->colour, yw);
    memset(st, 0, sizeof *st);
    if (!region_check(img, rect, err, errlen))
        return false;
    memcpy(st->rect, rect, sizeof st->rect);
    size_t w = (size_t)(rect[2] - rect[0] + 1), h = (size_t)(rect[3] - rect[1] + 1);
    st->pixels = (uint64_t)w * h;
    double *yf = malloc(w * h * sizeof *yf), *yc = malloc(w * h * sizeof *yc);
    if (!yf || !yc) {
        free(yf);
        free(yc);
        snprintf(err, errlen, "--region: out of memory (%zux%zu pixels)", w, h);
        return false;
    }
    size_t nf = 0, nc = 0;
    for (int y = rect[1]; y <= rect[3]; y++)
        for (int x = rect[0]; x <= rect[2]; x++) {
            float p[4];
            image_get_pixel(img, (size_t)y * img->width + x, p);
            if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
                continue;
            double f = yw[0] * p[0] + yw[1] * p[1] + yw[2] * p[2];
            double c = scale * (weights[0] * p[0] + weights[1] * p[1] + weights[2] * p[2]);
            if (f > 0)
                yf[nf++] = f;
            if (c > 0 && isfinite(c))
                yc[nc++] = c;
        }
    st->counted = nf;
    summarize(yf, nf, &st->file);
    summarize(yc, nc, &st->cd_m2);
    histogram(yc, nc, st);
    free(yf);
    free(yc);
    return true;
}
