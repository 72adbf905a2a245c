#include "settings.h"

#include "flip.h"
#include "gpu_shared.h"
#include "legend.h"

#include <math.h>

/* Spans: what a slider's width should cover with a useful resolution; the typed fields take
 * the whole limits. The luminance ranges are wide because files in relative units go far
 * below 1 and --scale can put a scene anywhere. */
const ht_setting ht_settings[HT_SET_COUNT] = {
    [HT_SET_BINS] = {"bins", true, HT_MIN_BINS, HT_MAX_BINS, 100, HT_MIN_BINS, HT_MAX_BINS,
                     false, 1, "bins", "histogram bins over the luminance range"},
    [HT_SET_LMIN] = {"lmin", false, 1e-30, 1e30, 0, 1e-6, 1e8, true, 0, "Lmin",
                     "lower end of the world luminance range, cd/m2"},
    [HT_SET_LMAX] = {"lmax", false, 1e-30, 1e30, 0, 1e-6, 1e8, true, 0, "Lmax",
                     "upper end of the world luminance range, cd/m2"},
    [HT_SET_LDMAX] = {"ldmax", false, 1e-3, 1e6, 100, 1, 1e4, true, 0, "Ldmax",
                      "display white, cd/m2: it changes the picture only with the human ceiling"},
    [HT_SET_DRANGE] = {"drange", false, 1.001, 1e6, 100, 2, 1e5, true, 0, "Dr",
                       "display dynamic range Ldmax/Ldmin"},
    [HT_SET_FOV] = {"fov", false, 1, 120, 40, 1, 120, false, 0, "fov",
                    "foveal sampling: degrees the picture's longer side spans"},
    [HT_SET_EXPOSURE] = {"exposure", false, -64, 64, 0, -20, 20, false, 0.5, "exposure EV",
                         "value x 2^EV + offset"},
    [HT_SET_OFFSET] = {"offset", false, -1e6, 1e6, 0, -0.5, 0.5, false, 0, "offset",
                       "added after the exposure"},
    [HT_SET_FC_MAX] = {"fc-max", false, 1e-30, 1e30, 1000, 1e-3, 1e9, true, 0, "max",
                       "top of the false-colour scale, cd/m2 (automatic: 0)"},
    [HT_SET_FC_LOG] = {"fc-log", true, 0, 20, 0, 0, 20, false, 1, "decades",
                       "logarithmic over this many decades below the top; 0: linear"},
    [HT_SET_FC_STEPS] = {"fc-steps", true, 2, LEGEND_MAX_STEPS, 8, 2, LEGEND_MAX_STEPS, false,
                         1, "steps", "steps of the legend, bands and contours"},
    [HT_SET_PPD] = {"ppd", false, FLIP_MIN_PPD, FLIP_MAX_PPD, 0, FLIP_MIN_PPD, FLIP_MAX_PPD, true,
                    0, "px/deg", "FLIP's pixels per degree of the observer"},
    [HT_SET_MSAA] = {"msaa", true, 1, 8, 4, 1, 8, false, 1, "MSAA",
                     "samples per pixel of the picture: 1, 2, 4 or 8"},
    [HT_SET_UI_SCALE] = {"ui-scale", false, 0.5, 4, 1, 0.5, 4, false, 0, "UI scale",
                         "the GUI's scale on top of the monitor's"},
};

const ht_enum ht_layouts[] = {
    {HT_LAYOUT_SINGLE, "single", "single picture"},
    {HT_LAYOUT_SIDE, "side-by-side", "side by side"},
    {HT_LAYOUT_GRID, "grid", "grid"},
    {0, NULL, NULL},
};

double ht_setting_clamp(ht_setting_id id, double x)
{
    const ht_setting *s = &ht_settings[id];
    if (!(x >= s->min))   /* also NaN */
        x = s->min;
    if (x > s->max)
        x = s->max;
    return s->integer ? floor(x + 0.5) : x;
}

bool ht_setting_valid(ht_setting_id id, double x)
{
    const ht_setting *s = &ht_settings[id];
    return x >= s->min && x <= s->max && (!s->integer || x == floor(x));
}
