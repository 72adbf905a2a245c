/* FLIP's pooled values. The weighted percentiles are the tool's (the first value of the
 * sorted errors at which their running sum exceeds the fraction of the total), found without
 * sorting the image: a fine histogram with each bin's sum finds the bin where the running sum
 * crosses, and only that bin's values are sorted. */
#include "flip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FINE_BINS = FLIP_FINE_BINS };

int flip_hist_bucket(float value)
{
    /* The tool's bucket width is the float 1/100; a value of exactly 1 joins the last. */
    const float width = 1.0f / FLIP_HIST_BINS;
    if (!(value >= 0.0f && value <= 1.0f))
        return -1;
    int b = (int)((double)value / (double)width);
    return b >= FLIP_HIST_BINS ? FLIP_HIST_BINS - 1 : b;
}

static void weighted_hist(flip_pooled *out);

static int fine_bin(float v)
{
    int b = (int)(v * (float)FINE_BINS);
    return b < 0 ? 0 : b >= FINE_BINS ? FINE_BINS - 1 : b;
}

typedef struct pool_state {
    const float *map;
    int w;
    flip_rect r;
    uint32_t *count;
    double *sum;
} pool_state;

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The tool's weighted percentile FRAC of the rectangle, TOTAL the sum of its values. */
static double weighted_percentile(const pool_state *s, double frac, double total, bool *oom)
{
    double target = frac * total, cum = 0;
    if (!(total > 0))
        return 0.0;   /* no running sum exceeds 0: the tool reports 0 */
    for (int b = 0; b < FINE_BINS; b++) {
        if (!s->count[b] || cum + s->sum[b] <= target) {
            cum += s->sum[b];
            continue;
        }
        float *v = malloc(s->count[b] * sizeof *v);
        if (!v) {
            *oom = true;
            return 0.0;
        }
        size_t n = 0;
        for (int y = s->r.y; y < s->r.y + s->r.h; y++)
            for (int x = s->r.x; x < s->r.x + s->r.w; x++) {
                float e = s->map[(size_t)y * s->w + x];
                if (fine_bin(e) == b)
                    v[n++] = e;
            }
        qsort(v, n, sizeof *v, cmp_float);
        for (size_t i = 0; i < n; i++) {
            cum += v[i];
            if (cum > target) {
                double r = v[i];
                free(v);
                return r;
            }
        }
        free(v);   /* rounding put the crossing just past this bin: the next value */
    }
    return 0.0;
}

static bool clip_rect(int w, int h, const flip_rect *in, flip_rect *r)
{
    *r = in && in->w > 0 && in->h > 0 ? *in : (flip_rect){0, 0, w, h};
    int x1 = r->x + r->w, y1 = r->y + r->h;
    r->x = r->x < 0 ? 0 : r->x;
    r->y = r->y < 0 ? 0 : r->y;
    x1 = x1 > w ? w : x1;
    y1 = y1 > h ? h : y1;
    r->w = x1 - r->x;
    r->h = y1 - r->y;
    return r->w > 0 && r->h > 0;
}

bool flip_pool(const float *map, int w, int h, const flip_rect *rect, flip_pooled *out,
               char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    pool_state s = {.map = map, .w = w};
    if (!clip_rect(w, h, rect, &s.r)) {
        snprintf(err, errlen, "the rectangle holds no pixel of the %dx%d image", w, h);
        return false;
    }
    s.count = calloc(FINE_BINS, sizeof *s.count);
    s.sum = calloc(FINE_BINS, sizeof *s.sum);
    if (!s.count || !s.sum) {
        free(s.count);
        free(s.sum);
        snprintf(err, errlen, "out of memory pooling the FLIP map");
        return false;
    }
    double total = 0, mn = 1e30, mx = -1e30;
    for (int y = s.r.y; y < s.r.y + s.r.h; y++)
        for (int x = s.r.x; x < s.r.x + s.r.w; x++) {
            float e = map[(size_t)y * w + x];
            int b = fine_bin(e), hb = flip_hist_bucket(e);
            s.count[b]++;
            s.sum[b] += e;
            total += e;
            mn = e < mn ? e : mn;
            mx = e > mx ? e : mx;
            if (hb >= 0)
                out->hist[hb]++;
        }
    out->count = (uint64_t)s.r.w * (uint64_t)s.r.h;
    out->mean = total / (double)out->count;
    out->min = mn;
    out->max = mx;
    bool oom = false;
    out->q1 = weighted_percentile(&s, 0.25, total, &oom);
    out->weighted_median = weighted_percentile(&s, 0.5, total, &oom);
    out->q3 = weighted_percentile(&s, 0.75, total, &oom);
    weighted_hist(out);
    free(s.count);
    free(s.sum);
    if (oom)
        snprintf(err, errlen, "out of memory pooling the FLIP map");
    return !oom;
}

/* The value at which the running weight of FINE crosses FRAC of TOTAL. */
static double interpolated_percentile(const uint32_t *fine, double frac, double total)
{
    double target = frac * total, cum = 0;
    for (int b = 0; b < FINE_BINS; b++) {
        double wb = fine[b] * ((b + 0.5) / FINE_BINS);
        if (wb > 0 && cum + wb > target)
            return (b + (target - cum) / wb) / FINE_BINS;
        cum += wb;
    }
    return 0.0;
}

static void weighted_hist(flip_pooled *out)
{
    double mpix = (double)out->count / (1024.0 * 1024.0);
    for (int i = 0; i < FLIP_HIST_BINS; i++)
        out->weighted_hist[i] = (double)out->hist[i] * ((i + 0.5) / FLIP_HIST_BINS) / mpix;
}

void flip_pool_from_counts(const uint32_t *fine, const uint32_t *hist, double sum, double min,
                           double max, uint64_t count, flip_pooled *out)
{
    memset(out, 0, sizeof *out);
    out->count = count;
    out->mean = count ? sum / (double)count : 0.0;
    out->min = min;
    out->max = max;
    double total = 0;
    for (int b = 0; b < FINE_BINS; b++)
        total += fine[b] * ((b + 0.5) / FINE_BINS);
    out->q1 = interpolated_percentile(fine, 0.25, total);
    out->weighted_median = interpolated_percentile(fine, 0.5, total);
    out->q3 = interpolated_percentile(fine, 0.75, total);
    for (int i = 0; i < FLIP_HIST_BINS; i++)
        out->hist[i] = hist[i];
    if (count)
        weighted_hist(out);
}
