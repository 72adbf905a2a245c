/* FLIP's numbers: viewing conditions, filters, colour constants, tone mappers, exposures.
 * Every value is computed in float in the order the authors' tool computes it, so the error
 * maps agree with the tool's to the last bits wherever the libm agrees. */
#include "flip.h"
#include "flip_color.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLIP_PI 3.14159265358979f


/* The contrast sensitivity functions as Gaussians a sqrt(pi / b) exp(-pi^2 x^2 / b): Y, Cx,
 * and Cz (a sum of two). */
static const float CSF_A1[3] = {1.0f, 1.0f, 34.1f}, CSF_B1[3] = {0.0047f, 0.0053f, 0.04f};
static const float CSF_A2_Z = 13.5f, CSF_B2_Z = 0.025f;
/* The largest scale parameter of the six (b1.z), which sets the spatial filter radius. */
static const float CSF_B_MAX = 0.04f;

const ht_enum flip_tonemappers[] = {
    {FLIP_TM_ACES, "aces", "ACES"},
    {FLIP_TM_HABLE, "hable", "Hable"},
    {FLIP_TM_REINHARD, "reinhard", "Reinhard"},
    {0, NULL, NULL},
};

/* ACES is Narkowicz's fit with the 0.6 pre-exposure cancelled; Hable's filmic curve. */
static const float TM_COEFFS[3][6] = {
    [FLIP_TM_ACES] = {0.6f * 0.6f * 2.51f, 0.6f * 0.03f, 0.0f, 0.6f * 0.6f * 2.43f, 0.6f * 0.59f,
                      0.14f},
    [FLIP_TM_HABLE] = {0.231683f, 0.013791f, 0.0f, 0.18f, 0.3f, 0.018f},
    [FLIP_TM_REINHARD] = {0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f},
};

const float *flip_tonemap_coefficients(flip_tonemapper tm)
{
    return TM_COEFFS[(unsigned)tm < 3 ? tm : FLIP_TM_ACES];
}

float flip_ppd(double distance, double resolution_x, double monitor_width)
{
    return (float)distance * ((float)resolution_x / (float)monitor_width) * (FLIP_PI / 180.0f);
}

float flip_default_ppd(void)
{
    return flip_ppd(FLIP_DEFAULT_DISTANCE, FLIP_DEFAULT_RESOLUTION_X, FLIP_DEFAULT_MONITOR_WIDTH);
}

static float csf(float x2, float a, float b)
{
    const float pi_sq = FLIP_PI * FLIP_PI;
    return a * sqrtf(FLIP_PI / b) * expf(-pi_sq * x2 / b);
}

/* The square root of the amplitude: the blue-yellow filter, a sum of two Gaussians, is
 * applied separably as two filters whose outer product rebuilds each term. */
static float csf_sqrt(float x2, float a, float b)
{
    const float pi_sq = FLIP_PI * FLIP_PI;
    return sqrtf(a * sqrtf(FLIP_PI / b)) * expf(-pi_sq * x2 / b);
}

static void spatial_filters(float ppd, flip_filters *f)
{
    const float pi_sq = FLIP_PI * FLIP_PI;
    int r = (int)ceilf(3.0f * sqrtf(CSF_B_MAX / (2.0f * pi_sq)) * ppd);
    f->spatial_radius = r;
    float dx = 1.0f / ppd, sum_y = 0, sum_cx = 0, sum_z1 = 0, sum_z2 = 0;
    for (int i = 0; i < 2 * r + 1; i++) {
        float x = (float)(i - r) * dx, x2 = x * x;
        f->y[i] = csf(x2, CSF_A1[0], CSF_B1[0]);
        f->cx[i] = csf(x2, CSF_A1[1], CSF_B1[1]);
        f->cz1[i] = csf_sqrt(x2, CSF_A1[2], CSF_B1[2]);
        f->cz2[i] = csf_sqrt(x2, CSF_A2_Z, CSF_B2_Z);
        sum_y += f->y[i];
        sum_cx += f->cx[i];
        sum_z1 += f->cz1[i];
        sum_z2 += f->cz2[i];
    }
    float ny = 1.0f / sum_y, ncx = 1.0f / sum_cx;
    float nz = 1.0f / sqrtf(sum_z1 * sum_z1 + sum_z2 * sum_z2);
    for (int i = 0; i < 2 * r + 1; i++) {
        f->y[i] *= ny;
        f->cx[i] *= ncx;
        f->cz1[i] *= nz;
        f->cz2[i] *= nz;
    }
}

/* The Gaussian sums to 1; the positive and the negative weights of each derivative sum to
 * 1 and -1. */
static void feature_filter(float ppd, flip_filters *f)
{
    float sd = 0.5f * FLIP_GW * ppd;
    int r = (int)ceilf(3.0f * sd);
    f->feature_radius = r;
    float gsum = 0, dpos = 0, dneg = 0, ddpos = 0, ddneg = 0;
    for (int i = 0; i < 2 * r + 1; i++) {
        float x = (float)(i - r);
        float g = expf(-(x * x) / (2.0f * sd * sd));
        float dg = -x * g, ddg = (x * x / (sd * sd) - 1.0f) * g;
        gsum += g;
        if (dg > 0.0f)
            dpos += dg;
        else
            dneg -= dg;
        if (ddg > 0.0f)
            ddpos += ddg;
        else
            ddneg -= ddg;
        f->g[i] = g;
        f->dg[i] = dg;
        f->ddg[i] = ddg;
    }
    for (int i = 0; i < 2 * r + 1; i++) {
        f->g[i] /= gsum;
        f->dg[i] /= f->dg[i] > 0.0f ? dpos : dneg;
        f->ddg[i] /= f->ddg[i] > 0.0f ? ddpos : ddneg;
    }
}

void flip_filters_make(float ppd, flip_filters *f)
{
    memset(f, 0, sizeof *f);
    if (!(ppd >= FLIP_MIN_PPD))
        ppd = (float)FLIP_MIN_PPD;
    if (ppd > FLIP_MAX_PPD)
        ppd = (float)FLIP_MAX_PPD;
    spatial_filters(ppd, f);
    feature_filter(ppd, f);
}

float flip_srgb_to_linear(float v)
{
    return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

flip_color_consts flip_color_constants(void)
{
    const float green[3] = {0, 1, 0}, blue[3] = {0, 0, 1};
    float g[3], b[3];
    flip_rgb_to_hunt_lab(green, g);
    flip_rgb_to_hunt_lab(blue, b);
    float hyab = flip_hyab(g, b);
    flip_color_consts c;
    c.cmax = powf(hyab, FLIP_GQC);
    c.pccmax = FLIP_GPC * c.cmax;
    return c;
}

/* The larger root of a x^2 + b x + c = 0. */
static float larger_root(float a, float b, float c)
{
    if (a == 0.0f)
        return -c / b;
    float d1 = -0.5f * (b / a);
    float d2 = sqrtf(d1 * d1 - c / a);
    return d1 + d2;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The element of rank K of V[0..n) (V reordered), by quickselect. */
static float select_rank(float *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 16) {
        float pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                float t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    qsort(v + lo, hi - lo + 1, sizeof *v, cmp_float);
    return v[k];
}

bool flip_exposures_for(const float *ref, int w, int h, int channels, const flip_params *p,
                        flip_exposures *ex, char *err, size_t errlen)
{
    if (p->exposures_given) {
        ex->start = p->start_exposure;
        ex->stop = p->stop_exposure;
    } else {
        size_t n = (size_t)w * (size_t)h;
        float *lum = malloc(n * sizeof *lum);
        if (!lum) {
            snprintf(err, errlen, "out of memory for the exposures");
            return false;
        }
        float ymax = -1e30f;
        for (size_t i = 0; i < n; i++) {
            const float *c = ref + i * (size_t)channels;
            lum[i] = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
            ymax = lum[i] > ymax ? lum[i] : ymax;
        }
        float ymedian = select_rank(lum, n, n / 2);
        free(lum);
        if (!(ymax > 0.0f) || !(ymedian > 0.0f)) {
            snprintf(err, errlen, "the reference's %s luminance is not positive: HDR-FLIP "
                     "derives no exposure range from it", ymax > 0.0f ? "median" : "largest");
            return false;
        }
        const float *tc = flip_tonemap_coefficients(p->tonemapper);
        const float t = 0.85f;   /* the tone-mapped value the range is built around */
        float x = larger_root(tc[0] - t * tc[3], tc[1] - t * tc[4], tc[2] - t * tc[5]);
        ex->start = (float)log2((double)(x / ymax));
        ex->stop = (float)log2((double)(x / ymedian));
    }
    if (!(ex->start <= ex->stop) || !isfinite(ex->start) || !isfinite(ex->stop)) {
        snprintf(err, errlen, "the start exposure (%g) must not exceed the stop exposure (%g)",
                 ex->start, ex->stop);
        return false;
    }
    ex->count = p->exposures > 0 ? p->exposures : (int)fmaxf(2.0f, ceilf(ex->stop - ex->start));
    if (ex->count < 2)
        ex->count = 2;
    return true;
}

float flip_exposure_at(const flip_exposures *ex, int i)
{
    float step = (ex->stop - ex->start) / (float)(ex->count - 1);
    return ex->start + (float)i * step;
}
