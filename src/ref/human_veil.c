/* Veiling glare (pcond4.c compraydir, compveil, addveil) and the view it needs. Float where
 * pcond stores floats, so the veil matches pcond's to float rounding. */
#include "human.h"

#include <math.h>

static const double PI = 3.14159265358979323846;

void human_view_default(int w, int h, double fov, human_view *v)
{
    /* FOV across the longer side; the other angle keeps the picture's aspect (square
     * pixels). */
    double t = 2.0 * tan(fov * PI / 360.0) / (w > h ? w : h);
    v->hn = t * w;
    v->vn = t * h;
    v->horiz = 2.0 * atan(0.5 * v->hn) * 180.0 / PI;
    v->vert = 2.0 * atan(0.5 * v->vn) * 180.0 / PI;
}

void human_ray_dirs(const human_view *v, int fw, int fh, float *dirs)
{
    /* Radiance's default view: looking along +Y, up +Z, so image right is +X. */
    for (int row = 0; row < fh; row++)
        for (int x = 0; x < fw; x++) {
            double hx = (x + 0.5) / fw - 0.5, vy = 0.5 - (row + 0.5) / fh;
            double d[3] = {hx * v->hn, 1.0, vy * v->vn};
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            float *u = dirs + 3 * ((size_t)row * fw + x);
            for (int c = 0; c < 3; c++)
                u[c] = (float)(d[c] / len);
        }
}

void human_veil_image(int fw, int fh, const float *dirs, const float *fov, float *veil)
{
    size_t n = (size_t)fw * fh;
    for (size_t p = 0; p < n; p++) {
        const float *up = dirs + 3 * p;
        float acc[3] = {0.0f, 0.0f, 0.0f};
        double wsum = 0.0;
        for (size_t q = 0; q < n; q++) {
            if (q == p)
                continue;
            const float *uq = dirs + 3 * q;
            float cosv = up[0] * uq[0] + up[1] * uq[1] + up[2] * uq[2];
            if (cosv <= HT_VEIL_MIN_COS)
                continue;
            /* ~ cos / theta^2 for small angles, without an acos (pcond's comment). */
            double wt = 0.5 * cosv / (1.0 - cosv);
            wsum += wt;
            for (int c = 0; c < 3; c++)
                acc[c] += (float)(wt * fov[3 * q + c]);
        }
        double k = wsum > HT_HUMAN_TINY ? HT_VEIL_ADAPT / wsum : 1.0;
        for (int c = 0; c < 3; c++)
            veil[3 * p + c] = (float)(acc[c] * k);
    }
}

void human_veil_foveal(size_t n, const float *veil, float *fov)
{
    for (size_t k = 0; k < 3 * n; k++)
        fov[k] = (float)((1.0 - HT_VEIL_ADAPT) * fov[k]) + veil[k];
}

int human_lerp_cell(double t, int n, double *d)
{
    int i = (int)t;
    while (i >= n - 1 && i > 0)
        i--;
    *d = n > 1 ? t - i : 0.0;
    return i;
}

void human_foveal_lerp(const float *grid, int fw, int fh, int nch, int w, int h, int x, int row,
                       double *out)
{
    double dx, dy;
    int ix = human_lerp_cell((x + 0.5) / w * fw - 0.5, fw, &dx);
    int iy = human_lerp_cell((row + 0.5) / h * fh - 0.5, fh, &dy);
    int ix1 = ix + 1 < fw ? ix + 1 : ix, iy1 = iy + 1 < fh ? iy + 1 : iy;
    for (int c = 0; c < nch; c++) {
        double v00 = grid[((size_t)iy * fw + ix) * nch + c];
        double v01 = grid[((size_t)iy1 * fw + ix) * nch + c];
        double v10 = grid[((size_t)iy * fw + ix1) * nch + c];
        double v11 = grid[((size_t)iy1 * fw + ix1) * nch + c];
        double lv = (1.0 - dy) * v00 + dy * v01, uv = (1.0 - dy) * v10 + dy * v11;
        out[c] = (1.0 - dx) * lv + dx * uv;
    }
}
