/* FLIP's colour conversions, shared by the reference's passes (flip.c) and its constants
 * (flip_consts.c): float, in the order of the authors' tool. Internal to src/ref. */
#ifndef HT_FLIP_COLOR_H
#define HT_FLIP_COLOR_H

#include <math.h>

static inline float flip_clamp01(float v)
{
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* Linear sRGB -> XYZ divided by the D65 white (the exact matrix in rationals). */
static inline void flip_rgb_to_xyz_white(const float c[3], float xyz[3])
{
    xyz[0] = ((10135552.0f / 24577794.0f) * c[0] + (8788810.0f / 24577794.0f) * c[1] +
              (4435075.0f / 24577794.0f) * c[2]) * 1.052156925f;
    xyz[1] = (2613072.0f / 12288897.0f) * c[0] + (8788810.0f / 12288897.0f) * c[1] +
             (887015.0f / 12288897.0f) * c[2];
    xyz[2] = ((1425312.0f / 73733382.0f) * c[0] + (8788810.0f / 73733382.0f) * c[1] +
              (70074185.0f / 73733382.0f) * c[2]) * 0.918357670f;
}

/* Linear RGB -> CIELab with Hunt's adjustment of the chroma (a, b times 0.01 L). */
static inline void flip_rgb_to_hunt_lab(const float c[3], float lab[3])
{
    const float d = 6.0f / 29.0f, d2 = d * d, d3 = d * d2;
    const float k = 1.0f / (3.0f * d2), t = 4.0f / 29.0f;
    float v[3];
    flip_rgb_to_xyz_white(c, v);
    for (int i = 0; i < 3; i++) {
        float root = powf(v[i], 1.0f / 3.0f);   /* unconditional: a select vectorises */
        v[i] = v[i] > d3 ? root : k * v[i] + t;
    }
    lab[0] = 116.0f * v[1] - 16.0f;
    lab[1] = 0.01f * lab[0] * (500.0f * (v[0] - v[1]));
    lab[2] = 0.01f * lab[0] * (200.0f * (v[1] - v[2]));
}

/* HyAB: city-block in L, Euclidean in a, b. */
static inline float flip_hyab(const float a[3], const float b[3])
{
    float da = a[1] - b[1], db = a[2] - b[2];
    return fabsf(a[0] - b[0]) + sqrtf(da * da + db * db);
}

#endif
