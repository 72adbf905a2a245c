/* Loss of acuity (pcond4.c hacuity, initacuity, acuscan, acusample, ascanval): a sample
 * radius per foveal pixel from its luminance, and a box pyramid of the picture that each
 * pixel blends from by its interpolated radius. */
#include "human.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

double human_hacuity(double la)
{
    /* log10(0) = -inf gives the model's floor, atan -> -pi/2. */
    double x = la > 0.0 ? log10(la) : -INFINITY;
    return 17.25 * atan(1.4 * x + 0.35) + 25.72;
}

/* The radius of interior foveal pixel (x, row): half the picture-pixel-sized patch of the
 * view sphere, omega, against the visible frequency there. */
static float radius_at(int w, int h, int fw, int fh, const float *dirs, const float *fov,
                       double scale, const double wts[3], int x, int row)
{
    const float *l = dirs + 3 * ((size_t)row * fw + x - 1), *r = l + 6;
    const float *u = dirs + 3 * ((size_t)(row - 1) * fw + x);
    const float *d = dirs + 3 * ((size_t)(row + 1) * fw + x);
    double kx = 0.5 * fw / w, ky = 0.5 * fh / h, dx[3], dy[3];
    for (int c = 0; c < 3; c++) {
        dx[c] = kx * (double)(r[c] - l[c]);
        dy[c] = ky * (double)(d[c] - u[c]);
    }
    double cx = dx[1] * dy[2] - dx[2] * dy[1], cy = dx[2] * dy[0] - dx[0] * dy[2];
    double cz = dx[0] * dy[1] - dx[1] * dy[0];
    double omega = 0.5 * sqrt(cx * cx + cy * cy + cz * cz);
    if (omega <= HT_ACUITY_MIN_OMEGA)
        return 1.0f;
    double la = human_luminance(fov + 3 * ((size_t)row * fw + x), scale, wts);
    float sr = (float)(PI / 180.0 / sqrt(omega) / human_hacuity(la));
    return isfinite(sr) ? sr : 0.0f;
}

float human_sample_radii(int w, int h, int fw, int fh, const float *dirs, const float *fov,
                         double scale, const double wts[3], float *sr)
{
    float max_sr = 1.0f;
    if (fw < 3 || fh < 3) {   /* no interior pixel to take differences at: no blur */
        for (size_t k = 0; k < (size_t)fw * fh; k++)
            sr[k] = 0.0f;
        return max_sr;
    }
    for (int row = 1; row < fh - 1; row++)
        for (int x = 1; x < fw - 1; x++) {
            float v = radius_at(w, h, fw, fh, dirs, fov, scale, wts, x, row);
            sr[(size_t)row * fw + x] = v;
            max_sr = v > max_sr ? v : max_sr;
        }
    /* The border copies its inner neighbour: rows first, then whole columns. */
    for (int x = 1; x < fw - 1; x++) {
        sr[x] = sr[(size_t)fw + x];
        sr[(size_t)(fh - 1) * fw + x] = sr[(size_t)(fh - 2) * fw + x];
    }
    for (int row = 0; row < fh; row++) {
        sr[(size_t)row * fw] = sr[(size_t)row * fw + 1];
        sr[(size_t)row * fw + fw - 1] = sr[(size_t)row * fw + fw - 2];
    }
    return max_sr;
}

int human_root_level(float max_sr, int w, int h)
{
    int r = (int)(log(max_sr) / log(2.0)) + 1;
    while (r > 1 && ((w >> r) < 1 || (h >> r) < 1))
        r--;
    return r < 1 ? 1 : r > HT_PYRAMID_MAX_LEVELS ? HT_PYRAMID_MAX_LEVELS : r;
}

/* A picture channel as the pyramid counts it. */
static float clean(float v)
{
    return isfinite(v) && v > 0.0f ? v : 0.0f;
}

bool human_pyramid_build(const hdr_image *img, int levels, human_pyramid *pyr)
{
    memset(pyr, 0, sizeof *pyr);
    pyr->w[0] = img->width;
    pyr->h[0] = img->height;
    for (int k = 1; k <= levels && k < 32; k++) {
        int w = img->width >> k, h = img->height >> k;
        if (w < 1 || h < 1)
            break;
        float *dst = malloc((size_t)w * h * 3 * sizeof *dst);
        if (!dst) {
            human_pyramid_free(pyr);
            return false;
        }
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++)
                for (int c = 0; c < 3; c++) {
                    float a[4];
                    for (int q = 0; q < 4; q++) {
                        size_t x = 2 * (size_t)i + (q & 1), y = 2 * (size_t)j + (q >> 1);
                        a[q] = k == 1 ? clean(img->rgba[4 * (y * img->width + x) + c])
                                      : pyr->rgb[k - 1][3 * (y * pyr->w[k - 1] + x) + c];
                    }
                    dst[3 * ((size_t)j * w + i) + c] = (((a[0] + a[1]) + a[2]) + a[3]) * 0.25f;
                }
        pyr->rgb[k] = dst;
        pyr->w[k] = w;
        pyr->h[k] = h;
        pyr->levels = k;
    }
    return true;
}

void human_pyramid_free(human_pyramid *pyr)
{
    for (int k = 0; k < 32; k++)
        free(pyr->rgb[k]);
    memset(pyr, 0, sizeof *pyr);
}

void human_pyramid_sample(const human_pyramid *pyr, int k, int x, int row, float out[3])
{
    int w = pyr->w[k], h = pyr->h[k];
    double s = ldexp(1.0, k), du, dw;
    int iu = human_lerp_cell((x + 0.5) / s - 0.5, w, &du);
    int iw = human_lerp_cell((row + 0.5) / s - 0.5, h, &dw);
    int iu1 = iu + 1 < w ? iu + 1 : iu, iw1 = iw + 1 < h ? iw + 1 : iw;
    const float *a = pyr->rgb[k];
    for (int c = 0; c < 3; c++) {
        float lo = (float)(a[3 * ((size_t)iw * w + iu) + c] * (1.0 - du)) +
                   (float)(a[3 * ((size_t)iw * w + iu1) + c] * du);
        float hi = (float)(a[3 * ((size_t)iw1 * w + iu) + c] * (1.0 - du)) +
                   (float)(a[3 * ((size_t)iw1 * w + iu1) + c] * du);
        float v = (float)(lo * (1.0 - dw)) + (float)(hi * dw);
        out[c] = v > 0.0f ? v : 0.0f;
    }
}
