/* The viewer's keys: the one key table (handling, the F1 help, `view --help`, the README's
 * key table), the actions the keys run, key names (--keys, xdotool), the --keys replay. */
#define _XOPEN_SOURCE 700   /* realpath, strdup, strtok_r, strncasecmp */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "human.h"
#include "png_export.h"
#include "viewer.h"
#include "viewer_internal.h"

/* ---------------------------------------------------------------------------------------
 * Key names: X keysym names (what xdotool and --keys take) and how the help shows them. */

typedef struct key_name {
    const char *name;      /* as --keys and xdotool spell it */
    const char *shown;     /* in the help (NULL: name) */
    int key, mods;
} key_name;

#define SHIFT GLFW_MOD_SHIFT
static const key_name KEY_NAMES[] = {
    {"F1", NULL, GLFW_KEY_F1, 0},           {"Escape", "Esc", GLFW_KEY_ESCAPE, 0},
    {"comma", ",", GLFW_KEY_COMMA, 0},      {"period", ".", GLFW_KEY_PERIOD, 0},
    {"bracketleft", "[", GLFW_KEY_LEFT_BRACKET, 0},
    {"bracketright", "]", GLFW_KEY_RIGHT_BRACKET, 0},
    {"backslash", "\\", GLFW_KEY_BACKSLASH, 0},
    {"slash", "/", GLFW_KEY_SLASH, 0},      {"question", "?", GLFW_KEY_SLASH, SHIFT},
    {"minus", "-", GLFW_KEY_MINUS, 0},      {"equal", "=", GLFW_KEY_EQUAL, 0},
    {"plus", "+", GLFW_KEY_EQUAL, SHIFT},   {"KP_Add", "keypad +", GLFW_KEY_KP_ADD, 0},
    {"KP_Subtract", "keypad -", GLFW_KEY_KP_SUBTRACT, 0},
    {"Left", NULL, GLFW_KEY_LEFT, 0},       {"Right", NULL, GLFW_KEY_RIGHT, 0},
    {"Up", NULL, GLFW_KEY_UP, 0},           {"Down", NULL, GLFW_KEY_DOWN, 0},
    {"Page_Up", "PageUp", GLFW_KEY_PAGE_UP, 0},
    {"Page_Down", "PageDown", GLFW_KEY_PAGE_DOWN, 0},
    {"Prior", "PageUp", GLFW_KEY_PAGE_UP, 0},
    {"Next", "PageDown", GLFW_KEY_PAGE_DOWN, 0},
    {"Home", NULL, GLFW_KEY_HOME, 0},       {"End", NULL, GLFW_KEY_END, 0},
    {"space", "Space", GLFW_KEY_SPACE, 0},  {"Tab", NULL, GLFW_KEY_TAB, 0},
    {"Return", "Enter", GLFW_KEY_ENTER, 0}, {"BackSpace", "Backspace", GLFW_KEY_BACKSPACE, 0},
};

/* Fills key and mods for NAME: a name above, a single letter or digit (an upper-case letter
 * means Shift), a character shown above, with optional "shift+", "ctrl+", "alt+" prefixes. */
static bool key_parse(const char *name, int *key, int *mods)
{
    *mods = 0;
    static const struct { const char *prefix; int mod; } prefixes[] = {
        {"shift+", GLFW_MOD_SHIFT}, {"ctrl+", GLFW_MOD_CONTROL}, {"control+", GLFW_MOD_CONTROL},
        {"alt+", GLFW_MOD_ALT}};
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
            size_t n = strlen(prefixes[i].prefix);
            if (strncasecmp(name, prefixes[i].prefix, n) == 0 && name[n]) {
                *mods |= prefixes[i].mod;
                name += n;
                again = true;
            }
        }
    }
    if (name[0] && !name[1]) {
        char c = name[0];
        if (c >= 'a' && c <= 'z') {
            *key = GLFW_KEY_A + (c - 'a');
            return true;
        }
        if (c >= 'A' && c <= 'Z') {
            *key = GLFW_KEY_A + (c - 'A');
            *mods |= SHIFT;
            return true;
        }
        if (c >= '0' && c <= '9') {
            *key = GLFW_KEY_0 + (c - '0');
            return true;
        }
    }
    for (size_t i = 0; i < sizeof KEY_NAMES / sizeof KEY_NAMES[0]; i++) {
        const key_name *k = &KEY_NAMES[i];
        if (strcmp(name, k->name) == 0 || (k->shown && strcmp(name, k->shown) == 0)) {
            *key = k->key;
            *mods |= k->mods;
            return true;
        }
    }
    if (name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
        int n = atoi(name + 1);
        if (n >= 1 && n <= 12) {
            *key = GLFW_KEY_F1 + n - 1;
            return true;
        }
    }
    return false;
}

static const char *mods_show(int mods)
{
    static const char *const names[] = {"", "Shift+", "Ctrl+", "Ctrl+Shift+"};
    return names[(mods & GLFW_MOD_SHIFT ? 1 : 0) | (mods & GLFW_MOD_CONTROL ? 2 : 0)];
}

/* How the help shows KEY+MODS: "L", "Shift+L", "?", "PageDown". */
static void key_show(int key, int mods, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof KEY_NAMES / sizeof KEY_NAMES[0]; i++)
        if (KEY_NAMES[i].key == key && KEY_NAMES[i].mods == mods) {
            snprintf(buf, len, "%s", KEY_NAMES[i].shown ? KEY_NAMES[i].shown : KEY_NAMES[i].name);
            return;
        }
    char base[32];
    if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z)
        snprintf(base, sizeof base, "%c", 'A' + (key - GLFW_KEY_A));
    else if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9)
        snprintf(base, sizeof base, "%c", '0' + (key - GLFW_KEY_0));
    else {
        snprintf(base, sizeof base, "key %d", key);
        for (size_t i = 0; i < sizeof KEY_NAMES / sizeof KEY_NAMES[0]; i++)
            if (KEY_NAMES[i].key == key && KEY_NAMES[i].mods == 0) {
                snprintf(base, sizeof base, "%s",
                         KEY_NAMES[i].shown ? KEY_NAMES[i].shown : KEY_NAMES[i].name);
                break;
            }
    }
    snprintf(buf, len, "%s%s", mods_show(mods), base);
}

/* ---------------------------------------------------------------------------------------
 * Actions (what the keys do) */

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* The latest analysis, read back now (waits for the GPU: used on key presses only). */
static const tonemap_result *current_result(viewer *v)
{
    if (v->have_image && v->frames > 0) {
        pipeline_read_result(v->pipe, &v->rb.r);
        v->rb.valid = true;
    }
    return v->rb.valid ? &v->rb.r : NULL;
}

/* A user range to adjust: the current one, or when automatic, the automatic range the last
 * frame used. False when there is none yet. */
static bool manual_range(viewer *v, double *lo, double *hi)
{
    if (v->tm.lmin > 0 && v->tm.lmax > v->tm.lmin) {
        *lo = v->tm.lmin;
        *hi = v->tm.lmax;
        return true;
    }
    const tonemap_result *r = current_result(v);
    if (!r || r->mapping == HT_MAP_NONE || !(r->bw_max > r->bw_min))
        return false;
    *lo = exp(r->bw_min);
    *hi = exp(r->bw_max);
    return true;
}

/* Range keys move in quarter decades, as pfsview's exposure keys move in steps. */
static const double RANGE_STEP = 1.7782794100389228; /* 10^0.25 */

static void act_range(viewer *v, int how)
{
    double lo, hi;
    if (!manual_range(v, &lo, &hi)) {
        viewer_set_message(v, true, "no luminance range yet (no valid pixel)");
        return;
    }
    switch (how) {
    case -1: lo /= RANGE_STEP; hi /= RANGE_STEP; break;          /* shift down */
    case +1: lo *= RANGE_STEP; hi *= RANGE_STEP; break;          /* shift up */
    case -2:                                                      /* narrow */
        if (hi / lo > RANGE_STEP * RANGE_STEP * 1.0001) {
            lo *= RANGE_STEP;
            hi /= RANGE_STEP;
        }
        break;
    case +2: lo /= RANGE_STEP; hi *= RANGE_STEP; break;          /* widen */
    }
    v->tm.lmin = clampd(lo, 1e-30, 1e29);
    v->tm.lmax = clampd(hi, v->tm.lmin * 1.0001, 1e30);
}

static void act_range_fit(viewer *v, int arg)
{
    (void)arg;
    if (!v->have_image || !(v->y_max > 0)) {
        viewer_set_message(v, true, "no valid pixel to fit the range to");
        return;
    }
    /* pcond's upper edge: counted pixels are below 1.01 * max. */
    v->tm.lmin = v->y_min * v->tm.scale;
    v->tm.lmax = v->y_max * v->tm.scale * 1.01;
}

static void act_range_auto(viewer *v, int arg)
{
    (void)arg;
    v->tm.lmin = v->tm.lmax = 0;
}

static const double DISPLAY_STEP = 1.4142135623730951; /* half a stop */

static void act_ldmax(viewer *v, int dir)
{
    double l = dir > 0 ? v->tm.ldmax * DISPLAY_STEP : v->tm.ldmax / DISPLAY_STEP;
    v->tm.ldmax = clampd(l, 1e-3, 1e6);
}

static void act_drange(viewer *v, int dir)
{
    double d = dir > 0 ? v->tm.drange * DISPLAY_STEP : v->tm.drange / DISPLAY_STEP;
    v->tm.drange = clampd(d, 1.001, 1e6);
}

/* linear -> human -> none -> linear */
static void act_ceiling(viewer *v, int arg)
{
    (void)arg;
    v->tm.ceiling = ht_enum_next(tonemap_ceilings, v->tm.ceiling);
}

/* *CHOICE to the next of CHOICES, and the parameter it needs, *PARAM, to DEFAULT when unset. */
static void next_choice(int *choice, const ht_enum *choices, double *param, double dflt)
{
    *choice = ht_enum_next(choices, *choice);
    if (!(*param > 0))
        *param = dflt;
}

static void act_sampling(viewer *v, int arg)
{
    (void)arg;
    next_choice(&v->tm.sampling, tonemap_samplings, &v->tm.fov, 40);
}

static void act_points(viewer *v, int arg)
{
    (void)arg;
    v->tm.point_samples = !v->tm.point_samples;
    if (v->tm.sampling != HT_SAMPLING_FOVEAL)
        viewer_set_message(v, false, "point samples %s (they count with foveal sampling only: O)",
                    v->tm.point_samples ? "on" : "off");
}

static void act_weights(viewer *v, int arg)
{
    (void)arg;
    v->tm.luminance = ht_enum_next(tonemap_luminances, v->tm.luminance);
    viewer_update_y_range(v);
}

static void act_linear(viewer *v, int arg)
{
    (void)arg;
    v->tm.force_linear = !v->tm.force_linear;
}

/* The human-vision options (human.h), each on its own key: ARG 0 veil, 1 acuity, 2 colour. */
static void act_human(viewer *v, int arg)
{
    bool *opt[] = {&v->tm.veil, &v->tm.acuity, &v->tm.color_loss};
    *opt[arg] = !*opt[arg];
}

/* Shift+H: what --human sets (the three and the human ceiling) when not all three are on,
 * else the three off (the ceiling stays: C). */
static void act_human_all(viewer *v, int arg)
{
    (void)arg;
    if (v->tm.veil && v->tm.acuity && v->tm.color_loss)
        v->tm.veil = v->tm.acuity = v->tm.color_loss = false;
    else
        human_params_all(&v->tm);
}

/* Shift+P: the pcond preset, or back to the defaults; the ceiling, forced linear, transfer,
 * scale and a set range stay as they are. */
static void act_pcond(viewer *v, int arg)
{
    (void)arg;
    tonemap_params keep = v->tm;
    tonemap_apply_preset(&v->tm, v->tm.pcond ? HT_PRESET_DEFAULT : HT_PRESET_PCOND);
    v->tm.ceiling = keep.ceiling;
    v->tm.force_linear = keep.force_linear;
    v->tm.transfer = keep.transfer;
    v->tm.gamma = keep.gamma;
    v->tm.scale = keep.scale;
    v->tm.lmin = keep.lmin;
    v->tm.lmax = keep.lmax;
    /* (The status text says "preset pcond": no message over the picture.) */
    viewer_update_y_range(v);
}

/* Statistics panel and markers. */

static void act_hist_mode(viewer *v, int arg)
{
    (void)arg;
    v->hist_mode = (v->hist_mode + 1) % HIST_MODES;
    v->show_overlay = true;
}

static void act_marks(viewer *v, int arg)
{
    (void)arg;
    v->show_marks = !v->show_marks;
}

static void act_bins(viewer *v, int dir)
{
    int b = dir > 0 ? v->tm.bins * 2 : v->tm.bins / 2;
    v->tm.bins = b < HT_MIN_BINS ? HT_MIN_BINS : b > HT_MAX_BINS ? HT_MAX_BINS : b;
}

static void act_transfer(viewer *v, int arg)
{
    (void)arg;
    next_choice(&v->tm.transfer, tonemap_transfers, &v->tm.gamma, 2.2);
}

static void act_msaa(viewer *v, int arg)
{
    (void)arg;
    /* The next count the driver really gives (llvmpipe offers 1 and 4, not 2), then back to 1. */
    bool f32 = !v->img.half_exact;
    int cur = pass_scene_samples(v->scene, v->msaa, f32);
    for (int n = 2; n <= 8; n *= 2) {
        int got = pass_scene_samples(v->scene, n, f32);
        if (got > cur) {
            v->msaa = got;
            return;
        }
    }
    v->msaa = 1;
}

static void act_overlay(viewer *v, int arg) { (void)arg; v->show_overlay = !v->show_overlay; }
static void act_help(viewer *v, int arg) { (void)arg; v->show_help = !v->show_help; }
static void act_adapt(viewer *v, int arg) { (void)arg; v->adapt_view = !v->adapt_view; }

/* Zoom keys zoom at the window's centre (the wheel at the cursor). */
static void act_zoom(viewer *v, int dir)
{
    v->view = view_zoom_at(v->view, dir > 0 ? 2.0 : 0.5,
                           (view_point){v->fb_w / 2.0, v->fb_h / 2.0}, v->fb_w, v->fb_h);
}

static void act_fit(viewer *v, int arg) { (void)arg; viewer_fit(v); }

static void act_one(viewer *v, int arg)
{
    (void)arg;
    v->view.zoom = 1;
}

/* Arrow keys scroll the view: ARG is the direction (1 right, 2 left, 3 down, 4 up), x4 with
 * Shift (the table's Shift entries pass +10). */
static void act_pan(viewer *v, int arg)
{
    double step = arg > 10 ? 256.0 : 64.0;   /* window pixels; the image moves the other way */
    switch (arg % 10) {
    case 1: v->view = view_pan(v->view, -step, 0); break;
    case 2: v->view = view_pan(v->view, step, 0); break;
    case 3: v->view = view_pan(v->view, 0, -step); break;
    case 4: v->view = view_pan(v->view, 0, step); break;
    }
}

/* S: the full image through pipeline_tonemap_image with the current settings, exactly what
 * `hdrtone export` computes, to ./NAME_tonemapped[-N].png; O_EXCL claims a free name, so an
 * existing file is never overwritten. */
static void act_export(viewer *v, int arg)
{
    (void)arg;
    if (!v->have_image) {
        viewer_set_message(v, true, "nothing to export: no image loaded");
        return;
    }
    const char *base = viewer_base_name(v->files[v->cur]);
    const char *dot = strrchr(base, '.');
    int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    const char *net = viewer_net_name(v, v->files[v->cur]);
    char safe[201];
    if (net) {   /* a network image's name, whole, made safe for a file name */
        size_t n = 0;
        for (; net[n] && n + 1 < sizeof safe; n++)
            safe[n] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
                             net[n]) ? net[n] : '_';
        safe[n] = '\0';
        base = safe;
        stem = (int)n;
    }
    char path[512];
    int fd = -1;
    for (int i = 1; i < 10000 && fd < 0; i++) {
        if (i == 1)
            snprintf(path, sizeof path, "%.*s_tonemapped.png", stem, base);
        else
            snprintf(path, sizeof path, "%.*s_tonemapped-%d.png", stem, base, i);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 && errno != EEXIST) {
            viewer_set_message(v, true, "export: %s: %s", path, strerror(errno));
            return;
        }
    }
    if (fd < 0) {
        viewer_set_message(v, true, "export: no free name for %.*s_tonemapped-N.png", stem, base);
        return;
    }
    close(fd);
    char err[HT_ERR_MAX];
    uint8_t *rgb = malloc((size_t)v->img.width * v->img.height * 3);
    if (!rgb)
        snprintf(err, sizeof err, "out of memory");
    bool ok = rgb && pipeline_tonemap_image(v->pipe, &v->img, &v->tm, NULL, rgb, err, sizeof err) &&
              png_write_atomic(path, rgb, v->img.width, v->img.height, err, sizeof err);
    free(rgb);
    if (!ok) {
        unlink(path);   /* the name we claimed, still empty */
        viewer_set_message(v, true, "export failed: %s", err);
        return;
    }
    char full[PATH_MAX];
    viewer_set_message(v, false, "exported %s", realpath(path, full) ? full : path);
}

static void act_quit(viewer *v, int arg)
{
    /* Esc first closes the help, as dialogs do. */
    if (arg == 1 && v->show_help) {
        v->show_help = false;
        return;
    }
    v->quit = true;
}

typedef void (*key_action)(viewer *v, int arg);

typedef struct key_binding {
    int key, mods;
    key_action fn;
    int arg;
    const char *help;   /* consecutive entries with the same text share one help line */
} key_binding;

/* THE key table: handling, the help overlay, `view --help` and the README's key table
 * (hdrtone --help-keys-markdown, scripts/update-readme) all come from it.
 * Conventions: pfsview for the range keys (, . [ ] \) and PageUp/PageDown; tev for a lower-case
 * letter raising a value and Shift+letter lowering it, F fit, wheel zoom at the cursor. Where
 * a letter is no value's, Shift+letter is a switch of its own, named by the letter: Shift+P
 * the pcond preset, Shift+V, A, C, H pcond's Veil, Acuity, Colour loss and all (Human). */
static const key_binding KEYS[] = {
    {GLFW_KEY_F1, 0, act_help, 0, "show/hide this help"},
    {GLFW_KEY_SLASH, SHIFT, act_help, 0, "show/hide this help"},
    {GLFW_KEY_COMMA, 0, act_range, -1, "luminance range down / up (1/4 decade)"},
    {GLFW_KEY_PERIOD, 0, act_range, +1, "luminance range down / up (1/4 decade)"},
    {GLFW_KEY_LEFT_BRACKET, 0, act_range, -2, "narrow / widen the luminance range"},
    {GLFW_KEY_RIGHT_BRACKET, 0, act_range, +2, "narrow / widen the luminance range"},
    {GLFW_KEY_BACKSLASH, 0, act_range_fit, 0, "fit the luminance range to the image"},
    {GLFW_KEY_A, 0, act_range_auto, 0, "automatic luminance range"},
    {GLFW_KEY_L, 0, act_ldmax, +1, "display maximum Ldmax up / down (half a stop)"},
    {GLFW_KEY_L, SHIFT, act_ldmax, -1, "display maximum Ldmax up / down (half a stop)"},
    {GLFW_KEY_D, 0, act_drange, +1, "display dynamic range up / down (half a stop)"},
    {GLFW_KEY_D, SHIFT, act_drange, -1, "display dynamic range up / down (half a stop)"},
    {GLFW_KEY_C, 0, act_ceiling, 0, "ceiling: linear / human / none"},
    {GLFW_KEY_V, SHIFT, act_human, 0, "veiling glare (--veil, pcond -v) on / off"},
    {GLFW_KEY_A, SHIFT, act_human, 1, "loss of acuity (--acuity, pcond -a) on / off"},
    {GLFW_KEY_C, SHIFT, act_human, 2, "loss of colour (--color-loss, pcond -c) on / off"},
    {GLFW_KEY_H, SHIFT, act_human_all, 0,
     "human vision (--human): the three above and the human ceiling / the three off"},
    {GLFW_KEY_K, 0, act_linear, 0, "force the linear mapping (pcond -l) on / off"},
    {GLFW_KEY_B, 0, act_bins, +1, "histogram bins x2 / /2"},
    {GLFW_KEY_B, SHIFT, act_bins, -1, "histogram bins x2 / /2"},
    {GLFW_KEY_O, 0, act_sampling, 0, "histogram samples: every pixel / foveal (1 per degree)"},
    {GLFW_KEY_I, 0, act_points, 0, "pcond point samples (with foveal sampling) on / off"},
    {GLFW_KEY_W, 0, act_weights, 0, "luminance weights: Rec. 709 / Radiance"},
    {GLFW_KEY_P, SHIFT, act_pcond, 0, "pcond preset / default settings"},
    {GLFW_KEY_G, 0, act_transfer, 0, "display transfer: sRGB / gamma"},
    {GLFW_KEY_M, 0, act_msaa, 0, "MSAA: 1, 2, 4, 8 samples (as the GPU allows)"},
    {GLFW_KEY_V, 0, act_adapt, 0, "adapt to: whole image / what is in view"},
    {GLFW_KEY_H, 0, act_overlay, 0, "overlay (histogram, curve, text) on / off"},
    {GLFW_KEY_TAB, 0, act_hist_mode, 0, "histogram panel: log-luminance + curve / RGBA / grey"},
    {GLFW_KEY_X, 0, act_marks, 0, "mark the brightest pixel and the brightest peaks (--peaks)"},
    {GLFW_KEY_EQUAL, 0, act_zoom, +1, "zoom in (also the mouse wheel, at the cursor)"},
    {GLFW_KEY_EQUAL, SHIFT, act_zoom, +1, "zoom in (also the mouse wheel, at the cursor)"},
    {GLFW_KEY_KP_ADD, 0, act_zoom, +1, "zoom in (also the mouse wheel, at the cursor)"},
    {GLFW_KEY_MINUS, 0, act_zoom, -1, "zoom out"},
    {GLFW_KEY_KP_SUBTRACT, 0, act_zoom, -1, "zoom out"},
    {GLFW_KEY_F, 0, act_fit, 0, "fit the image to the window"},
    {GLFW_KEY_1, 0, act_one, 0, "zoom 1:1 (one image pixel per screen pixel)"},
    {GLFW_KEY_LEFT, 0, act_pan, 2, "pan (also: drag with the left button)"},
    {GLFW_KEY_RIGHT, 0, act_pan, 1, "pan (also: drag with the left button)"},
    {GLFW_KEY_UP, 0, act_pan, 4, "pan (also: drag with the left button)"},
    {GLFW_KEY_DOWN, 0, act_pan, 3, "pan (also: drag with the left button)"},
    {GLFW_KEY_LEFT, SHIFT, act_pan, 12, "pan 4x further"},
    {GLFW_KEY_RIGHT, SHIFT, act_pan, 11, "pan 4x further"},
    {GLFW_KEY_UP, SHIFT, act_pan, 14, "pan 4x further"},
    {GLFW_KEY_DOWN, SHIFT, act_pan, 13, "pan 4x further"},
    {GLFW_KEY_PAGE_DOWN, 0, viewer_file_step, +1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_N, 0, viewer_file_step, +1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_PAGE_UP, 0, viewer_file_step, -1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_P, 0, viewer_file_step, -1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_E, 0, viewer_part_step, +1, "next / previous part of a multi-part EXR"},
    {GLFW_KEY_E, SHIFT, viewer_part_step, -1, "next / previous part of a multi-part EXR"},
    {GLFW_KEY_Y, 0, viewer_layer_step, +1, "next / previous layer (channel-name prefix)"},
    {GLFW_KEY_Y, SHIFT, viewer_layer_step, -1, "next / previous layer (channel-name prefix)"},
    {GLFW_KEY_SPACE, 0, viewer_seq_key, 0, "sequence (hdrtone shot.%04d.exr): play / pause"},
    {GLFW_KEY_LEFT, GLFW_MOD_CONTROL, viewer_seq_key, -1, "sequence: previous / next frame"},
    {GLFW_KEY_RIGHT, GLFW_MOD_CONTROL, viewer_seq_key, +1, "sequence: previous / next frame"},
    {GLFW_KEY_HOME, 0, viewer_seq_key, -2, "sequence: first / last frame"},
    {GLFW_KEY_END, 0, viewer_seq_key, +2, "sequence: first / last frame"},
    {GLFW_KEY_R, 0, viewer_reload, 0, "reload the file"},
    {GLFW_KEY_U, 0, viewer_watch_key, 0, "watch the file: reload it when it changes (--watch)"},
    {GLFW_KEY_S, 0, act_export, 0, "export PNG (as `hdrtone export`) to ./NAME_tonemapped.png"},
    {GLFW_KEY_ESCAPE, 0, act_quit, 1, "quit (Esc first closes the help)"},
    {GLFW_KEY_Q, 0, act_quit, 0, "quit (Esc first closes the help)"},
};
#define N_KEYS (sizeof KEYS / sizeof KEYS[0])

_Static_assert(N_KEYS <= KEY_HELP_MAX, "viewer_keys_help_lines needs room for every key");

/* The end of the run of entries from I with the same help text: one help line. */
static size_t run_end(size_t i)
{
    size_t j = i;
    while (j < N_KEYS && strcmp(KEYS[j].help, KEYS[i].help) == 0)
        j++;
    return j;
}

/* The keys of entries [I, J) into OUT: names separated by blanks, each between QUOTE marks
 * ("" for the help, "`" for Markdown); a modifier all of several share, once:
 * "Shift+(Left Right Up Down)". */
static void keys_format(size_t i, size_t j, const char *quote, char *out, size_t cap)
{
    bool common = KEYS[i].mods != 0 && j - i > 1;
    for (size_t k = i; k < j; k++)
        common &= KEYS[k].mods == KEYS[i].mods;
    size_t len = 0;
    out[0] = '\0';
    if (common)
        len = (size_t)snprintf(out, cap, "%s(", mods_show(KEYS[i].mods));
    for (size_t k = i; k < j && len < cap; k++) {
        char name[64];
        key_show(KEYS[k].key, common ? 0 : KEYS[k].mods, name, sizeof name);
        len += (size_t)snprintf(out + len, cap - len, "%s%s%s%s", k > i ? " " : "", quote, name,
                                quote);
    }
    if (common && len < cap)
        snprintf(out + len, cap - len, ")");
}

int viewer_keys_help_lines(char (*lines)[2][96], int max)
{
    int n = 0;
    for (size_t i = 0; i < N_KEYS && n < max; i = run_end(i), n++) {
        keys_format(i, run_end(i), "", lines[n][0], sizeof lines[n][0]);
        snprintf(lines[n][1], sizeof lines[n][1], "%s", KEYS[i].help);
    }
    return n;
}

void viewer_print_keys(FILE *f)
{
    char lines[KEY_HELP_MAX][2][96];
    int n = viewer_keys_help_lines(lines, KEY_HELP_MAX);
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-26s %s\n", lines[i][0], lines[i][1]);
}

void viewer_print_keys_markdown(FILE *f)
{
    fprintf(f, "| keys | action |\n|---|---|\n");
    for (size_t i = 0; i < N_KEYS; i = run_end(i)) {
        char keys[256];
        keys_format(i, run_end(i), "`", keys, sizeof keys);
        fprintf(f, "| %s | ", keys);
        for (const char *c = KEYS[i].help; *c; c++) {
            if (*c == '|')
                fputc('\\', f);   /* a '|' would end the table cell */
            fputc(*c, f);
        }
        fprintf(f, " |\n");
    }
}

void viewer_key(viewer *v, int key, int mods)
{
    mods &= GLFW_MOD_SHIFT | GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER;
    for (size_t i = 0; i < N_KEYS; i++)
        if (KEYS[i].key == key && KEYS[i].mods == mods) {
            KEYS[i].fn(v, KEYS[i].arg);
            v->dirty = true;
            return;
        }
}

bool viewer_parse_replay(viewer *v, const char *keys)
{
    size_t len = strlen(keys);
    v->replay = calloc(len / 1 + 1, sizeof *v->replay);
    if (!v->replay)
        return false;
    char *copy = strdup(keys), *save = NULL;
    if (!copy)
        return false;
    for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        int key, mods;
        if (!key_parse(tok, &key, &mods)) {
            fprintf(stderr, "hdrtone: --keys: unknown key '%s' (names as xdotool: a, A, "
                            "shift+Up, comma, period, F1, Page_Down, ...)\n", tok);
            free(copy);
            return false;
        }
        v->replay[v->nreplay][0] = key;
        v->replay[v->nreplay][1] = mods;
        v->nreplay++;
    }
    free(copy);
    return true;
}

