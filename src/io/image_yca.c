/* Luminance/chroma (Y, RY, BY) to RGB, reproducing OpenEXR's RgbaInputFile.
 *
 * The reference statistics of such files come from OpenEXR's RGBA interface, so we follow its
 * reconstruction step by step (ImfRgbaYca / ImfRgbaFile, re-implemented here in C): chroma is
 * stored at even x and even y; each even line gets its missing chroma from a 27-tap horizontal
 * filter (13 samples a side), each odd line from the same filter applied vertically to the
 * even lines around it; then RY = (R-Y)/Y, BY = (B-Y)/Y are inverted with the luminance
 * weights of the file's chromaticities, and pixels much more saturated than their diagonal
 * neighbours are desaturated. OpenEXR keeps every intermediate in an Rgba of halves, so each
 * stored value is rounded to half here too; the float arithmetic is written in the same order.
 * Lines beyond the data window repeat the first line (above) or the last even line (below),
 * and columns beyond it the first and the last-but-one pixel, as OpenEXR does. */
#include "cicp.h"
#include "image_internal.h"

#include <stdlib.h>
#include <string.h>

enum { TAPS = 27, HALF_TAPS = TAPS / 2 };

/* The odd-offset taps of the reconstruction filter, from -13 to +13. */
static const float RECON[14] = {0.002128f,  -0.007540f, 0.019597f, -0.043159f, 0.087929f,
                                -0.186077f, 0.627123f,  0.627123f, -0.186077f, 0.087929f,
                                -0.043159f, 0.019597f,  -0.007540f, 0.002128f};

/* One pixel as OpenEXR's Rgba holds it during the conversion: r = RY, g = Y, b = BY, a. */
typedef struct quad {
    float r, g, b, a;
} quad;

static float h(float v) { return image_round_half(v); }

void image_yca_weights(const float *chroma, float yw[3])
{
    static const float rec709[4][2] = CICP_BT709_XY;
    const float *c = chroma ? chroma : &rec709[0][0];
    float rx = c[0], ry = c[1], gx = c[2], gy = c[3], bx = c[4], by = c[5], wx = c[6],
          wy = c[7];
    float Y = 1.0f;
    float X = wx * Y / wy;
    float Z = (1 - wx - wy) * Y / wy;
    float d = rx * (by - gy) + bx * (gy - ry) + gx * (ry - by);
    float srn = (X * (by - gy) - gx * (Y * (by - 1) + by * (X + Z)) +
                 bx * (Y * (gy - 1) + gy * (X + Z)));
    float sgn = (X * (ry - by) + rx * (Y * (by - 1) + by * (X + Z)) -
                 bx * (Y * (ry - 1) + ry * (X + Z)));
    float sbn = (X * (gy - ry) - rx * (Y * (gy - 1) + gy * (X + Z)) +
                 gx * (Y * (ry - 1) + ry * (X + Z)));
    float m0 = srn / d * ry, m1 = sgn / d * gy, m2 = sbn / d * by;
    float sum = m0 + m1 + m2;
    yw[0] = m0 / sum;
    yw[1] = m1 / sum;
    yw[2] = m2 / sum;
}

static void yca_to_rgb(const float yw[3], int n, const quad *in, quad *out)
{
    for (int i = 0; i < n; i++) {
        quad q = in[i];
        if (q.r == 0 && q.b == 0) {
            out[i] = (quad){q.g, q.g, q.g, q.a};
        } else {
            float Y = q.g;
            float r = (q.r + 1) * Y;
            float b = (q.b + 1) * Y;
            float g = (Y - r * yw[0] - b * yw[2]) / yw[1];
            out[i] = (quad){h(r), h(g), h(b), q.a};
        }
    }
}

static float saturation(quad q)
{
    float mx = q.r > q.g ? q.r : q.g;
    mx = mx > q.b ? mx : q.b;
    float mn = q.r < q.g ? q.r : q.g;
    mn = mn < q.b ? mn : q.b;
    return mx > 0 ? 1 - mn / mx : 0;
}

static quad desaturate(quad in, float f, const float yw[3])
{
    float mx = in.r > in.g ? in.r : in.g;
    mx = mx > in.b ? mx : in.b;
    quad out;
    float v;
    v = mx - (mx - in.r) * f;
    out.r = h(v > 0.0f ? v : 0.0f);
    v = mx - (mx - in.g) * f;
    out.g = h(v > 0.0f ? v : 0.0f);
    v = mx - (mx - in.b) * f;
    out.b = h(v > 0.0f ? v : 0.0f);
    out.a = in.a;
    float yin = in.r * yw[0] + in.g * yw[1] + in.b * yw[2];
    float yout = out.r * yw[0] + out.g * yw[1] + out.b * yw[2];
    if (yout > 0) {
        float k = yin / yout;
        out.r = h(out.r * k);
        out.g = h(out.g * k);
        out.b = h(out.b * k);
    }
    return out;
}

static void fix_saturation(const float yw[3], int n, const quad *above, const quad *line,
                           const quad *below, quad *out)
{
    for (int i = 0; i < n; i++) {
        int l = i > 0 ? i - 1 : 0, r = i < n - 1 ? i + 1 : n - 1;
        float mean = 0.25f * (saturation(above[l]) + saturation(above[r]) + saturation(below[l]) +
                              saturation(below[r]));
        if (mean > 1.0f)
            mean = 1.0f;
        float s = saturation(line[i]);
        if (s > mean) {
            float smax = 1 - (1 - mean) * 0.25f;
            if (smax > 1.0f)
                smax = 1.0f;
            if (s > smax) {
                out[i] = desaturate(line[i], smax / s, yw);
                continue;
            }
        }
        out[i] = line[i];
    }
}

/* One conversion: its inputs (as image_yca_to_rgba takes them) and working lines. */
typedef struct yca_job {
    int x0, y0, y1, w, hgt;
    const float *y, *ry, *by, *a;
    int cw, ch;
    const float *yw;
    quad *lines; /* hgt lines of w: the YCA of each line, chroma filled in on even lines */
    quad *tmp;   /* one line with HALF_TAPS pixels of padding each side */
    quad *vert;  /* one line of chroma filtered vertically */
} yca_job;

/* Line K of the data window into j->lines: on even lines (absolute y) the chroma samples at
 * even x, and the odd x reconstructed by the horizontal filter; odd lines get only Y and A. */
static void horizontal_line(yca_job *j, int k)
{
    int yy = j->y0 + k, w = j->w;
    quad *dst = j->lines + (size_t)k * (size_t)w, *tmp = j->tmp;
    const float *yrow = j->y + (size_t)k * (size_t)w;
    const float *arow = j->a ? j->a + (size_t)k * (size_t)w : NULL;
    if (yy & 1) {
        for (int x = 0; x < w; x++)
            dst[x] = (quad){0, h(yrow[x]), 0, arow ? h(arow[x]) : 1.0f};
        return;
    }
    long crow = image_multiples(j->y0, yy - 1, 2);
    for (int i = 0; i < w; i++) {
        int x = j->x0 + i;
        quad q = {0, h(yrow[i]), 0, arow ? h(arow[i]) : 1.0f};
        if (!(x & 1) && crow < j->ch) {
            long cx = image_multiples(j->x0, x - 1, 2);
            if (cx < j->cw) {
                q.r = h(j->ry ? j->ry[crow * j->cw + cx] : 0.0f);
                q.b = h(j->by ? j->by[crow * j->cw + cx] : 0.0f);
            }
        }
        tmp[HALF_TAPS + i] = q;
    }
    quad right = tmp[HALF_TAPS + (w >= 2 ? w - 2 : 0)];
    for (int i = 0; i < HALF_TAPS; i++) {
        tmp[i] = tmp[HALF_TAPS];
        tmp[w + HALF_TAPS + i] = right;
    }
    for (int x = 0; x < w; x++) {
        int i = x + HALF_TAPS;
        quad q = tmp[i];
        if (x & 1) {
            float r = tmp[i - 13].r * RECON[0], b = tmp[i - 13].b * RECON[0];
            for (int t = 1; t < 14; t++) {
                int off = -13 + 2 * t;
                r = r + tmp[i + off].r * RECON[t];
                b = b + tmp[i + off].b * RECON[t];
            }
            q.r = h(r);
            q.b = h(b);
        }
        dst[x] = q;
    }
}

/* The YCA line held for absolute line T (clamped as OpenEXR does). */
static const quad *yca_line(const yca_job *j, int t)
{
    int y0 = j->y0, y1 = j->y1;
    int k = t < y0 ? 0 : t > y1 ? (y1 - 1 < y0 ? 0 : y1 - 1 - y0) : t - y0;
    return j->lines + (size_t)k * (size_t)j->w;
}

/* RGB of absolute line T into DST (before the saturation fix): odd lines get their chroma
 * from the vertical filter over the even lines around them. */
static void rgb_line(yca_job *j, int t, quad *dst)
{
    if (!(t & 1)) {
        yca_to_rgb(j->yw, j->w, yca_line(j, t), dst);
        return;
    }
    const quad *src[14];
    for (int k = 0; k < 14; k++)
        src[k] = yca_line(j, t - 13 + 2 * k);
    const quad *c = yca_line(j, t);
    for (int x = 0; x < j->w; x++) {
        float r = src[0][x].r * RECON[0], b = src[0][x].b * RECON[0];
        for (int k = 1; k < 14; k++) {
            r = r + src[k][x].r * RECON[k];
            b = b + src[k][x].b * RECON[k];
        }
        j->vert[x] = (quad){h(r), c[x].g, h(b), c[x].a};
    }
    yca_to_rgb(j->yw, j->w, j->vert, dst);
}

bool image_yca_to_rgba(int x0, int y0, int w, int hgt, const float *y, const float *ry,
                       const float *by, int cw, int ch, const float *a, const float yw[3],
                       float *out)
{
    yca_job j = {x0, y0, y0 + hgt - 1, w, hgt, y, ry, by, a, cw, ch, yw, NULL, NULL, NULL};
    j.lines = malloc((size_t)w * (size_t)hgt * sizeof *j.lines);
    j.tmp = malloc(((size_t)w + TAPS - 1) * sizeof *j.tmp);
    /* vert, then three lines of RGB (above, current, below), then the fixed line. */
    quad *block = malloc((size_t)w * 5 * sizeof *block);
    if (!j.lines || !j.tmp || !block) {
        free(j.lines);
        free(j.tmp);
        free(block);
        return false;
    }
    j.vert = block;
    quad *rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = block + (size_t)w * (size_t)(k + 1);
    quad *fixed = block + (size_t)w * 4;

    for (int k = 0; k < hgt; k++)
        horizontal_line(&j, k);
    rgb_line(&j, y0 - 1, rgb[0]);
    rgb_line(&j, y0, rgb[1]);
    for (int k = 0; k < hgt; k++) {
        rgb_line(&j, y0 + k + 1, rgb[2]);
        fix_saturation(yw, w, rgb[0], rgb[1], rgb[2], fixed);
        float *o = out + (size_t)k * (size_t)w * 4;
        for (int x = 0; x < w; x++, o += 4) {
            o[0] = fixed[x].r;
            o[1] = fixed[x].g;
            o[2] = fixed[x].b;
            o[3] = fixed[x].a;
        }
        quad *t = rgb[0];
        rgb[0] = rgb[1];
        rgb[1] = rgb[2];
        rgb[2] = t;
    }
    free(j.lines);
    free(j.tmp);
    free(block);
    return true;
}
