#include "units.h"

#include <stdio.h>
#include <string.h>

#include "colour.h"
#include "gpu_shared.h"

const ht_enum units_rules[] = {
    {HT_UNITS_RADIANCE, "radiance", "Radiance: 179 lm/W x Radiance's RGB weights"},
    {HT_UNITS_WHITE_LUMINANCE, "white_luminance", "OpenEXR whiteLuminance"},
    {HT_UNITS_RELATIVE, "relative", "relative (the file gives no units)"},
    {HT_UNITS_USER, "user", "--scale"},
    {0, NULL, NULL},
};

void units_of_image(const hdr_image *img, double user_scale, image_units *u)
{
    static const double rec709[3] = {HT_LUM_R, HT_LUM_G, HT_LUM_B};
    static const double radiance[3] = {HT_RAD_LUM_R, HT_RAD_LUM_G, HT_RAD_LUM_B};
    bool rad = strcmp(img->format, "Radiance") == 0;
    memcpy(u->weights, rad ? radiance : rec709, sizeof u->weights);
    if (img->colour.source != IMAGE_COLOUR_DEFAULT)   /* the file's own primaries */
        image_colour_weights(&img->colour, u->weights);
    u->exposure = rad && img->exposure > 0 ? img->exposure : 1.0;
    snprintf(u->format, sizeof u->format, "%s", img->format);
    if (user_scale > 0) {
        u->rule = HT_UNITS_USER;
        u->scale = user_scale;
    } else if (rad) {
        u->rule = HT_UNITS_RADIANCE;
        u->scale = HT_WHTEFFICACY;
    } else if (img->white_luminance > 0) {
        u->rule = HT_UNITS_WHITE_LUMINANCE;
        u->scale = img->white_luminance;
    } else {
        u->rule = HT_UNITS_RELATIVE;
        u->scale = 1.0;
    }
}

double units_luminance(const image_units *u, const float rgb[3])
{
    return u->scale * (u->weights[0] * rgb[0] + u->weights[1] * rgb[1] + u->weights[2] * rgb[2]);
}

void units_describe(const image_units *u, char *buf, size_t len)
{
    const char *rule = ht_enum_label(units_rules, u->rule);
    if (u->rule == HT_UNITS_RADIANCE && u->exposure != 1.0)
        snprintf(buf, len, "%s, EXPOSURE %g divided out", rule, u->exposure);
    else if (u->rule == HT_UNITS_RADIANCE || u->rule == HT_UNITS_RELATIVE)
        snprintf(buf, len, "%s", rule);
    else if (u->rule == HT_UNITS_WHITE_LUMINANCE && strcmp(u->format, "OpenEXR") != 0)
        snprintf(buf, len, "%s's own units: %g cd/m^2 per unit", u->format, u->scale);
    else
        snprintf(buf, len, "%s: %g cd/m^2 per unit", rule, u->scale);
}
