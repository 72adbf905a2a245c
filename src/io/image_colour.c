/* The colour tags of an image (image.h): their maths and validity. ref/colour.h builds the
 * transforms on them. */
#include "image.h"

#include "cicp.h"

#include <math.h>
#include <stdio.h>

static const double rec709_xy[4][2] = CICP_BT709_XY;

const double (*image_colour_xy(const image_colour *c))[2]
{
    for (int i = 0; i < 4; i++)
        if (c->xy[i][0] != 0.0 || c->xy[i][1] != 0.0)
            return c->xy;
    return rec709_xy;
}

void image_colour_weights(const image_colour *c, double w[3])
{
    const double(*xy)[2] = image_colour_xy(c);
    double m[9];
    bool rec709 = true;
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++)
            rec709 = rec709 && fabs(xy[i][k] - rec709_xy[i][k]) <= 1e-6;
    if (rec709 || !image_rgb_to_xyz(xy, m)) {
        w[0] = 0.2126;
        w[1] = 0.7152;
        w[2] = 0.0722;
        return;
    }
    for (int i = 0; i < 3; i++)
        w[i] = m[3 + i];
}

bool image_mat3_inverse(const double m[9], double out[9])
{
    double c[9] = {m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                   m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                   m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]};
    double det = m[0] * c[0] + m[1] * c[3] + m[2] * c[6];
    if (!isfinite(det) || fabs(det) < 1e-12)
        return false;
    for (int i = 0; i < 9; i++)
        out[i] = c[i] / det;
    return true;
}

void image_mat3_vec(const double m[9], const double v[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2];
}

/* XYZ of a white of chromaticity XY with Y = 1. */
void image_white_xyz(const double xy[2], double out[3])
{
    out[0] = xy[0] / xy[1];
    out[1] = 1.0;
    out[2] = (1.0 - xy[0] - xy[1]) / xy[1];
}

bool image_rgb_to_xyz(const double xy[4][2], double m[9])
{
    for (int i = 0; i < 4; i++)
        if (!isfinite(xy[i][0]) || !isfinite(xy[i][1]))
            return false;
    if (!(xy[3][1] > 0.0))
        return false;
    /* The primaries' xyz as columns (no division by their y: AP0's blue has y < 0, XYZ's 0). */
    double p[9], inv[9], w[3], s[3];
    for (int c = 0; c < 3; c++) {
        p[c] = xy[c][0];
        p[3 + c] = xy[c][1];
        p[6 + c] = 1.0 - xy[c][0] - xy[c][1];
    }
    if (!image_mat3_inverse(p, inv))
        return false;
    image_white_xyz(xy[3], w);
    image_mat3_vec(inv, w, s);
    for (int c = 0; c < 3; c++)
        if (!(s[c] > 0.0) || !isfinite(s[c]))   /* a white outside the primaries' triangle */
            return false;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            m[3 * r + c] = p[3 * r + c] * s[c];
    return true;
}

bool image_colour_check(const image_colour *c, char *why, size_t wl)
{
    double m[9];
    const double(*xy)[2] = image_colour_xy(c);
    bool adopted = c->adopted[0] != 0.0 || c->adopted[1] != 0.0;
    if (!image_rgb_to_xyz(xy, m)) {
        snprintf(why, wl,
                 "the chromaticities (R %g,%g G %g,%g B %g,%g white %g,%g) are degenerate: "
                 "non-finite, white at y <= 0, collinear primaries or a white outside them",
                 xy[0][0], xy[0][1], xy[1][0], xy[1][1], xy[2][0], xy[2][1], xy[3][0], xy[3][1]);
        return false;
    }
    if (adopted && !(isfinite(c->adopted[0]) && c->adopted[1] > 0.0 && isfinite(c->adopted[1]) &&
                     c->adopted[0] > 0.0 && c->adopted[0] + c->adopted[1] < 1.0)) {
        snprintf(why, wl, "the adoptedNeutral %g,%g is not a chromaticity", c->adopted[0],
                 c->adopted[1]);
        return false;
    }
    return true;
}

