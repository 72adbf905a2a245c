/* Colour spaces (colour.h). The primaries and whites are those of the standards: ITU-R
 * BT.709 and BT.2020, SMPTE EG 432-1 (P3-D65), SMPTE ST 2065-1 and S-2014-004 (ACES AP0 and
 * AP1), CIE 1931 XYZ, and Radiance's standard primaries (its color.h). */
#include "colour.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cicp.h"
#include "gpu_shared.h"

#define ACES_WHITE {0.32168, 0.33767}
#define E_WHITE {1.0 / 3.0, 1.0 / 3.0}

const colour_space colour_spaces[] = {
    {"rec709", "Rec. 709 / linear sRGB", "Linear Rec.709 (sRGB)",
     CICP_BT709_XY, false},
    {"rec2020", "Rec. 2020", "Linear Rec.2020",
     CICP_BT2020_XY, false},
    {"p3d65", "P3-D65", "Linear P3-D65", CICP_P3_D65_XY, false},
    {"acescg", "ACEScg (AP1)", "ACEScg",
     {{0.713, 0.293}, {0.165, 0.830}, {0.128, 0.044}, ACES_WHITE}, true},
    {"aces2065-1", "ACES2065-1 (AP0)", "ACES2065-1",
     {{0.7347, 0.2653}, {0.0, 1.0}, {0.0001, -0.0770}, ACES_WHITE}, true},
    {"xyz", "CIE XYZ", "CIE-XYZ-D65", {{1.0, 0.0}, {0.0, 1.0}, {0.0, 0.0}, E_WHITE}, false},
    {"radiance", "Radiance standard primaries", NULL,
     {{0.640, 0.330}, {0.290, 0.600}, {0.150, 0.060}, E_WHITE}, true},
    {NULL, NULL, NULL, {{0}}, false},
};

static const struct {
    const char *alias, *name;
} aliases[] = {{"srgb-linear", "rec709"}, {"linear-rec709", "rec709"}, {"srgb", "rec709"},
               {"linear-rec2020", "rec2020"}, {"p3-d65", "p3d65"}, {"ap1", "acescg"},
               {"ap0", "aces2065-1"}, {"cie-xyz", "xyz"}};

const ht_enum colour_display_spaces[] = {
    {HT_DISPLAY_SPACE_SRGB, "srgb", "sRGB"},
    {HT_DISPLAY_SPACE_DISPLAY_P3, "display-p3", "Display P3"},
    {HT_DISPLAY_SPACE_REC2020, "rec2020", "Rec. 2020 (gamma 2.4)"},
    {HT_DISPLAY_SPACE_REC709_G24, "rec709-gamma24", "Rec. 709 (gamma 2.4)"},
    {0, NULL, NULL},
};

const ht_enum colour_gamuts[] = {
    {HT_GAMUT_CLIP, "clip", "clip"},
    {HT_GAMUT_COMPRESS, "compress", "compress (desaturate)"},
    {0, NULL, NULL},
};

const ht_enum colour_whites[] = {
    {HT_WHITE_ABSOLUTE, "absolute", "absolute colorimetric"},
    {HT_WHITE_ADAPT, "adapt", "adapted (Bradford)"},
    {0, NULL, NULL},
};

const colour_space *colour_space_find(const char *name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i].alias) == 0)
            name = aliases[i].name;
    for (const colour_space *s = colour_spaces; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

void colour_space_list(const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (const colour_space *s = colour_spaces; s->name && used < len; s++) {
        int w = snprintf(buf + used, len - used, "%s%s", s == colour_spaces ? "" : sep, s->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

void colour_from_space(image_colour *c, const colour_space *s, int source)
{
    memset(c, 0, sizeof *c);
    memcpy(c->xy, s->xy, sizeof c->xy);
    if (s->adapted)
        memcpy(c->adopted, s->xy[3], sizeof c->adopted);
    c->source = source;
    snprintf(c->name, sizeof c->name, "%s", s->name);
}

static bool xy_near(const double a[4][2], const double b[4][2], double tol)
{
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++)
            if (!(fabs(a[i][k] - b[i][k]) <= tol))
                return false;
    return true;
}

const colour_space *colour_space_match(const image_colour *c)
{
    for (const colour_space *s = colour_spaces; s->name; s++)
        if (xy_near(image_colour_xy(c), s->xy, 1e-4))
            return s;
    return NULL;
}

void colour_display_xy(int ds, double xy[4][2])
{
    const char *name = ds == HT_DISPLAY_SPACE_DISPLAY_P3 ? "p3d65"
                       : ds == HT_DISPLAY_SPACE_REC2020  ? "rec2020"
                                                         : "rec709";
    memcpy(xy, colour_space_find(name)->xy, sizeof(double[4][2]));
}

void colour_mat3_mul(const double a[9], const double b[9], double out[9])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out[3 * r + c] = a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c];
}

void colour_bradford(const double from[2], const double to[2], double m[9])
{
    static const double b[9] = {0.8951, 0.2664, -0.1614, -0.7502, 1.7135,
                                0.0367, 0.0389, -0.0685, 1.0296};
    double binv[9], wf[3], wt[3], cf[3], ct[3], d[9] = {0}, t[9];
    image_mat3_inverse(b, binv);
    image_white_xyz(from, wf);
    image_white_xyz(to, wt);
    image_mat3_vec(b, wf, cf);
    image_mat3_vec(b, wt, ct);
    for (int i = 0; i < 3; i++)
        d[4 * i] = ct[i] / cf[i];
    colour_mat3_mul(d, b, t);
    colour_mat3_mul(binv, t, m);
}

void colour_xform_identity(colour_xform *x)
{
    static const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    x->lum[0] = HT_LUM_R;
    x->lum[1] = HT_LUM_G;
    x->lum[2] = HT_LUM_B;
    memcpy(x->to_display, id, sizeof id);
}

bool colour_xform_is_identity(const colour_xform *x)
{
    colour_xform id;
    colour_xform_identity(&id);
    return memcmp(x->to_display, id.to_display, sizeof id.to_display) == 0;
}

bool colour_xform_make(const image_colour *in, int ds, int white, colour_xform *x, char *why,
                       size_t wl)
{
    if (!image_colour_check(in, why, wl))
        return false;
    const double(*xy)[2] = image_colour_xy(in);
    double dxy[4][2], m_in[9], m_disp[9], inv_disp[9], adapt[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    double t[9];
    colour_display_xy(ds, dxy);
    image_rgb_to_xyz(xy, m_in);
    image_rgb_to_xyz((const double(*)[2])dxy, m_disp);
    image_mat3_inverse(m_disp, inv_disp);
    bool adopted = in->adopted[0] != 0.0 || in->adopted[1] != 0.0;
    if (adopted)
        colour_bradford(in->adopted, dxy[3], adapt);
    else if (white == HT_WHITE_ADAPT)
        colour_bradford(xy[3], dxy[3], adapt);
    colour_mat3_mul(adapt, m_in, t);
    colour_mat3_mul(inv_disp, t, x->to_display);
    image_colour_weights(in, x->lum);
    /* Rec. 709 on its own display: an exact identity (module comment). */
    colour_xform id;
    colour_xform_identity(&id);
    bool near_id = true;
    for (int i = 0; i < 9; i++)
        near_id = near_id && fabs(x->to_display[i] - id.to_display[i]) < 1e-9;
    if (near_id)
        memcpy(x->to_display, id.to_display, sizeof id.to_display);
    return true;
}

void colour_xform_apply(const colour_xform *x, const double in[3], double out[3])
{
    image_mat3_vec(x->to_display, in, out);
}

void colour_display_lum(int ds, double lum[3])
{
    double xy[4][2], m[9];
    colour_display_xy(ds, xy);
    image_rgb_to_xyz((const double(*)[2])xy, m);
    memcpy(lum, m + 3, 3 * sizeof(double));
}

void colour_gamut_apply(int g, const double display_lum[3], double rgb[3])
{
    double lo = fmin(rgb[0], fmin(rgb[1], rgb[2]));
    if (g != HT_GAMUT_COMPRESS || !(lo < 0.0))
        return;
    double y = display_lum[0] * rgb[0] + display_lum[1] * rgb[1] + display_lum[2] * rgb[2];
    double t = y > 0.0 ? y / (y - lo) : 0.0;
    for (int i = 0; i < 3; i++)
        rgb[i] = y > 0.0 ? y + t * (rgb[i] - y) : 0.0;
}

void colour_describe(const image_colour *c, int ds, char *buf, size_t len)
{
    const colour_space *s = colour_space_match(c);
    const double(*xy)[2] = image_colour_xy(c);
    char space[128];
    if (s)
        snprintf(space, sizeof space, "%s", s->label);
    else
        snprintf(space, sizeof space, "R %.3g,%.3g G %.3g,%.3g B %.3g,%.3g W %.4g,%.4g",
                 xy[0][0], xy[0][1], xy[1][0], xy[1][1], xy[2][0], xy[2][1], xy[3][0], xy[3][1]);
    snprintf(buf, len, "%s\nfrom %s, on %s", space, colour_source_name(c->source),
             ht_enum_label(colour_display_spaces, ds));
}

const char *colour_source_name(int source)
{
    static const char *const names[] = {"default", "chromaticities", "adoptedNeutral",
                                        "icc",     "cicp",           "option"};
    return source >= 0 && source < (int)(sizeof names / sizeof names[0]) ? names[source] : "?";
}
