/* The CPU reference of the image statistics, and the pieces the GPU path finishes with
 * (imgstats.h, docs/statistics.md). */
#include "imgstats.h"

#include "colour.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void imgstats_free(imgstats *s)
{
    free(s->peaks);
    memset(s, 0, sizeof *s);
}

void imgstats_weights(const hdr_image *img, double w[3])
{
    image_colour_weights(&img->colour, w);
}

double imgstats_luminance(const double w[3], const float *rgb)
{
    return w[0] * rgb[0] + w[1] * rgb[1] + w[2] * rgb[2];
}

/* One expression, evaluated left to right like the GLSL one ('precise' there). The build is
 * ISO C11 (-std=c11), where GCC does not contract a*b+c into a fused multiply-add. */
float imgstats_luminance_f(const double w[3], const float *rgb)
{
    return (float)w[0] * rgb[0] + (float)w[1] * rgb[1] + (float)w[2] * rgb[2];
}

static bool rgb_finite(const float *p)
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

void imgstats_pixel_at(const hdr_image *img, size_t index, imgstats_pixel *px)
{
    float p[4];   /* from the floats, or the half floats (a sequence's frame in the viewer) */
    image_get_pixel(img, index, p);
    px->valid = true;
    px->x = (int)(index % (size_t)img->width);
    px->y = (int)(index / (size_t)img->width);
    px->abs_x = px->x + img->data_window[0];
    px->abs_y = px->y + img->data_window[1];
    double w[3];
    imgstats_weights(img, w);
    px->luminance = imgstats_luminance(w, p);
    memcpy(px->rgb, p, sizeof px->rgb);
}

void imgstats_extrema_scan(const hdr_image *img, int x0, int y0, int x1, int y1, bool bright,
                           bool dark, imgstats_extrema_acc *a)
{
    double w[3];
    imgstats_weights(img, w);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            int64_t idx = (int64_t)y * img->width + x;
            float p[4];
            image_get_pixel(img, (size_t)idx, p);
            if (!rgb_finite(p))
                continue;
            double l = imgstats_luminance(w, p);
            if (!(l > 0.0))
                continue;
            if (bright && (a->bright < 0 || l > a->bright_y || (l == a->bright_y && idx < a->bright))) {
                a->bright = idx;
                a->bright_y = l;
            }
            if (dark && (a->dark < 0 || l < a->dark_y || (l == a->dark_y && idx < a->dark))) {
                a->dark = idx;
                a->dark_y = l;
            }
        }
}

/* --- Peaks --- */

static bool peak_before(const ht_peak *a, const ht_peak *b)
{
    return a->y > b->y || (a->y == b->y && a->idx < b->idx);
}

/* Max-heap by peak_before: the greedy choice usually stops after a few pops, so building a
 * heap (O(n)) beats sorting every local maximum of a noisy image. */
static void sift_down(ht_peak *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, best = i;
        if (l < n && peak_before(&h[l], &h[best]))
            best = l;
        if (l + 1 < n && peak_before(&h[l + 1], &h[best]))
            best = l + 1;
        if (best == i)
            return;
        ht_peak t = h[i];
        h[i] = h[best];
        h[best] = t;
        i = best;
    }
}

int imgstats_select_peaks(ht_peak *cand, size_t n, int width, int height, int k,
                          int min_distance, uint32_t *out)
{
    if (k <= 0 || n == 0)
        return 0;
    for (size_t i = n / 2; i-- > 0;)
        sift_down(cand, n, i);
    /* The peaks taken, in a grid of square cells at least min_distance wide: a peak closer
     * than min_distance lies in one of the 3x3 cells around. Cells grow until there are at
     * most max(65536, 4k) of them. min_distance <= 1 suppresses nothing. */
    int64_t d2 = (int64_t)min_distance * min_distance;
    int cell = min_distance > 1 ? min_distance : 0;
    size_t gw = 0, gh = 0, cells_max = 4 * (size_t)k > 65536 ? 4 * (size_t)k : 65536;
    int *head = NULL, *next = NULL;
    if (cell) {
        for (;;) {
            gw = ((size_t)width + cell - 1) / cell;
            gh = ((size_t)height + cell - 1) / cell;
            if (gw * gh <= cells_max)
                break;
            cell *= 2;
        }
        head = malloc(gw * gh * sizeof *head);
        next = malloc((size_t)k * sizeof *next);
        if (!head || !next) {
            free(head);
            free(next);
            return -1;
        }
        for (size_t i = 0; i < gw * gh; i++)
            head[i] = -1;
    }
    int taken = 0;
    size_t m = n;
    while (taken < k && m > 0) {
        ht_peak top = cand[0];
        cand[0] = cand[--m];
        sift_down(cand, m, 0);
        int64_t x = top.idx % (uint32_t)width, y = top.idx / (uint32_t)width;
        bool suppressed = false;
        if (cell) {
            int64_t cx = x / cell, cy = y / cell;
            for (int64_t j = cy - 1; j <= cy + 1 && !suppressed; j++)
                for (int64_t i = cx - 1; i <= cx + 1 && !suppressed; i++) {
                    if (i < 0 || j < 0 || i >= (int64_t)gw || j >= (int64_t)gh)
                        continue;
                    for (int q = head[j * (int64_t)gw + i]; q >= 0 && !suppressed; q = next[q]) {
                        int64_t dx = (int64_t)(out[q] % (uint32_t)width) - x;
                        int64_t dy = (int64_t)(out[q] / (uint32_t)width) - y;
                        suppressed = dx * dx + dy * dy < d2;
                    }
                }
            if (!suppressed) {
                int64_t c = cy * (int64_t)gw + cx;
                next[taken] = head[c];
                head[c] = taken;
            }
        }
        if (!suppressed)
            out[taken++] = top.idx;
    }
    free(head);
    free(next);
    return taken;
}

/* Y_f of pixel (x, y), false when R, G or B or Y_f is not finite (ht_classify's NONFINITE). */
static bool key_at(const hdr_image *img, const double w[3], int x, int y, float *key)
{
    float p[4];
    image_get_pixel(img, (size_t)y * img->width + x, p);
    *key = imgstats_luminance_f(w, p);
    return rgb_finite(p) && isfinite(*key);
}

/* The local maxima (docs/statistics.md): Y_f > 0 and every other counted pixel of the
 * 8-neighbourhood lower, or equal and later in row-major order. */
static size_t local_maxima(const hdr_image *img, ht_peak *cand)
{
    size_t n = 0;
    double w[3];
    imgstats_weights(img, w);
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            float v, q;
            if (!key_at(img, w, x, y, &v) || !(v > 0.0f))
                continue;
            bool is_max = true;
            for (int dy = -1; dy <= 1 && is_max; dy++)
                for (int dx = -1; dx <= 1 && is_max; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= img->width ||
                        ny >= img->height || !key_at(img, w, nx, ny, &q))
                        continue;
                    bool earlier = dy < 0 || (dy == 0 && dx < 0);
                    is_max = q < v || (q == v && !earlier);
                }
            if (is_max)
                cand[n++] = (ht_peak){v, (uint32_t)((size_t)y * img->width + x)};
        }
    return n;
}

bool imgstats_fill_peaks(const hdr_image *img, ht_peak *cand, size_t n, int k, int min_distance,
                         imgstats *out)
{
    out->peaks_asked = k;
    out->n_peaks = 0;
    if (k <= 0)
        return true;
    uint32_t *idx = malloc((size_t)k * sizeof *idx);
    out->peaks = calloc((size_t)k, sizeof *out->peaks);
    int got = idx && out->peaks
                  ? imgstats_select_peaks(cand, n, img->width, img->height, k, min_distance, idx)
                  : -1;
    for (int i = 0; i < got; i++)
        imgstats_pixel_at(img, idx[i], &out->peaks[i]);
    free(idx);
    if (got < 0)
        return false;
    out->n_peaks = got;
    return true;
}

bool imgstats_cpu(const hdr_image *img, const uint8_t *rgb, int peaks, int min_distance,
                  imgstats *out)
{
    memset(out, 0, sizeof *out);
    imgstats_extrema_acc a = IMGSTATS_EXTREMA_ACC_INIT;
    imgstats_extrema_scan(img, 0, 0, img->width, img->height, true, true, &a);
    if (a.bright >= 0)
        imgstats_pixel_at(img, (size_t)a.bright, &out->brightest);
    if (a.dark >= 0)
        imgstats_pixel_at(img, (size_t)a.dark, &out->darkest);

    if (peaks > 0) {
        /* Local maxima are never 8-adjacent, so at most one per 2x2 block. */
        size_t cap = (size_t)((img->width + 1) / 2) * ((img->height + 1) / 2);
        ht_peak *cand = malloc(cap * sizeof *cand);
        bool ok = cand && imgstats_fill_peaks(img, cand, local_maxima(img, cand), peaks,
                                              min_distance, out);
        free(cand);
        if (!ok) {
            imgstats_free(out);
            return false;
        }
    }

    if (rgb) {
        size_t n = (size_t)img->width * img->height;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = rgb + 3 * i;
            for (int c = 0; c < 3; c++)
                out->rgba_hist[c][p[c]]++;
            out->grey_hist[imgstats_grey(p[0], p[1], p[2])]++;
        }
        out->rgba_hist[3][255] = (uint32_t)n; /* the output is opaque */
        out->have_hist = true;
    }
    return true;
}
