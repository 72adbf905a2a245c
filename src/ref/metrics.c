#include "metrics.h"

#include <math.h>
#include <stdio.h>

#include "colormap.h"

const ht_enum metrics_maps[] = {
    {METRICS_MAP_FLIP, "flip", "FLIP"},
    {METRICS_MAP_DIFF, "diff", "difference"},
    {METRICS_MAP_ABS, "abs", "absolute error"},
    {METRICS_MAP_SQUARED, "squared", "squared error"},
    {METRICS_MAP_RELATIVE, "relative", "relative squared error"},
    {0, NULL, NULL},
};

float metrics_pixel(metrics_map kind, const float *ref, const float *test, int channels,
                    size_t i)
{
    const float *r = ref + i * (size_t)channels, *t = test + i * (size_t)channels;
    float s = 0;
    for (int c = 0; c < 3; c++) {
        float d = t[c] - r[c];
        switch (kind) {
        case METRICS_MAP_DIFF: s += d; break;
        case METRICS_MAP_ABS: s += fabsf(d); break;
        case METRICS_MAP_SQUARED: s += d * d; break;
        default: s += d * d / (r[c] * r[c] + METRICS_REL_EPS); break;
        }
    }
    return s / 3.0f;
}

void metrics_finish(const double sums[METRICS_MAP_COUNT], const double maxes[METRICS_MAP_COUNT],
                    uint64_t count, metrics_values *out)
{
    *out = (metrics_values){0};
    out->count = count;
    double n = count ? (double)count : 1.0;
    out->mean_diff = sums[METRICS_MAP_DIFF] / n;
    out->mae = sums[METRICS_MAP_ABS] / n;
    out->mse = sums[METRICS_MAP_SQUARED] / n;
    out->relmse = sums[METRICS_MAP_RELATIVE] / n;
    out->rmse = sqrt(out->mse);
    out->psnr = out->mse > 0 ? 10.0 * log10(1.0 / out->mse) : INFINITY;
    out->max_abs_diff = maxes[METRICS_MAP_DIFF];
    out->max_abs = maxes[METRICS_MAP_ABS];
    out->max_squared = maxes[METRICS_MAP_SQUARED];
    out->max_relative = maxes[METRICS_MAP_RELATIVE];
}

bool metrics_compute(const float *ref, const float *test, int w, int h, int channels,
                     const flip_rect *rect, metrics_values *out, char *err, size_t errlen)
{
    flip_rect r = rect && rect->w > 0 && rect->h > 0 ? *rect : (flip_rect){0, 0, w, h};
    int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
    int x1 = r.x + r.w > w ? w : r.x + r.w, y1 = r.y + r.h > h ? h : r.y + r.h;
    *out = (metrics_values){0};
    if (x1 <= x0 || y1 <= y0) {
        snprintf(err, errlen, "the rectangle holds no pixel of the %dx%d image", w, h);
        return false;
    }
    double sum[METRICS_MAP_COUNT] = {0}, mx[METRICS_MAP_COUNT] = {0};
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            for (int k = METRICS_MAP_DIFF; k < METRICS_MAP_COUNT; k++) {
                float v = metrics_pixel(k, ref, test, channels, (size_t)y * w + x);
                sum[k] += v;
                mx[k] = fabs(v) > mx[k] ? fabs(v) : mx[k];
            }
    metrics_finish(sum, mx, (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0), out);
    return true;
}

metrics_colorbar metrics_colorbar_for(metrics_map kind, const metrics_values *v)
{
    metrics_colorbar cb = {colormap_viridis, 0.0f, 1.0f};
    double top = 0;
    switch (kind) {
    case METRICS_MAP_FLIP: cb.lut = colormap_magma; return cb;
    case METRICS_MAP_DIFF:
        cb.lut = colormap_diverging;
        top = v->max_abs_diff > 0 ? v->max_abs_diff : 1.0;
        cb.lo = (float)-top;
        cb.hi = (float)top;
        return cb;
    case METRICS_MAP_ABS: top = v->max_abs; break;
    case METRICS_MAP_SQUARED: top = v->max_squared; break;
    default: top = v->max_relative; break;
    }
    cb.hi = top > 0 ? (float)top : 1.0f;
    return cb;
}

int metrics_colorbar_index(const metrics_colorbar *cb, float value)
{
    float t = (value - cb->lo) / (cb->hi - cb->lo);
    t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;   /* NaN -> 0 */
    return (int)(t * 255.0f + 0.5f);
}

void metrics_colorize(const metrics_colorbar *cb, const float *map, size_t n, uint8_t *rgba)
{
    for (size_t i = 0; i < n; i++) {
        const uint8_t *c = cb->lut[metrics_colorbar_index(cb, map[i])];
        rgba[i * 4 + 0] = c[0];
        rgba[i * 4 + 1] = c[1];
        rgba[i * 4 + 2] = c[2];
        rgba[i * 4 + 3] = 255;
    }
}
