/* The plain error metrics and the error maps of a comparison, CPU reference (the GPU's is
 * src/gpu/compare_gpu.h). Per value, with C the test and R the reference (each of R, G, B),
 * as tev defines its metrics: difference C - R, absolute |C - R|, squared (C - R)^2, relative
 * squared (C - R)^2 / (R^2 + 0.01). Averaged over the pixels and the three channels:
 * MAE (absolute), MSE (squared), RMSE = sqrt(MSE), relative MSE (relative squared), and
 * PSNR = 10 log10(1 / MSE) (peak 1: display-referred values in [0, 1]; for HDR data a
 * figure of the same formula). A map shows each pixel's mean over its three channels, so its
 * mean is the matching number. LDR pictures are compared on their linear values (decoded
 * from sRGB), as tev loads them. */
#ifndef HT_METRICS_H
#define HT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flip.h"
#include "ht_enum.h"

/* tev's epsilon of the relative errors. */
#define METRICS_REL_EPS 0.01f

/* The error maps. */
typedef enum metrics_map {
    METRICS_MAP_FLIP = 0,       /* FLIP's error, [0, 1], magma */
    METRICS_MAP_DIFF = 1,       /* signed difference, [-m, m], diverging */
    METRICS_MAP_ABS = 2,        /* absolute error, [0, max], viridis */
    METRICS_MAP_SQUARED = 3,    /* squared error, [0, max], viridis */
    METRICS_MAP_RELATIVE = 4,   /* relative squared error, [0, max], viridis */
    METRICS_MAP_COUNT
} metrics_map;
extern const ht_enum metrics_maps[];   /* flip, diff, abs, squared, relative */

typedef struct metrics_values {
    double mse, rmse, psnr, relmse, mae;
    double mean_diff;           /* mean signed difference (test - reference) */
    double max_abs_diff;        /* largest |per-pixel mean difference|: the diverging range */
    double max_abs, max_squared, max_relative;   /* the maps' largest values */
    uint64_t count;             /* pixels */
} metrics_values;

/* The metrics of TEST against REF (W x H, CHANNELS floats a pixel, the first three used)
 * over RECT (clipped; NULL = whole). PSNR is +inf when MSE is 0. False (message) when the
 * rectangle holds no pixel. */
bool metrics_compute(const float *ref, const float *test, int w, int h, int channels,
                     const flip_rect *rect, metrics_values *out, char *err, size_t errlen);

/* *OUT from the sums and largest |values| of the maps over COUNT pixels (indexed by
 * metrics_map; [METRICS_MAP_FLIP] unused): the means, RMSE, PSNR, the maxima. */
void metrics_finish(const double sums[METRICS_MAP_COUNT], const double maxes[METRICS_MAP_COUNT],
                    uint64_t count, metrics_values *out);

/* Map KIND's value of pixel I (not METRICS_MAP_FLIP, which flip.h computes). */
float metrics_pixel(metrics_map kind, const float *ref, const float *test, int channels,
                    size_t i);

/* A map's colour bar: its colour map and the values at its two ends. */
typedef struct metrics_colorbar {
    const uint8_t (*lut)[3];
    float lo, hi;
} metrics_colorbar;

/* KIND's colour bar for values V: FLIP [0, 1]; the difference symmetric about 0 up to
 * V->max_abs_diff; the others [0, their max] (an all-zero map gets [0, 1]). */
metrics_colorbar metrics_colorbar_for(metrics_map kind, const metrics_values *v);

/* The colour bar entry of VALUE: (int)(255 t + 0.5), t = (v - lo) / (hi - lo) clamped to
 * [0, 1] (FLIP's own rounding on [0, 1]). */
int metrics_colorbar_index(const metrics_colorbar *cb, float value);

/* MAP (W x H values) through CB into RGBA8 (opaque). */
void metrics_colorize(const metrics_colorbar *cb, const float *map, size_t n, uint8_t *rgba);

#endif
