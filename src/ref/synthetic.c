#include "synthetic.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rounds to the nearest half-float value (normal range: 1e-3..1e4 stays well inside). */
static float to_half(float v)
{
    int e;
    float m = frexpf(v, &e);
    return ldexpf(rintf(ldexpf(m, 11)), e - 11);
}

bool synthetic_image(hdr_image *img, int w, int h, unsigned seed)
{
    memset(img, 0, sizeof *img);
    img->rgba = malloc((size_t)w * h * 4 * sizeof(float));
    if (!img->rgba)
        return false;
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t k = 0; k < (size_t)w * h; k++) {
        float u[4];
        for (int i = 0; i < 4; i++) {   /* xorshift64*: fast and good enough here */
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            u[i] = (float)((s * 0x2545F4914F6CDD1Dull) >> 40) / 16777216.0f;
        }
        float l = powf(10.0f, -3.0f + 7.0f * u[0]);
        float *p = img->rgba + 4 * k;
        p[0] = to_half(l * (0.25f + 1.5f * u[1]));
        p[1] = to_half(l * (0.25f + 1.5f * u[2]));
        p[2] = to_half(l * (0.25f + 1.5f * u[3]));
        p[3] = 1.0f;
    }
    img->width = w;
    img->height = h;
    img->data_window[2] = img->display_window[2] = w - 1;
    img->data_window[3] = img->display_window[3] = h - 1;
    img->half_exact = true;
    snprintf(img->format, sizeof img->format, "synthetic");
    snprintf(img->channels, sizeof img->channels, "R,G,B (half)");
    snprintf(img->compression, sizeof img->compression, "none");
    snprintf(img->rgb_source, sizeof img->rgb_source, "R,G,B");
    return true;
}
