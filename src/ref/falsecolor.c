/* Radiance falsecolor's rules, written from its script (NREL/Radiance src/px/falsecolor.pl,
 * phisto.pl, src/cal/histo.c); falsecolor.h has the contracts. */
#include "falsecolor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_shared.h"

/* falsecolor's def_redp, def_grnp, def_blup, as R, G, B triples. */
const float falsecolor_palette[HT_FC_PALETTE_N][3] = {
    {0.18848f, 0.0009766f, 0.2666f},       {0.05468174f, 2.35501e-05f, 0.3638662f},
    {0.00103547f, 0.0008966244f, 0.4770437f}, {8.311144e-08f, 0.0264977f, 0.5131397f},
    {7.449763e-06f, 0.1256843f, 0.5363797f}, {0.0004390987f, 0.2865799f, 0.5193677f},
    {0.001367254f, 0.4247083f, 0.4085123f}, {0.003076f, 0.4739468f, 0.1702815f},
    {0.01376382f, 0.4402732f, 0.05314236f}, {0.06170773f, 0.3671876f, 0.05194055f},
    {0.1739422f, 0.2629843f, 0.08564082f},  {0.2881156f, 0.1725325f, 0.09881395f},
    {0.3299725f, 0.1206819f, 0.08324373f},  {0.3552663f, 0.07316644f, 0.06072902f},
    {0.372552f, 0.03761026f, 0.0391076f},   {0.3921184f, 0.01612362f, 0.02315354f},
    {0.4363976f, 0.004773749f, 0.01284458f}, {0.6102754f, 6.830967e-06f, 0.005184709f},
    {0.7757267f, 0.00803605f, 0.001691774f}, {0.9087369f, 0.1008085f, 2.432735e-05f},
    {1.0f, 0.3106831f, 1.212949e-05f},      {1.0f, 0.6447838f, 0.006659406f},
    {0.9863f, 0.9707f, 0.02539f},
};

static double clip01(double x)
{
    return x > 1 ? 1 : x > 0 ? x : 0;
}

/* Its interp_arr on the palette: control point t (1-based, t = x / step + 1), linear between
 * neighbours, the first below 1, the last from HT_FC_PALETTE_N on. */
void falsecolor_palette_rgb(double x, double rgb[3])
{
    double t = x / HT_FC_STEP + 1.0;
    for (int c = 0; c < 3; c++) {
        double v;
        if (!(t > 1.0))
            v = falsecolor_palette[0][c];
        else if (!(t < HT_FC_PALETTE_N))
            v = falsecolor_palette[HT_FC_PALETTE_N - 1][c];
        else {
            int i = (int)floor(t);   /* 1-based: points i and i + 1 */
            v = (i + 1 - t) * falsecolor_palette[i - 1][c] + (t - i) * falsecolor_palette[i][c];
        }
        rgb[c] = clip01(v);
    }
}

double falsecolor_map(const display_params *d, double lum)
{
    double x = lum / d->fc_max;
    if (d->fc_decades <= 0)
        return x;
    return x > pow(10.0, -d->fc_decades) ? log10(x) / d->fc_decades + 1.0 : 0.0;
}

void falsecolor_rgb(const display_params *d, double v, const double nb[4], double rgb[3])
{
    if (!isfinite(v))
        v = 0;   /* as black as the darkest */
    if (d->fc_style == HT_FC_SMOOTH) {
        falsecolor_palette_rgb(v, rgb);
        return;
    }
    int n = d->fc_steps;
    bool drawn = false;
    /* Only within half a step of the scale's ends [btwn(1/ndivs/2, v, 1+1/ndivs/2)]. */
    if (v >= 0.5 / n && v < 1.0 + 0.5 / n) {
        if (d->fc_style == HT_FC_BANDS) {
            double f = n * v - floor(n * v);
            drawn = f < HT_FC_BAND || f > 1.0 - HT_FC_BAND;
        } else {
            drawn = floor(n * nb[0]) != floor(n * nb[1]) || floor(n * nb[2]) != floor(n * nb[3]);
        }
    }
    if (!drawn) {
        rgb[0] = rgb[1] = rgb[2] = 0;
        return;
    }
    falsecolor_palette_rgb((v - 1.0 / n) * n / (n - 1), rgb);
}

/* The luminance (cd/m^2) of the box average of IMG's finite pixels over [x0,x1) x [y0,y1);
 * NaN when none is finite. */
static double box_luminance(const hdr_image *img, const display_params *d, int x0, int x1,
                            int y0, int y1)
{
    double s[3] = {0, 0, 0};
    long n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            float p[4];
            image_get_pixel(img, (size_t)y * img->width + x, p);
            if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
                continue;
            for (int c = 0; c < 3; c++)
                s[c] += p[c];
            n++;
        }
    if (!n)
        return NAN;
    return d->units_scale * (d->weights[0] * s[0] + d->weights[1] * s[1] + d->weights[2] * s[2]) /
           (double)n;
}

/* phisto: pfilt -1 -x 128 -y 128 -p 1 (the picture box-filtered into at most 128x128, its
 * aspect kept), the luminances' range widened by 0.01 in log10 (the bottom at -7 when the
 * darkest is at or below 1e-7 cd/m^2), 777 bins; falsecolor takes the centre of the
 * second-last bin. */
double falsecolor_auto_max(const hdr_image *img, const display_params *d)
{
    int w = img->width, h = img->height;
    if ((!img->rgba && !img->half) || w <= 0 || h <= 0)
        return 1000.0;
    int fw = w >= h ? 128 : (int)fmax(1, floor(128.0 * w / h + 0.5));
    int fh = h >= w ? 128 : (int)fmax(1, floor(128.0 * h / w + 0.5));
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < fh; j++)
        for (int i = 0; i < fw; i++) {
            int x0 = (int)((long)i * w / fw), x1 = (int)((long)(i + 1) * w / fw);
            int y0 = (int)((long)j * h / fh), y1 = (int)((long)(j + 1) * h / fh);
            double l = box_luminance(img, d, x0, x1 > x0 ? x1 : x0 + 1, y0, y1 > y0 ? y1 : y0 + 1);
            if (isnan(l))
                continue;
            lo = fmin(lo, l);
            hi = fmax(hi, l);
        }
    if (!(hi > 0))
        return 1000.0;
    double lmin = lo > 1e-7 ? log10(lo) - 0.01 : -7.0, lmax = log10(hi) + 0.01;
    return pow(10.0, lmin + (lmax - lmin) * (775.5 / 777.0));
}

/* VALUE as Perl prints a number (%.15g), cut after 3 decimals as falsecolor's
 * s/(\.[0-9]{3})[0-9]* / does. */
static void label_text(double value, char *buf, size_t len)
{
    snprintf(buf, len, "%.15g", value);
    char *dot = strchr(buf, '.');
    if (!dot)
        return;
    size_t digits = strspn(dot + 1, "0123456789");
    if (digits > 3)
        memmove(dot + 4, dot + 1 + digits, strlen(dot + 1 + digits) + 1);
}

int falsecolor_labels(const display_params *d, falsecolor_label *out)
{
    int n = d->fc_steps, count = n + (d->fc_style == HT_FC_SMOOTH);
    for (int i = 0; i < count; i++) {
        double imap = (double)(n - i) / n;
        double value = d->fc_decades > 0 ? d->fc_max * pow(10.0, (imap - 1) * d->fc_decades)
                                         : d->fc_max * imap;
        out[i].value = value;
        out[i].v = imap;
        label_text(value, out[i].text, sizeof out[i].text);
    }
    return count;
}
