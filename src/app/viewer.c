/* The interactive viewer: window, input, view transform, the frame (scene pass -> analyse ->
 * apply -> present -> overlay), the key table, and the test hooks (--keys, --screenshot). */
#define _XOPEN_SOURCE 700   /* realpath, opendir, strcasecmp, clock_gettime */

#include "viewer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "gl_context.h"
#include "image.h"
#include "imgstats_gpu.h"
#include "overlay.h"
#include "pass_scene.h"
#include "pipeline.h"
#include "png_export.h"

typedef struct viewer viewer;

/* ---------------------------------------------------------------------------------------
 * State */

/* A copy of the frame buffer read back without stalling: copied into rb_buf after the
 * analysis, fenced, and fetched once the fence has passed (a frame or so later). The text
 * lines and the range keys use it; the overlay's plots read the GPU buffer directly. */
typedef struct readback {
    unsigned buf;
    GLsync fence;
    tonemap_result r;
    bool valid;
} readback;

struct viewer {
    GLFWwindow *win;
    pipeline *pipe;
    pass_scene *scene;
    overlay *ovl;
    unsigned present_fbo;      /* reads the pipeline's output texture for the blit */
    readback rb;

    /* Files: owned copies; cur indexes the shown one. */
    char **files;
    int nfiles, cur;
    hdr_image img;
    bool have_image;
    unsigned long image_gen;   /* counts successful loads: the statistics' cache key */
    double y_min, y_max;       /* valid luminance of the image in image units (no scale), by
                                  the current luminance weights */
    char load_err[HT_ERR_MAX];

    /* Parts and layers (issue 5): what the next load asks for. Unset = the command line's
     * --part/--layer (opt_*), else the loader's default; a new file unsets them. */
    const char *opt_part, *opt_layer;
    double max_pixels;
    bool part_set, layer_set;
    char part_sel[16], layer_sel[64];
    int part_idx, part_count;  /* of the file, kept when a part fails to load */
    char layers[192];          /* the part's layers as hdr_part_info lists them */

    /* Statistics (issue 4), computed on demand for the whole image (see stats_update). */
    int hist_mode;             /* HIST_* */
    bool show_marks;
    int grey_kernel;
    int peaks, min_distance;  /* what X marks: --peaks (default VIEW_PEAKS), --min-distance */
    imgstats_gpu_ctx *stats_ctx;
    imgstats stats;
    bool stats_tried, stats_ok;
    unsigned long stats_gen;   /* image_gen and params of the cached answer */
    tonemap_params stats_tm;

    /* View: ZOOM window pixels per image pixel, image point (cx, cy) at the window centre. */
    double zoom, cx, cy;
    bool view_fresh;           /* set the initial view on the next frame (size known then) */
    int fb_w, fb_h;

    /* Settings the keys change. */
    tonemap_params tm;
    int msaa;                  /* asked for; the target gets pass_scene_samples() of it */
    int samples;               /* what the last frame got */
    bool show_overlay, show_help, adapt_view;

    /* Input. */
    double mouse_x, mouse_y;   /* framebuffer pixels, y down */
    bool mouse_in, dragging;

    char message[HT_ERR_MAX + 64];
    bool message_error;
    bool dirty, quit;

    /* Test hooks. */
    bool testing;              /* --keys or --screenshot: redraw without waiting, sync reads */
    int (*replay)[2];          /* key, mods */
    int nreplay, replayed;
    long frames;
};

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

static void set_message(viewer *v, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_message(viewer *v, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    v->message_error = error;
    fprintf(stderr, "hdrtone: %s\n", v->message);
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

static bool load_current(viewer *v);
static const char *base_name(const char *path);

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
        set_message(v, true, "no luminance range yet (no valid pixel)");
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
        set_message(v, true, "no valid pixel to fit the range to");
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
    v->tm.ldmax = clampd(dir > 0 ? v->tm.ldmax * DISPLAY_STEP : v->tm.ldmax / DISPLAY_STEP, 1e-3, 1e6);
}

static void act_drange(viewer *v, int dir)
{
    v->tm.drange = clampd(dir > 0 ? v->tm.drange * DISPLAY_STEP : v->tm.drange / DISPLAY_STEP, 1.001, 1e6);
}

/* linear -> human -> none -> linear */
static void act_ceiling(viewer *v, int arg)
{
    (void)arg;
    v->tm.ceiling = v->tm.ceiling == HT_CEILING_LINEAR  ? HT_CEILING_HUMAN
                    : v->tm.ceiling == HT_CEILING_HUMAN ? HT_CEILING_NONE
                                                        : HT_CEILING_LINEAR;
}

static void update_y_range(viewer *v);

static void act_sampling(viewer *v, int arg)
{
    (void)arg;
    v->tm.sampling = v->tm.sampling == HT_SAMPLING_FOVEAL ? HT_SAMPLING_PIXELS : HT_SAMPLING_FOVEAL;
    if (!(v->tm.fov > 0))
        v->tm.fov = 40;
}

static void act_points(viewer *v, int arg)
{
    (void)arg;
    v->tm.point_samples = !v->tm.point_samples;
    if (v->tm.sampling != HT_SAMPLING_FOVEAL)
        set_message(v, false, "point samples %s (they count with foveal sampling only: O)",
                    v->tm.point_samples ? "on" : "off");
}

static void act_weights(viewer *v, int arg)
{
    (void)arg;
    v->tm.luminance = v->tm.luminance == HT_LUMINANCE_RADIANCE ? HT_LUMINANCE_REC709
                                                               : HT_LUMINANCE_RADIANCE;
    update_y_range(v);
}

static void act_linear(viewer *v, int arg)
{
    (void)arg;
    v->tm.force_linear = !v->tm.force_linear;
}

/* Shift+P: the pcond preset (tonemap_params_preset_pcond), or back to the defaults; the
 * ceiling, forced linear, transfer, scale and a set range stay as they are. */
static void act_pcond(viewer *v, int arg)
{
    (void)arg;
    tonemap_params keep = v->tm;
    if (v->tm.pcond)
        tonemap_params_default(&v->tm);
    else
        tonemap_params_preset_pcond(&v->tm);
    v->tm.ceiling = keep.ceiling;
    v->tm.force_linear = keep.force_linear;
    v->tm.transfer = keep.transfer;
    v->tm.gamma = keep.gamma;
    v->tm.scale = keep.scale;
    v->tm.lmin = keep.lmin;
    v->tm.lmax = keep.lmax;
    update_y_range(v);   /* (the status text says "preset pcond": no message over the picture) */
}

/* Statistics panel and markers (issue 4). */
enum { HIST_LOG, HIST_RGBA, HIST_GREY, HIST_MODES };
enum { VIEW_PEAKS = 8 };   /* peaks marked by X when --peaks does not say */

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
    v->tm.transfer = v->tm.transfer == HT_TRANSFER_SRGB ? HT_TRANSFER_GAMMA : HT_TRANSFER_SRGB;
    if (!(v->tm.gamma > 0))
        v->tm.gamma = 2.2;
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

/* Zoom by FACTOR keeping the image point under window pixel (ax, ay) where it is. */
static void zoom_at(viewer *v, double factor, double ax, double ay)
{
    double z = clampd(v->zoom * factor, 1.0 / 256, 256);
    if (fabs(z - 1) < 1e-3)
        z = 1;   /* land exactly on 1:1 */
    /* Image point under the anchor before, and the centre that keeps it there after. */
    double ix = v->cx + (ax - v->fb_w / 2.0) / v->zoom;
    double iy = v->cy + (ay - v->fb_h / 2.0) / v->zoom;
    v->cx = ix - (ax - v->fb_w / 2.0) / z;
    v->cy = iy - (ay - v->fb_h / 2.0) / z;
    v->zoom = z;
}

static void act_zoom(viewer *v, int dir)
{
    zoom_at(v, dir > 0 ? 2.0 : 0.5, v->fb_w / 2.0, v->fb_h / 2.0);
}

/* What the view frames, in absolute pixel coordinates (edges, exclusive end): the display
 * window and the data window together, so neither is cut off (the data window may lie partly
 * or wholly outside the display window, at negative coordinates too). */
static void frame_box(const hdr_image *img, double box[4])
{
    const int *dw = img->data_window, *dp = img->display_window;
    bool disp = dp[2] >= dp[0] && dp[3] >= dp[1];
    box[0] = disp ? fmin(dw[0], dp[0]) : dw[0];
    box[1] = disp ? fmin(dw[1], dp[1]) : dw[1];
    box[2] = disp ? fmax(dw[0] + img->width, dp[2] + 1.0) : dw[0] + img->width;
    box[3] = disp ? fmax(dw[1] + img->height, dp[3] + 1.0) : dw[1] + img->height;
}

/* The view's centre (cx, cy) is in absolute pixel coordinates: the data window's pixel
 * (0, 0) covers [dw0, dw0 + 1) x [dw1, dw1 + 1). */
static void view_fit(viewer *v)
{
    if (!v->have_image || v->fb_w <= 0 || v->fb_h <= 0)
        return;
    double b[4];
    frame_box(&v->img, b);
    /* A margin for the display window's frame when there is one. */
    bool frame = memcmp(v->img.data_window, v->img.display_window, sizeof v->img.data_window) != 0;
    double m = frame ? 16 : 0;
    v->zoom = fmin(fmax(v->fb_w - m, 1) / (b[2] - b[0]), fmax(v->fb_h - m, 1) / (b[3] - b[1]));
    v->cx = (b[0] + b[2]) / 2.0;
    v->cy = (b[1] + b[3]) / 2.0;
}

static void act_fit(viewer *v, int arg) { (void)arg; view_fit(v); }

static void act_one(viewer *v, int arg)
{
    (void)arg;
    v->zoom = 1;
}

/* Arrow keys scroll the view: ARG is the direction (1 right, 2 left, 3 down, 4 up), x4 with
 * Shift (the table's Shift entries pass +10). */
static void act_pan(viewer *v, int arg)
{
    double step = (arg > 10 ? 256.0 : 64.0) / v->zoom;
    switch (arg % 10) {
    case 1: v->cx += step; break;
    case 2: v->cx -= step; break;
    case 3: v->cy += step; break;
    case 4: v->cy -= step; break;
    }
}

static void act_file(viewer *v, int dir)
{
    if (v->nfiles <= 1) {
        set_message(v, false, "no other file (give several, or one in a folder of HDR files)");
        return;
    }
    v->cur = (v->cur + dir + v->nfiles) % v->nfiles;
    v->part_set = v->layer_set = false;
    v->part_count = 0;
    load_current(v);
}

/* Loads files[cur] again (another part or layer, or the same), keeping the view when the
 * windows have not changed. */
static bool reload_keep_view(viewer *v)
{
    bool had = v->have_image;
    int dw[4], dsp[4];
    memcpy(dw, v->img.data_window, sizeof dw);
    memcpy(dsp, v->img.display_window, sizeof dsp);
    double zoom = v->zoom, cx = v->cx, cy = v->cy;
    if (!load_current(v))
        return false;
    if (had && memcmp(dw, v->img.data_window, sizeof dw) == 0 &&
        memcmp(dsp, v->img.display_window, sizeof dsp) == 0) {
        v->zoom = zoom;
        v->cx = cx;
        v->cy = cy;
        v->view_fresh = false;
    }
    return true;
}

static void act_reload(viewer *v, int arg)
{
    (void)arg;
    if (reload_keep_view(v))
        set_message(v, false, "reloaded %s", v->files[v->cur]);
}

/* E / Shift+E: the next / previous part of a multi-part file (its default layer). */
static void act_part(viewer *v, int dir)
{
    int n = v->part_count;
    if (n <= 1) {
        set_message(v, false, "%s has one part only", base_name(v->files[v->cur]));
        return;
    }
    int k = ((v->part_idx + dir) % n + n) % n;
    snprintf(v->part_sel, sizeof v->part_sel, "%d", k);
    v->part_set = true;
    v->layer_set = false;
    v->part_idx = k;
    if (reload_keep_view(v))
        set_message(v, false, "part %d/%d%s%s%s, layer %s", k + 1, n,
                    v->img.part_name[0] ? " '" : "", v->img.part_name,
                    v->img.part_name[0] ? "'" : "", v->img.layer[0] ? v->img.layer : "(none)");
}

/* The layers of the part: "(none)" stands for the un-prefixed channels (""). Returns the
 * count written to names (at most MAX). */
static int layer_names(const viewer *v, char (*names)[64], int max)
{
    int n = 0;
    const char *s = v->layers;
    while (*s && n < max) {
        size_t len = strcspn(s, ",");
        if (len < 64 && !(len >= 3 && strncmp(s + len - 3, "...", 3) == 0)) {
            snprintf(names[n], 64, "%.*s", (int)len, s);
            if (strcmp(names[n], "(none)") == 0)
                names[n][0] = '\0';
            n++;
        }
        s += len + (s[len] == ',');
    }
    return n;
}

/* Y / Shift+Y: the next / previous layer of the part. */
static void act_layer(viewer *v, int dir)
{
    char names[32][64];
    int n = layer_names(v, names, 32);
    if (n <= 1) {
        set_message(v, false, "this part has one layer only (%s)", v->layers[0] ? v->layers : "-");
        return;
    }
    const char *cur = v->have_image ? v->img.layer : v->layer_sel;
    int i = 0;
    while (i < n && strcmp(names[i], cur) != 0)
        i++;
    i = i == n ? 0 : ((i + dir) % n + n) % n;
    snprintf(v->layer_sel, sizeof v->layer_sel, "%.63s", names[i]);
    snprintf(v->part_sel, sizeof v->part_sel, "%d", v->part_idx);
    v->part_set = v->layer_set = true;
    if (reload_keep_view(v))
        set_message(v, false, "layer %d/%d %s: %s", i + 1, n, names[i][0] ? names[i] : "(none)",
                    v->img.rgb_source);
}

static void act_export(viewer *v, int arg);

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

/* THE key table: handling, the help overlay, --help and docs/viewer-keys.md all come from it.
 * Conventions: pfsview for the range keys (, . [ ] \) and PageUp/PageDown; tev for a lower-case
 * letter raising a value and Shift+letter lowering it, F fit, wheel zoom at the cursor. */
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
    {GLFW_KEY_PAGE_DOWN, 0, act_file, +1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_N, 0, act_file, +1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_PAGE_UP, 0, act_file, -1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_P, 0, act_file, -1, "next / previous file (drop files to open them)"},
    {GLFW_KEY_E, 0, act_part, +1, "next / previous part of a multi-part EXR"},
    {GLFW_KEY_E, SHIFT, act_part, -1, "next / previous part of a multi-part EXR"},
    {GLFW_KEY_Y, 0, act_layer, +1, "next / previous layer (channel-name prefix)"},
    {GLFW_KEY_Y, SHIFT, act_layer, -1, "next / previous layer (channel-name prefix)"},
    {GLFW_KEY_R, 0, act_reload, 0, "reload the file"},
    {GLFW_KEY_S, 0, act_export, 0, "export PNG (as `hdrtone export`) to ./NAME_tonemapped.png"},
    {GLFW_KEY_ESCAPE, 0, act_quit, 1, "quit (Esc first closes the help)"},
    {GLFW_KEY_Q, 0, act_quit, 0, "quit (Esc first closes the help)"},
};
#define N_KEYS (sizeof KEYS / sizeof KEYS[0])

/* The help as lines (keys, text), one per run of entries with the same text; a run whose
 * entries all share one modifier shows it once: "Shift+(Left Right Up Down)". Returns the
 * number of lines written into lines[max][2][96]. */
static int keys_help_lines(char (*lines)[2][96], int max)
{
    int n = 0;
    for (size_t i = 0; i < N_KEYS && n < max;) {
        size_t j = i;
        bool common = KEYS[i].mods != 0;
        while (j < N_KEYS && strcmp(KEYS[j].help, KEYS[i].help) == 0)
            common &= KEYS[j++].mods == KEYS[i].mods;
        common &= j - i > 1;
        char *out = lines[n][0];
        size_t cap = sizeof lines[n][0], len = 0;
        out[0] = '\0';
        if (common)
            len = (size_t)snprintf(out, cap, "%s(", mods_show(KEYS[i].mods));
        for (size_t k = i; k < j; k++) {
            char name[64];
            key_show(KEYS[k].key, common ? 0 : KEYS[k].mods, name, sizeof name);
            len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s", k > i ? " " : "", name);
        }
        if (common && len < cap)
            snprintf(out + len, cap - len, ")");
        snprintf(lines[n][1], sizeof lines[n][1], "%s", KEYS[i].help);
        n++;
        i = j;
    }
    return n;
}

void viewer_print_keys(FILE *f)
{
    char lines[N_KEYS][2][96];
    int n = keys_help_lines(lines, (int)N_KEYS);
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-26s %s\n", lines[i][0], lines[i][1]);
}

/* The one entry point of every key press: the GLFW callback and the --keys replay. */
static void viewer_key(viewer *v, int key, int mods)
{
    mods &= GLFW_MOD_SHIFT | GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER;
    for (size_t i = 0; i < N_KEYS; i++)
        if (KEYS[i].key == key && KEYS[i].mods == mods) {
            KEYS[i].fn(v, KEYS[i].arg);
            v->dirty = true;
            return;
        }
}

/* ---------------------------------------------------------------------------------------
 * Files */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool hdr_extension(const char *name)
{
    static const char *const exts[] = {".exr", ".hdr", ".pic", ".rgbe"};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++)
        if (strcasecmp(dot, exts[i]) == 0)
            return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void files_free(viewer *v)
{
    for (int i = 0; i < v->nfiles; i++)
        free(v->files[i]);
    free(v->files);
    v->files = NULL;
    v->nfiles = v->cur = 0;
}

/* Replaces the file list with PATHS. One path: its folder's HDR files (by extension; they are
 * loaded by content), in name order, starting at that one. */
static bool files_set(viewer *v, char **paths, int n)
{
    files_free(v);
    if (n == 1) {
        char dir[PATH_MAX];
        const char *slash = strrchr(paths[0], '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - paths[0]) : 1,
                 slash ? paths[0] : ".");
        if (slash == paths[0])
            snprintf(dir, sizeof dir, "/");
        DIR *d = opendir(dir);
        int cap = 16;
        v->files = malloc((size_t)cap * sizeof *v->files);
        bool found = false;
        for (struct dirent *e; d && v->files && (e = readdir(d));) {
            if (!hdr_extension(e->d_name))
                continue;
            if (v->nfiles == cap) {
                char **f = realloc(v->files, (size_t)(cap *= 2) * sizeof *f);
                if (!f)
                    break;
                v->files = f;
            }
            char path[PATH_MAX + 256];
            if (slash)
                snprintf(path, sizeof path, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", e->d_name);
            else
                snprintf(path, sizeof path, "%s", e->d_name);
            if (!(v->files[v->nfiles] = strdup(path)))
                break;
            found |= strcmp(e->d_name, base_name(paths[0])) == 0;
            v->nfiles++;
        }
        if (d)
            closedir(d);
        /* The given file is always in the list, whatever its name (or if the folder cannot
         * be read): as given, so messages show the user's spelling. */
        if (v->files && !found) {
            char **f = realloc(v->files, (size_t)(v->nfiles + 1) * sizeof *f);
            if (f && (f[v->nfiles] = strdup(paths[0])))
                v->nfiles++;
            if (f)
                v->files = f;
        }
        if (v->files)
            qsort(v->files, (size_t)v->nfiles, sizeof *v->files, cmp_str);
        for (int i = 0; i < v->nfiles; i++)
            if (strcmp(base_name(v->files[i]), base_name(paths[0])) == 0)
                v->cur = i;
        if (v->nfiles > 0)
            return true;
        files_free(v);
    }
    v->files = calloc((size_t)n, sizeof *v->files);
    if (!v->files)
        return false;
    for (int i = 0; i < n; i++)
        if ((v->files[v->nfiles] = strdup(paths[i])))
            v->nfiles++;
    return v->nfiles > 0;
}

/* Loads files[cur]. On failure the error stays on screen and on stderr, and the viewer shows
 * no image until another file loads: a bad file never ends the viewer. */
static bool load_current(viewer *v)
{
    const char *path = v->files[v->cur];
    image_free(&v->img);
    v->have_image = false;
    v->load_err[0] = '\0';
    v->message[0] = '\0';
    v->rb.valid = false;
    char err[HT_ERR_MAX];
    char title[512];
    snprintf(title, sizeof title, "hdrtone - %s", base_name(path));
    glfwSetWindowTitle(v->win, title);
    v->dirty = true;
    image_load_options lo = {0};
    lo.part = v->part_set ? v->part_sel : v->opt_part;
    lo.layer = v->layer_set ? v->layer_sel : v->opt_layer;
    lo.max_pixels = v->max_pixels >= 1 ? (uint64_t)v->max_pixels : 0;
    if (!image_load(path, &lo, &v->img, err, sizeof err)) {
        snprintf(v->load_err, sizeof v->load_err, "%s", err);
        fprintf(stderr, "hdrtone: %s\n", err);
        return false;
    }
    /* What E and Y cycle through. */
    v->part_idx = v->img.part;
    v->part_count = v->img.part_count;
    if (v->img.parts && v->img.part >= 0 && v->img.part < v->img.part_count)
        snprintf(v->layers, sizeof v->layers, "%s", v->img.parts[v->img.part].layers);
    else
        snprintf(v->layers, sizeof v->layers, "%s", v->img.layer[0] ? v->img.layer : "(none)");
    if (!pipeline_upload(v->pipe, &v->img, err, sizeof err)) {
        snprintf(v->load_err, sizeof v->load_err, "%.200s: %.300s", path, err);
        fprintf(stderr, "hdrtone: %s\n", v->load_err);
        image_free(&v->img);
        return false;
    }
    v->have_image = true;
    v->view_fresh = true;
    v->image_gen++;
    update_y_range(v);
    return true;
}

/* Valid luminance range on the CPU by the current weights, for "fit the range to the image"
 * and the x axis. */
static void update_y_range(viewer *v)
{
    v->y_min = v->y_max = 0;
    if (!v->have_image)
        return;
    double w[3];
    tonemap_luminance_weights(v->tm.luminance, w);
    double lo = INFINITY, hi = 0;
    size_t n = (size_t)v->img.width * v->img.height;
    for (size_t i = 0; i < n; i++) {
        const float *p = v->img.rgba + 4 * i;
        double y = w[0] * p[0] + w[1] * p[1] + w[2] * p[2];
        if (isfinite(y) && y > 0) {
            lo = fmin(lo, y);
            hi = fmax(hi, y);
        }
    }
    if (hi > 0) {
        v->y_min = lo;
        v->y_max = hi;
    }
}

/* S: the full image through pipeline_tonemap_image with the current settings, exactly what
 * `hdrtone export` computes, to ./NAME_tonemapped[-N].png; O_EXCL claims a free name, so an
 * existing file is never overwritten. */
static void act_export(viewer *v, int arg)
{
    (void)arg;
    if (!v->have_image) {
        set_message(v, true, "nothing to export: no image loaded");
        return;
    }
    const char *base = base_name(v->files[v->cur]);
    const char *dot = strrchr(base, '.');
    int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    char path[512];
    int fd = -1;
    for (int i = 1; i < 10000 && fd < 0; i++) {
        if (i == 1)
            snprintf(path, sizeof path, "%.*s_tonemapped.png", stem, base);
        else
            snprintf(path, sizeof path, "%.*s_tonemapped-%d.png", stem, base, i);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 && errno != EEXIST) {
            set_message(v, true, "export: %s: %s", path, strerror(errno));
            return;
        }
    }
    if (fd < 0) {
        set_message(v, true, "export: no free name for %.*s_tonemapped-N.png", stem, base);
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
        set_message(v, true, "export failed: %s", err);
        return;
    }
    char full[PATH_MAX];
    set_message(v, false, "exported %s", realpath(path, full) ? full : path);
}

/* ---------------------------------------------------------------------------------------
 * GLFW callbacks: they only change state and mark the window dirty. */

static viewer *from(GLFWwindow *w) { return glfwGetWindowUserPointer(w); }

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    if (action == GLFW_PRESS || action == GLFW_REPEAT)
        viewer_key(from(w), key, mods);
}

/* Window coordinates -> framebuffer pixels (they differ on HiDPI screens). */
static void to_fb(GLFWwindow *w, double *x, double *y)
{
    int ww, wh, fw, fh;
    glfwGetWindowSize(w, &ww, &wh);
    glfwGetFramebufferSize(w, &fw, &fh);
    if (ww > 0 && wh > 0) {
        *x *= (double)fw / ww;
        *y *= (double)fh / wh;
    }
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    viewer *v = from(w);
    to_fb(w, &x, &y);
    if (v->dragging) {
        v->cx -= (x - v->mouse_x) / v->zoom;
        v->cy -= (y - v->mouse_y) / v->zoom;
        v->dirty = true;
    }
    v->mouse_x = x;
    v->mouse_y = y;
    v->mouse_in = true;
    if (v->show_overlay)
        v->dirty = true;   /* the pixel readout follows the cursor */
}

static void on_enter(GLFWwindow *w, int entered)
{
    viewer *v = from(w);
    v->mouse_in = entered;
    v->dirty = true;
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        from(w)->dragging = action == GLFW_PRESS;
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    viewer *v = from(w);
    zoom_at(v, pow(2.0, dy / 4), v->mouse_x, v->mouse_y);
    v->dirty = true;
}

static void on_drop(GLFWwindow *w, int n, const char **paths)
{
    viewer *v = from(w);
    if (n > 0 && files_set(v, (char **)paths, n)) {
        v->part_set = v->layer_set = false;
        v->part_count = 0;
        load_current(v);
    }
}

static void on_refresh(GLFWwindow *w) { from(w)->dirty = true; }
static void on_fb_size(GLFWwindow *w, int width, int height)
{
    (void)width, (void)height;
    from(w)->dirty = true;
}

/* ---------------------------------------------------------------------------------------
 * The frame */

/* Starts the copy of the frame buffer for the text (no stall), unless one is in flight. */
static void readback_start(viewer *v)
{
    if (v->rb.fence)
        return;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, pipeline_frame_buffer(v->pipe));
    glBindBuffer(GL_COPY_WRITE_BUFFER, v->rb.buf);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, sizeof(ht_frame));
    v->rb.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();   /* polls pass no flush flag: the fence must reach the GPU by itself */
}

/* Differs enough to show in the text? */
static bool result_changed(const tonemap_result *a, const tonemap_result *b)
{
    if (a->mapping != b->mapping || a->bins != b->bins || a->n_valid != b->n_valid ||
        a->n_counted != b->n_counted || a->iterations != b->iterations)
        return true;
    const float fa[] = {a->bw_min, a->bw_max, a->lw_min, a->lw_max, a->linear_scale,
                        a->cumf[a->bins / 2]};
    const float fb[] = {b->bw_min, b->bw_max, b->lw_min, b->lw_max, b->linear_scale,
                        b->cumf[b->bins / 2]};
    for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++)
        if (fabsf(fa[i] - fb[i]) > 1e-4f * fmaxf(1.0f, fabsf(fa[i])))
            return true;
    return false;
}

/* Fetches a finished copy. A result that changes the text asks for one more frame; that
 * frame's copy then matches and the window goes idle again. */
static void readback_poll(viewer *v)
{
    if (!v->rb.fence)
        return;
    GLenum s = glClientWaitSync(v->rb.fence, 0, 0);
    if (s != GL_ALREADY_SIGNALED && s != GL_CONDITION_SATISFIED)
        return;
    glDeleteSync(v->rb.fence);
    v->rb.fence = NULL;
    tonemap_result r;
    glBindBuffer(GL_COPY_READ_BUFFER, v->rb.buf);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof r, &r);
    if (!v->rb.valid || result_changed(&r, &v->rb.r))
        v->dirty = true;
    v->rb.r = r;
    v->rb.valid = true;
}

/* Where image pixel (0,0)'s corner lands, rounded to whole pixels so that at 1:1 each window
 * pixel shows exactly one image pixel. */
static scene_view view_of(const viewer *v)
{
    double x0 = v->img.data_window[0], y0 = v->img.data_window[1];
    return (scene_view){floor(v->fb_w / 2.0 - (v->cx - x0) * v->zoom + 0.5),
                        floor(v->fb_h / 2.0 - (v->cy - y0) * v->zoom + 0.5), v->zoom};
}

/* World luminance of a pixel, by the current weights. */
static double pixel_lw(const viewer *v, const float *p)
{
    double w[3];
    tonemap_luminance_weights(v->tm.luminance, w);
    return v->tm.scale * (w[0] * p[0] + w[1] * p[1] + w[2] * p[2]);
}

static void fmt_lum(double l, char *buf, size_t len) { snprintf(buf, len, "%.3g", l); }

static const float WHITE[4] = {0.95f, 0.95f, 0.95f, 1};
static const float GREY[4] = {0.75f, 0.75f, 0.78f, 1};
static const float RED[4] = {1.0f, 0.45f, 0.4f, 1};
static const float GREEN[4] = {0.5f, 1.0f, 0.55f, 1};
static const float BOX[4] = {0, 0, 0, 0.62f};

/* Text in a dark box at (x, y); returns the box height. */
static float text_box(viewer *v, float x, float y, float s, const char *text, const float *c)
{
    float w = overlay_text_width(text, s), h = overlay_text_height(text, s);
    overlay_rect(v->ovl, x, y, w + 12 * s, h + 6 * s, BOX);
    overlay_text(v->ovl, x + 6 * s, y + 4 * s, s, text, c);
    return h + 6 * s;
}

static void draw_help(viewer *v, float s)
{
    char lines[N_KEYS][2][96];
    int n = keys_help_lines(lines, (int)N_KEYS);
    /* Measured at scale 1, then as large as fits, up to the overlay's scale. */
    float kw = 0, hw = 0;
    for (int i = 0; i < n; i++) {
        kw = fmaxf(kw, overlay_text_width(lines[i][0], 1));
        hw = fmaxf(hw, overlay_text_width(lines[i][1], 1));
    }
    float w1 = kw + hw + 40, h1 = (float)(n + 2) * 13 + 16;
    s = fminf(s, fminf(((float)v->fb_w - 8) / w1, ((float)v->fb_h - 8) / h1));
    float w = w1 * s, h = h1 * s, lh = 13 * s;
    float x = fmaxf(0, ((float)v->fb_w - w) / 2), y = fmaxf(0, ((float)v->fb_h - h) / 2);
    const float bg[4] = {0.05f, 0.05f, 0.06f, 0.95f};
    overlay_rect(v->ovl, x, y, w, h, bg);
    overlay_text(v->ovl, x + 12 * s, y + 8 * s, s, "hdrtone keys (F1 or ? closes)", WHITE);
    for (int i = 0; i < n; i++) {
        float ly = y + 8 * s + (float)(i + 2) * lh;
        overlay_text(v->ovl, x + 12 * s, ly, s, lines[i][0], GREEN);
        overlay_text(v->ovl, x + 28 * s + kw * s, ly, s, lines[i][1], GREY);
    }
}

/* The status lines: file and view, tone-mapping settings, the pixel under the cursor. The
 * numbers from the GPU are the latest read-back (a frame late at most). */
static void status_text(viewer *v, int samples, char *buf, size_t len)
{
    const tonemap_params *tm = &v->tm;
    const tonemap_result *r = v->rb.valid ? &v->rb.r : NULL;
    size_t n = 0;
#define ADD(...) n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, __VA_ARGS__)
    ADD("%s  %dx%d  [%d/%d]  zoom %.3g%%  MSAA %d", base_name(v->files[v->cur]), v->img.width,
        v->img.height, v->cur + 1, v->nfiles, v->zoom * 100, samples);
    if (samples != v->msaa)   /* --msaa asked for a count this GPU does not offer */
        ADD(" (asked %d)", v->msaa);
    ADD("  adapt: %s", v->adapt_view ? "view" : "image");
    pipeline_timings t = pipeline_last_timings(v->pipe);
    double ms = 0;
    for (int i = 0; i < HT_PASS_COUNT; i++)
        ms += t.ms[i];
    if (ms > 0)
        ADD("  GPU %.2f ms", ms);
    else
        ADD("  GPU time n/a");
    /* Which part and layer is on screen, and where the data window lies (issue 5). */
    const hdr_image *im = &v->img;
    char names[32][64];
    int nl = layer_names(v, names, 32);
    const int *dw = im->data_window, *dp = im->display_window;
    bool windows = memcmp(dw, dp, sizeof im->data_window) != 0;
    if (v->part_count > 1 || nl > 1 || windows || strcmp(im->rgb_source, "R,G,B") != 0) {
        if (v->part_count > 1)
            ADD("\npart %d/%d%s%s%s  ", im->part + 1, v->part_count, im->part_name[0] ? " '" : "",
                im->part_name, im->part_name[0] ? "'" : "");
        else
            ADD("\n");
        ADD("layer %s", im->layer[0] ? im->layer : "(none)");
        if (nl > 1)
            ADD(" (of %d)", nl);
        ADD("  shown: %s", im->rgb_source);
        if (windows)
            ADD("\ndata window (%d,%d)-(%d,%d) in display window (%d,%d)-(%d,%d) (frame)", dw[0],
                dw[1], dw[2], dw[3], dp[0], dp[1], dp[2], dp[3]);
    }
    char a[32], b[32];
    if (tm->lmin > 0 && tm->lmax > tm->lmin) {
        fmt_lum(tm->lmin, a, sizeof a);
        fmt_lum(tm->lmax, b, sizeof b);
        ADD("\nrange %s..%s cd/m^2 (set)", a, b);
    } else if (r && r->mapping != HT_MAP_NONE) {
        fmt_lum(exp(r->bw_min), a, sizeof a);
        fmt_lum(exp(r->bw_max), b, sizeof b);
        ADD("\nrange %s..%s cd/m^2 (auto)", a, b);
    } else {
        ADD("\nrange auto");
    }
    if (r) {
        ADD("  mapping: %s", tonemap_mapping_name(r->mapping));
        if (tm->pcond)
            ADD(" (pcond: %s)", tonemap_mapping_pcond_name(r->mapping));
    }
    /* What the histogram samples: the analysed source is the image, or the window's view. */
    if (tm->sampling == HT_SAMPLING_FOVEAL) {
        int sw = v->adapt_view ? v->fb_w : v->img.width, sh = v->adapt_view ? v->fb_h : v->img.height;
        int fw, fh;
        tonemap_foveal_grid(sw, sh, tm->fov, &fw, &fh);
        ADD("\nsampling foveal %.3g deg, grid %dx%d", tm->fov, fw, fh);
        if (tm->point_samples)
            ADD(" + %u point samples", (unsigned)tonemap_point_count(sw, sh, fw, fh));
        else
            ADD(", no point samples");
    } else {
        ADD("\nsampling pixels (every pixel)");
    }
    ADD("  weights %s%s%s", tm->luminance == HT_LUMINANCE_RADIANCE ? "Radiance" : "Rec. 709",
        tm->force_linear ? "  linear forced" : "", tm->pcond ? "  preset pcond" : "");
    fmt_lum(tm->ldmax / tm->drange, a, sizeof a);
    fmt_lum(tm->ldmax, b, sizeof b);
    ADD("\ndisplay Ld %s..%s cd/m^2 (Dr %.4g)  ceiling %s  bins %d  ", a, b, tm->drange,
        tm->ceiling == HT_CEILING_LINEAR ? "linear" : tm->ceiling == HT_CEILING_HUMAN ? "human" : "none",
        tm->bins);
    if (tm->transfer == HT_TRANSFER_SRGB)
        ADD("sRGB");
    else
        ADD("gamma %.3g", tm->gamma);
    /* The brightest pixel and the peaks (X). */
    if (v->show_marks) {
        const imgstats *st = &v->stats;
        if (!v->stats_ok)
            ADD("\nbrightest: not available");
        else if (!st->brightest.valid)
            ADD("\nbrightest: none (no pixel with Y > 0)");
        else
            ADD("\nbrightest %d,%d (abs %d,%d)  RGB %.4g %.4g %.4g  Y %.4g  peaks %d",
                st->brightest.x, st->brightest.y, st->brightest.abs_x, st->brightest.abs_y,
                st->brightest.rgb[0], st->brightest.rgb[1], st->brightest.rgb[2],
                st->brightest.luminance, st->n_peaks);
    }
    /* The pixel under the cursor, from the CPU copy of the image. */
    scene_view sv = view_of(v);
    double ix = floor((v->mouse_x - sv.x) / sv.zoom), iy = floor((v->mouse_y - sv.y) / sv.zoom);
    if (v->mouse_in && ix >= 0 && iy >= 0 && ix < v->img.width && iy < v->img.height) {
        const float *p = v->img.rgba + 4 * ((size_t)iy * v->img.width + (size_t)ix);
        double lw = pixel_lw(v, p);
        ADD("\npixel %d,%d  RGB %.3g %.3g %.3g  Lw %.3g", (int)ix + v->img.data_window[0],
            (int)iy + v->img.data_window[1], p[0], p[1], p[2], lw);
        if (r && isfinite(lw) && lw > 0) {
            double f = tonemap_pixel_factor(r, tm, lw);
            ADD(" -> Ld %.3g cd/m^2  out %d %d %d", tonemap_curve_ld(r, tm, lw),
                tonemap_encode(tm, tm->scale * p[0] * f), tonemap_encode(tm, tm->scale * p[1] * f),
                tonemap_encode(tm, tm->scale * p[2] * f));
        }
    } else {
        ADD("\npixel -  (F1 or ? for keys)");
    }
#undef ADD
}

/* The panel's x axis: the image's luminance and the histogram range, padded, so the range
 * limits show where they cut. */
static void plot_axis(viewer *v, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    const tonemap_result *r = v->rb.valid ? &v->rb.r : NULL;
    if (r && r->mapping != HT_MAP_NONE) {
        a = fmin(r->bw_min, log(fmax(r->lw_min, 1e-30)));
        b = fmax(r->bw_max, log(fmax(r->lw_max, 1e-30)));
    }
    if (v->y_max > 0) {
        a = fmin(a, log(v->y_min * v->tm.scale));
        b = fmax(b, log(v->y_max * v->tm.scale));
    }
    if (v->tm.lmin > 0 && v->tm.lmax > v->tm.lmin) {
        a = fmin(a, log(v->tm.lmin));
        b = fmax(b, log(v->tm.lmax));
    }
    if (!(b > a)) {
        a = 0;
        b = log(100.0);
    }
    double pad = 0.05 * (b - a) + 0.1;
    *lo = a - pad;
    *hi = b + pad;
}

/* Same tone-mapping parameters? (Field by field: the struct has padding.) */
static bool params_same(const tonemap_params *a, const tonemap_params *b)
{
    return a->bins == b->bins && a->lmin == b->lmin && a->lmax == b->lmax &&
           a->ldmax == b->ldmax && a->drange == b->drange && a->ceiling == b->ceiling &&
           a->transfer == b->transfer && a->gamma == b->gamma && a->scale == b->scale &&
           a->sampling == b->sampling && a->fov == b->fov &&
           a->point_samples == b->point_samples && a->luminance == b->luminance &&
           a->force_linear == b->force_linear && a->pcond == b->pcond;
}

static bool stats_wanted(const viewer *v)
{
    return v->have_image && (v->show_marks || (v->show_overlay && v->hist_mode != HIST_LOG));
}

/* The statistics for the histogram panel's RGBA and grey modes and for the markers, computed
 * on demand (a mode turned on, another image, other parameters) and cached: the whole image
 * tone-mapped as `export` does it (pipeline_tonemap_uploaded: the image source, an output of
 * the image's size), then imgstats' GPU passes on it (brightest/darkest, the peaks, the RGBA
 * and grey histograms). The brightest and peaks need a read-back, once per change; the panel
 * then draws the histograms straight from imgstats' SSBO on every frame. Runs before the
 * frame's own passes, which overwrite the pipeline's frame and output again. */
static void stats_update(viewer *v)
{
    if (!stats_wanted(v))
        return;
    if (v->stats_tried && v->stats_gen == v->image_gen && params_same(&v->stats_tm, &v->tm))
        return;
    v->stats_tried = true;
    v->stats_ok = false;
    v->stats_gen = v->image_gen;
    v->stats_tm = v->tm;
    imgstats_free(&v->stats);
    char err[HT_ERR_MAX];
    if (!v->stats_ctx && !(v->stats_ctx = imgstats_gpu_create(err, sizeof err))) {
        set_message(v, true, "statistics: %s", err);
        return;
    }
    ht_source img = pipeline_image_source(v->pipe);
    if (pipeline_image_pieces(v->pipe) != 1 || img.width != v->img.width ||
        img.height != v->img.height) {
        /* An image in several textures: imgstats' GPU passes take one texture of the whole
         * image. The brightest pixel and the peaks come from the CPU reference then (the
         * same answer); the histograms of the output are not available. */
        if (!imgstats_cpu(&v->img, NULL, v->peaks, v->min_distance, &v->stats)) {
            set_message(v, true, "statistics: out of memory");
            return;
        }
        v->stats_ok = true;
        return;
    }
    if (!pipeline_tonemap_uploaded(v->pipe, &v->tm, NULL, NULL, err, sizeof err)) {
        set_message(v, true, "statistics: %s", err);
        return;
    }
    ht_source out = {pipeline_output_texture(v->pipe), img.width, img.height, 1};
    if (!imgstats_gpu_prepare(v->stats_ctx, img, out, err, sizeof err) ||
        !imgstats_gpu_run(v->stats_ctx, &v->img, v->grey_kernel, v->peaks, v->min_distance,
                          &v->stats, err, sizeof err)) {
        set_message(v, true, "statistics: %s", err);
        return;
    }
    v->stats_ok = true;
}

/* The display window's frame (when it differs from the data window): a line just outside
 * it, so it covers none of its pixels. */
static void draw_display_frame(viewer *v, float s)
{
    const int *dw = v->img.data_window, *dp = v->img.display_window;
    if (memcmp(dw, dp, sizeof v->img.data_window) == 0 || dp[2] < dp[0] || dp[3] < dp[1])
        return;
    scene_view sv = view_of(v);
    float x0 = (float)(sv.x + (dp[0] - dw[0]) * sv.zoom), y0 = (float)(sv.y + (dp[1] - dw[1]) * sv.zoom);
    float x1 = (float)(sv.x + (dp[2] + 1 - dw[0]) * sv.zoom), y1 = (float)(sv.y + (dp[3] + 1 - dw[1]) * sv.zoom);
    float t = fmaxf(1, floorf(s / 1.5f + 0.5f));
    const float c[4] = {1.0f, 0.78f, 0.25f, 0.9f};
    overlay_outline(v->ovl, x0 - t, y0 - t, x1 - x0 + 2 * t, y1 - y0 + 2 * t, t, c);
}

/* X: a cross-hair on the brightest pixel, squares on the peaks, numbered by rank. */
static void draw_marks(viewer *v, float s)
{
    if (!v->show_marks || !v->stats_ok)
        return;
    scene_view sv = view_of(v);
    float u = s / 1.5f;
    const float dark[4] = {0, 0, 0, 0.8f};
    const float cyan[4] = {0.2f, 0.95f, 1.0f, 1};
    const float mag[4] = {1.0f, 0.25f, 0.9f, 1};
    for (int i = v->stats.n_peaks - 1; i >= 0; i--) {
        const imgstats_pixel *p = &v->stats.peaks[i];
        float cx = (float)(sv.x + (p->x + 0.5) * sv.zoom), cy = (float)(sv.y + (p->y + 0.5) * sv.zoom);
        float h = fmaxf(7 * u, (float)sv.zoom * 0.5f + 3 * u);
        overlay_outline(v->ovl, cx - h - u, cy - h - u, 2 * (h + u), 2 * (h + u), 3 * u, dark);
        overlay_outline(v->ovl, cx - h, cy - h, 2 * h, 2 * h, u, cyan);
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        overlay_text(v->ovl, cx + h + 2 * u, cy - h - 2 * u, u, num, cyan);
    }
    const imgstats_pixel *b = &v->stats.brightest;
    if (!b->valid)
        return;
    float cx = (float)(sv.x + (b->x + 0.5) * sv.zoom), cy = (float)(sv.y + (b->y + 0.5) * sv.zoom);
    float gap = fmaxf(5 * u, (float)sv.zoom * 0.5f + 2 * u), len = 18 * u, t = 2 * u;
    const float arms[4][4] = {{cx - gap - len, cy - t / 2, len, t}, {cx + gap, cy - t / 2, len, t},
                              {cx - t / 2, cy - gap - len, t, len}, {cx - t / 2, cy + gap, t, len}};
    for (int k = 0; k < 4; k++)
        overlay_rect(v->ovl, arms[k][0] - u, arms[k][1] - u, arms[k][2] + 2 * u, arms[k][3] + 2 * u, dark);
    for (int k = 0; k < 4; k++)
        overlay_rect(v->ovl, arms[k][0], arms[k][1], arms[k][2], arms[k][3], mag);
    overlay_text(v->ovl, cx + gap + 2 * u, cy + gap, u, "max", mag);
}

static void draw_overlay(viewer *v, int samples)
{
    float s = 1.0f;
    float xs = 1, ys = 1;
    glfwGetWindowContentScale(v->win, &xs, &ys);
    /* stb_easy_font is a 6x12 pixel font: 1.5x reads well at 96 dpi. */
    s = 1.5f * fmaxf(1.0f, xs);
    overlay_begin(v->ovl, v->fb_w, v->fb_h);
    if (v->have_image) {
        draw_display_frame(v, s);
        draw_marks(v, s);
    }
    float y = 8 * s / 1.5f;
    if (v->show_overlay) {
        if (v->have_image) {
            char text[2048];
            status_text(v, samples, text, sizeof text);
            y += text_box(v, 8, y, s, text, WHITE) + 4;
        } else if (v->nfiles > 0) {
            char text[256];
            snprintf(text, sizeof text, "[%d/%d]  PageUp/PageDown for other files, F1 for keys",
                     v->cur + 1, v->nfiles);
            y += text_box(v, 8, y, s, text, WHITE) + 4;
        }
    }
    if (v->load_err[0])
        y += text_box(v, 8, y, s, v->load_err, RED) + 4;
    if (v->message[0])
        y += text_box(v, 8, y, s, v->message, v->message_error ? RED : GREEN) + 4;
    if (v->show_overlay && v->have_image && !v->show_help) {
        float pw = fminf(520 * s / 1.5f, (float)v->fb_w - 16);
        float ph = fminf(220 * s / 1.5f, (float)v->fb_h * 0.45f);
        overlay_plot_info info = {0};
        info.x = 8;
        info.y = (float)v->fb_h - ph - 8;
        info.w = pw;
        info.h = ph;
        info.scale = s / 1.5f;
        plot_axis(v, &info.axis_lo, &info.axis_hi);
        info.ldmax = v->tm.ldmax;
        info.drange = v->tm.drange;
        info.title = v->adapt_view ? "histogram of the view" : "histogram of the image";
        scene_view sv = view_of(v);
        double ix = floor((v->mouse_x - sv.x) / sv.zoom), iy = floor((v->mouse_y - sv.y) / sv.zoom);
        if (v->mouse_in && ix >= 0 && iy >= 0 && ix < v->img.width && iy < v->img.height) {
            const float *p = v->img.rgba + 4 * ((size_t)iy * v->img.width + (size_t)ix);
            double lw = pixel_lw(v, p);
            info.cursor = isfinite(lw) && lw > 0;
            info.cursor_ln_lw = info.cursor ? log(lw) : 0;
        }
        if (v->hist_mode != HIST_LOG) {
            info.title = v->hist_mode == HIST_RGBA
                             ? "RGBA histogram of the output (whole image, as export)"
                             : "grey histogram of the output (whole image, as export)";
            if (pw > 120 && ph > 80 && info.y > y && v->stats_ok && v->stats.have_hist)
                overlay_plot_output(v->ovl, imgstats_gpu_hist_buffer(v->stats_ctx),
                                    v->hist_mode == HIST_RGBA ? OVERLAY_OUTPUT_RGBA : OVERLAY_OUTPUT_GREY,
                                    &info);
            else if (v->stats_ok && info.y > y)
                text_box(v, 8, info.y, s, "no output histograms: the image is larger than one "
                                          "GPU texture (Tab for the log-luminance panel)", GREY);
        } else if (pw > 120 && ph > 80 && info.y > y) {
            overlay_plot(v->ovl, pipeline_frame_buffer(v->pipe), &info);
        }
    }
    if (v->show_help)
        draw_help(v, s);
    overlay_end(v->ovl);
}

/* One frame: scene pass, analysis, apply, present, overlay. */
static int draw_frame(viewer *v)
{
    glfwGetFramebufferSize(v->win, &v->fb_w, &v->fb_h);
    if (v->fb_w <= 0 || v->fb_h <= 0)
        return 0;   /* minimised */
    int samples = 1;
    if (v->have_image) {
        if (v->view_fresh) {
            /* 1:1 when the image fits, else fit: like most viewers. */
            view_fit(v);
            if (v->zoom >= 1)
                v->zoom = 1;
            v->view_fresh = false;
        }
        stats_update(v);
        ht_source img = pipeline_image_source(v->pipe);
        bool f32 = !v->img.half_exact;
        samples = pass_scene_samples(v->scene, v->msaa, f32);
        /* Every piece of an image larger than one texture (pipeline_upload), downsampled
         * on the GPU when zoomed out. */
        ht_source scene = pass_scene_run_image(v->scene, v->pipe, f32, v->fb_w, v->fb_h, samples,
                                               view_of(v));
        pipeline_analyze(v->pipe, v->adapt_view ? scene : img, &v->tm);
        pipeline_apply(v->pipe, scene, &v->tm);
        if (v->testing) {
            pipeline_read_result(v->pipe, &v->rb.r);   /* hooks: exact text, no hurry */
            v->rb.valid = true;
        } else {
            readback_start(v);
        }
        /* The output is display-encoded RGBA8 of the window's size: copy it 1:1 (the default
         * framebuffer is not sRGB, so nothing re-encodes it). */
        glBindFramebuffer(GL_READ_FRAMEBUFFER, v->present_fbo);
        glFramebufferTexture(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                             pipeline_output_texture(v->pipe), 0);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glDisable(GL_SCISSOR_TEST);
        glBlitFramebuffer(0, 0, v->fb_w, v->fb_h, 0, 0, v->fb_w, v->fb_h, GL_COLOR_BUFFER_BIT,
                          GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    } else {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, v->fb_w, v->fb_h);
        glDisable(GL_SCISSOR_TEST);
        glClearColor(0.12f, 0.12f, 0.13f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    v->samples = samples;
    draw_overlay(v, samples);
    return samples;
}

/* --screenshot: the back buffer, top row first, as RGB8 PNG. */
static bool screenshot(viewer *v, const char *path)
{
    size_t row = (size_t)v->fb_w * 3;
    uint8_t *px = malloc(row * v->fb_h), *tmp = malloc(row);
    if (!px || !tmp) {
        free(px);
        free(tmp);
        fprintf(stderr, "hdrtone: screenshot: out of memory\n");
        return false;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, v->fb_w, v->fb_h, GL_RGB, GL_UNSIGNED_BYTE, px);
    for (int y = 0; y < v->fb_h / 2; y++) {   /* GL's rows go bottom-up */
        memcpy(tmp, px + y * row, row);
        memcpy(px + y * row, px + (size_t)(v->fb_h - 1 - y) * row, row);
        memcpy(px + (size_t)(v->fb_h - 1 - y) * row, tmp, row);
    }
    char err[HT_ERR_MAX];
    bool ok = png_write_atomic(path, px, v->fb_w, v->fb_h, err, sizeof err);
    if (!ok)
        fprintf(stderr, "hdrtone: screenshot: %s\n", err);
    else {
        /* Where the image is, for tests that compare its pixels. */
        scene_view sv = view_of(v);
        printf("screenshot %s %dx%d image %dx%d at %d,%d zoom %g\n", path, v->fb_w, v->fb_h,
               v->img.width, v->img.height, (int)sv.x, (int)sv.y, sv.zoom);
        /* And the status text, shown or not, line by line: tests check what it says. */
        if (v->have_image) {
            char text[2048];
            status_text(v, v->samples, text, sizeof text);
            for (char *line = text, *end; line; line = end ? end + 1 : NULL) {
                end = strchr(line, '\n');
                printf("status: %.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
            }
        }
        if (v->message[0])
            printf("message: %s\n", v->message);
        /* The marked peaks (X), data-window coordinates, by rank. */
        for (int i = 0; v->show_marks && v->stats_ok && i < v->stats.n_peaks; i++)
            printf("peak: %d %d,%d\n", i + 1, v->stats.peaks[i].x, v->stats.peaks[i].y);
        fflush(stdout);
    }
    free(px);
    free(tmp);
    return ok;
}

/* ---------------------------------------------------------------------------------------
 * Setup */

static char g_glfw_error[512];

static void on_glfw_error(int code, const char *desc)
{
    (void)code;
    snprintf(g_glfw_error, sizeof g_glfw_error, "%s", desc);
}

/* After a failed 4.3 core window: what does the machine offer? "GL_VERSION, GL_RENDERER" of
 * a default context, or the GLFW error. */
static void describe_gl(char *buf, size_t len)
{
    snprintf(buf, len, "%s", g_glfw_error[0] ? g_glfw_error : "unknown");
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow *w = glfwCreateWindow(64, 64, "hdrtone", NULL, NULL);
    if (!w)
        return;
    glfwMakeContextCurrent(w);
    typedef const unsigned char *(*get_string_fn)(unsigned);
    get_string_fn get = (get_string_fn)glfwGetProcAddress("glGetString");
    if (get && get(GL_VERSION))
        snprintf(buf, len, "found OpenGL %s (%s)", (const char *)get(GL_VERSION),
                 get(GL_RENDERER) ? (const char *)get(GL_RENDERER) : "?");
    glfwMakeContextCurrent(NULL);
    glfwDestroyWindow(w);
}

static bool parse_replay(viewer *v, const char *keys)
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

static void viewer_cleanup(viewer *v)
{
    if (v->win) {
        glfwMakeContextCurrent(v->win);
        if (v->rb.fence)
            glDeleteSync(v->rb.fence);
        glDeleteBuffers(1, &v->rb.buf);
        glDeleteFramebuffers(1, &v->present_fbo);
        overlay_destroy(&v->ovl);
        imgstats_gpu_destroy(&v->stats_ctx);
        pass_scene_destroy(&v->scene);
        pipeline_destroy(&v->pipe);
        glfwDestroyWindow(v->win);
    }
    image_free(&v->img);
    imgstats_free(&v->stats);
    files_free(v);
    free(v->replay);
    glfwTerminate();
}

int viewer_main(const ht_options *o, char **files, int nfiles)
{
    viewer vs = {0}, *v = &vs;
    v->tm = o->tm;
    v->msaa = o->msaa < 1 ? 1 : o->msaa;
    v->show_overlay = !o->no_overlay;
    v->zoom = 1;
    v->dirty = true;
    v->testing = o->keys || o->screenshot;
    v->opt_part = o->part;
    v->opt_layer = o->layer;
    v->max_pixels = o->max_pixels;
    v->grey_kernel = o->histogram_kernel;
    v->peaks = o->peaks > 0 ? o->peaks : VIEW_PEAKS;
    v->min_distance = o->min_distance;
    if (o->keys && !parse_replay(v, o->keys)) {
        free(v->replay);
        return 2;
    }
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        fprintf(stderr,
                "hdrtone: cannot open a window: %s\n"
                "hdrtone: no display? `hdrtone export FILE -o OUT.png` tone-maps without one.\n",
                g_glfw_error[0] ? g_glfw_error : "GLFW cannot start");
        free(v->replay);
        return 1;
    }
    if (nfiles < 1 || !files_set(v, files, nfiles)) {
        fprintf(stderr, "hdrtone: no file to open\n");
        viewer_cleanup(v);
        return 1;
    }

    /* The window: the first image's size (read now, before the window exists, so it opens
     * at the right size), within 90% of the screen. */
    int ww = 960, wh = 640;
    {
        hdr_image probe = {0};
        char err[HT_ERR_MAX];
        image_load_options lo = options_load(o);
        if (image_load(v->files[v->cur], &lo, &probe, err, sizeof err)) {
            double b[4];
            frame_box(&probe, b);
            ww = (int)fmin(b[2] - b[0], 1 << 16);
            wh = (int)fmin(b[3] - b[1], 1 << 16);
        }
        image_free(&probe);
        const GLFWvidmode *mode = glfwGetVideoMode(glfwGetPrimaryMonitor());
        int mw = mode ? mode->width * 9 / 10 : 1600, mh = mode ? mode->height * 9 / 10 : 900;
        ww = ww < 800 ? 800 : ww > mw ? mw : ww;
        wh = wh < 600 ? 600 : wh > mh ? mh : wh;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_FALSE);   /* the pipeline encodes; GL must not */
    glfwWindowHint(GLFW_SAMPLES, 0);                 /* MSAA lives in the scene target */
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    v->win = glfwCreateWindow(ww, wh, "hdrtone", NULL, NULL);
    if (!v->win) {
        char found[512];
        describe_gl(found, sizeof found);
        fprintf(stderr, "hdrtone: cannot create an OpenGL 4.3 core window: %s\n"
                        "hdrtone: `hdrtone export FILE -o OUT.png` may still work (headless EGL).\n",
                found);
        viewer_cleanup(v);
        return 1;
    }
    glfwMakeContextCurrent(v->win);
    char err[HT_ERR_MAX];
    if (!gl_load((GLADloadfunc)glfwGetProcAddress, err, sizeof err)) {
        fprintf(stderr, "hdrtone: OpenGL 4.3 core is needed: %s\n", err);
        viewer_cleanup(v);
        return 1;
    }
    if (!(v->pipe = pipeline_create(err, sizeof err)) ||
        !(v->scene = pass_scene_create(err, sizeof err)) ||
        !(v->ovl = overlay_create(err, sizeof err))) {
        fprintf(stderr, "hdrtone: GPU setup failed: %s\n", err);
        viewer_cleanup(v);
        return 1;
    }
    glGenFramebuffers(1, &v->present_fbo);
    glGenBuffers(1, &v->rb.buf);
    glBindBuffer(GL_COPY_WRITE_BUFFER, v->rb.buf);
    glBufferData(GL_COPY_WRITE_BUFFER, sizeof(ht_frame), NULL, GL_STREAM_READ);
    glfwSwapInterval(1);

    glfwSetWindowUserPointer(v->win, v);
    glfwSetKeyCallback(v->win, on_key);
    glfwSetCursorPosCallback(v->win, on_cursor);
    glfwSetCursorEnterCallback(v->win, on_enter);
    glfwSetMouseButtonCallback(v->win, on_button);
    glfwSetScrollCallback(v->win, on_scroll);
    glfwSetDropCallback(v->win, on_drop);
    glfwSetWindowRefreshCallback(v->win, on_refresh);
    glfwSetFramebufferSizeCallback(v->win, on_fb_size);

    load_current(v);
    /* The screenshot comes after --frames frames and after every replayed key has had a
     * frame drawn with its effect. */
    long shot_at = o->frames > v->nreplay + 1 ? o->frames : v->nreplay + 1;
    int status = 0;
    while (!v->quit && !glfwWindowShouldClose(v->win)) {
        if (v->testing || o->continuous || v->dirty)
            glfwPollEvents();
        else if (v->rb.fence)
            glfwWaitEventsTimeout(0.005);   /* a read-back is on its way */
        else
            glfwWaitEvents();               /* idle costs nothing */
        readback_poll(v);
        if (!(v->dirty || v->testing || o->continuous) || v->quit)
            continue;
        v->dirty = false;
        draw_frame(v);
        v->frames++;
        if (o->screenshot && v->frames >= shot_at) {
            status = screenshot(v, o->screenshot) ? 0 : 1;
            break;
        }
        glfwSwapBuffers(v->win);
        /* --keys: one key per frame, after the first, through the real dispatch. */
        if (v->replayed < v->nreplay) {
            viewer_key(v, v->replay[v->replayed][0], v->replay[v->replayed][1]);
            v->replayed++;
            if (v->replayed == v->nreplay && !o->screenshot)
                v->testing = false;   /* back to redrawing on events */
        }
    }
    viewer_cleanup(v);
    return status;
}
