/* What the actions do (the table is in actions.c): each changes the viewer's state and
 * returns; none waits on the GPU or does file output (the export runs in the loop). */
#define _XOPEN_SOURCE 700   /* strdup */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human.h"
#include "settings.h"
#include "viewer_act.h"
#include "viewer_internal.h"

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* A user range to adjust: the current one, or when automatic, the automatic range the last
 * frame used (its analysis, read back a frame or so late and never waited for here: nothing
 * in an input handler waits on the GPU). False when there is none yet. */
static bool manual_range(viewer *v, double *lo, double *hi)
{
    if (v->s.tm.lmin > 0 && v->s.tm.lmax > v->s.tm.lmin) {
        *lo = v->s.tm.lmin;
        *hi = v->s.tm.lmax;
        return true;
    }
    const tonemap_result *r = renderer_result(&v->rnd, &v->doc, &v->s, v->vp);
    if (!r || r->mapping == HT_MAP_NONE || !(r->bw_max > r->bw_min))
        return false;
    *lo = exp(r->bw_min);
    *hi = exp(r->bw_max);
    return true;
}

/* Range keys move in quarter decades, as pfsview's exposure keys move in steps. */
static const double RANGE_STEP = 1.7782794100389228; /* 10^0.25 */

void act_range(viewer *v, double how)
{
    double lo, hi;
    if (!manual_range(v, &lo, &hi)) {
        viewer_set_message(v, true, "no luminance range yet (no valid pixel)");
        return;
    }
    switch ((int)how) {
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
    v->s.tm.lmin = ht_setting_clamp(HT_SET_LMIN, lo);
    v->s.tm.lmax = clampd(hi, v->s.tm.lmin * 1.0001, ht_settings[HT_SET_LMAX].max);
}

void act_range_fit(viewer *v, double arg)
{
    (void)arg;
    if (!v->doc.have_image || !(v->doc.y_max > 0)) {
        viewer_set_message(v, true, "no valid pixel to fit the range to");
        return;
    }
    /* pcond's upper edge: counted pixels are below 1.01 * max. */
    v->s.tm.lmin = v->doc.y_min * v->s.tm.scale;
    v->s.tm.lmax = v->doc.y_max * v->s.tm.scale * 1.01;
}

void act_range_auto(session *s, double arg)
{
    (void)arg;
    s->tm.lmin = s->tm.lmax = 0;
}

static const double DISPLAY_STEP = 1.4142135623730951; /* half a stop */

void act_ldmax(session *s, double dir)
{
    double l = dir > 0 ? s->tm.ldmax * DISPLAY_STEP : s->tm.ldmax / DISPLAY_STEP;
    s->tm.ldmax = ht_setting_clamp(HT_SET_LDMAX, l);
}

void act_drange(session *s, double dir)
{
    double d = dir > 0 ? s->tm.drange * DISPLAY_STEP : s->tm.drange / DISPLAY_STEP;
    s->tm.drange = ht_setting_clamp(HT_SET_DRANGE, d);
}

/* linear -> human -> none -> linear */
void act_ceiling(session *s, double arg)
{
    (void)arg;
    s->tm.ceiling = ht_enum_next(tonemap_ceilings, s->tm.ceiling);
}

/* *CHOICE to the next of CHOICES, and the parameter it needs, *PARAM, to DEFAULT when unset. */
static void next_choice(int *choice, const ht_enum *choices, double *param, double dflt)
{
    *choice = ht_enum_next(choices, *choice);
    if (!(*param > 0))
        *param = dflt;
}

void act_sampling(session *s, double arg)
{
    (void)arg;
    next_choice(&s->tm.sampling, tonemap_samplings, &s->tm.fov, 40);
}

void act_points(viewer *v, double arg)
{
    (void)arg;
    v->s.tm.point_samples = !v->s.tm.point_samples;
    if (v->s.tm.sampling != HT_SAMPLING_FOVEAL)
        viewer_set_message(v, false, "point samples %s (they count with foveal sampling only: O)",
                    v->s.tm.point_samples ? "on" : "off");
}

void act_weights(viewer *v, double arg)
{
    (void)arg;
    v->s.tm.luminance = ht_enum_next(tonemap_luminances, v->s.tm.luminance);
    viewer_update_y_range(v);
}

void act_linear(session *s, double arg)
{
    (void)arg;
    s->tm.force_linear = !s->tm.force_linear;
}

/* The human-vision options (human.h), each on its own key: ARG 0 veil, 1 acuity, 2 colour. */
void act_human(session *s, double arg)
{
    bool *opt[] = {&s->tm.veil, &s->tm.acuity, &s->tm.color_loss};
    *opt[(int)arg] = !*opt[(int)arg];
}

/* Shift+H: what --human sets (the three and the human ceiling) when not all three are on,
 * else the three off (the ceiling stays: C). */
void act_human_all(session *s, double arg)
{
    (void)arg;
    if (s->tm.veil && s->tm.acuity && s->tm.color_loss)
        s->tm.veil = s->tm.acuity = s->tm.color_loss = false;
    else
        human_params_all(&s->tm);
}

/* Shift+P: the pcond preset, or back to the defaults; the ceiling, forced linear, transfer,
 * scale and a set range stay as they are. */
void act_pcond(viewer *v, double arg)
{
    (void)arg;
    tonemap_params keep = v->s.tm;
    tonemap_apply_preset(&v->s.tm, v->s.tm.pcond ? HT_PRESET_DEFAULT : HT_PRESET_PCOND);
    v->s.tm.ceiling = keep.ceiling;
    v->s.tm.force_linear = keep.force_linear;
    v->s.tm.transfer = keep.transfer;
    v->s.tm.gamma = keep.gamma;
    v->s.tm.scale = keep.scale;
    v->s.tm.lmin = keep.lmin;
    v->s.tm.lmax = keep.lmax;
    /* (The status text says "preset pcond": no message over the picture.) */
    viewer_update_y_range(v);
}

/* Statistics panel and markers. */

void act_hist_mode(session *s, double arg)
{
    (void)arg;
    s->hist_mode = (s->hist_mode + 1) % HIST_MODES;
}

void act_marks(session *s, double arg)
{
    (void)arg;
    s->show_marks = !s->show_marks;
}

void act_bins(session *s, double dir)
{
    int b = dir > 0 ? s->tm.bins * 2 : s->tm.bins / 2;
    s->tm.bins = b < HT_MIN_BINS ? HT_MIN_BINS : b > HT_MAX_BINS ? HT_MAX_BINS : b;
}

void act_transfer(session *s, double arg)
{
    (void)arg;
    next_choice(&s->tm.transfer, tonemap_transfers, &s->tm.gamma, 2.2);
}

void act_msaa(viewer *v, double arg)
{
    (void)arg;
    /* The next count the driver really gives (llvmpipe offers 1 and 4, not 2), then back to 1. */
    bool f32 = !v->doc.img.half_exact;
    int cur = pass_scene_samples(v->rnd.scene, v->s.msaa, f32);
    for (int n = 2; n <= 8; n *= 2) {
        int got = pass_scene_samples(v->rnd.scene, n, f32);
        if (got > cur) {
            v->s.msaa = got;
            return;
        }
    }
    v->s.msaa = 1;
}

void act_panels(session *s, double arg) { (void)arg; s->show_panels = !s->show_panels; }
void act_help(viewer *v, double arg)
{
    (void)arg;
    v->s.show_help = !v->s.show_help;
    v->pnl.help_filter[0] = '\0';
}
void act_adapt(session *s, double arg) { (void)arg; s->adapt_view = !s->adapt_view; }
void act_layout(session *s, double arg)
{
    s->layout = arg < 0 ? ht_enum_next(ht_layouts, s->layout) : (int)arg;
}

/* Zoom keys zoom at the window's centre (the wheel at the cursor). */
void act_zoom(viewer *v, double dir)
{
    v->s.fitted = false;
    v->s.view = view_zoom_at(v->s.view, dir > 0 ? 2.0 : 0.5,
                           (view_point){v->vp.w / 2.0, v->vp.h / 2.0}, v->vp.w, v->vp.h);
}

void act_fit(viewer *v, double arg) { (void)arg; viewer_fit(v); }

void act_one(session *s, double arg)
{
    (void)arg;
    s->view.zoom = 1;
    s->fitted = false;
}

void viewer_drop(viewer *v, char **paths, int n)
{
    if (n > 0 && v->seq) {   /* a sequence's entry is its frame of the moment: it goes with it */
        viewer_seq_stop(v);
        viewer_files_free(v);
    }
    viewer_files_drop(v, paths, n);
}

void viewer_fit(viewer *v)
{
    if (!v->doc.have_image || v->vp.w <= 0 || v->vp.h <= 0)
        return;
    v->s.view = viewer_fit_view(v, false);
    v->s.fitted = true;
}

void viewer_pan_by(viewer *v, double dx, double dy)
{
    v->s.view = view_pan(v->s.view, dx, dy);
    v->s.fitted = false;
}

void viewer_zoom_by(viewer *v, double factor, double x, double y)
{
    v->s.view = view_zoom_at(v->s.view, factor, (view_point){x, y}, v->vp.w, v->vp.h);
    v->s.fitted = false;
}

/* Arrow keys scroll the view: ARG is the direction (1 right, 2 left, 3 down, 4 up). */
void act_pan(session *s, double arg)
{
    const double step = 128.0;   /* window pixels; the image moves the other way */
    s->fitted = false;
    switch ((int)arg) {
    case 1: s->view = view_pan(s->view, -step, 0); break;
    case 2: s->view = view_pan(s->view, step, 0); break;
    case 3: s->view = view_pan(s->view, 0, -step); break;
    case 4: s->view = view_pan(s->view, 0, step); break;
    }
}

/* S: the export runs in the loop after the frame (viewer_export), not here. */
void act_export(viewer *v, double arg)
{
    (void)arg;
    v->export_due = true;
}

void act_session_save(viewer *v, double arg)
{
    (void)arg;
    char err[HT_ERR_MAX];
    if (viewer_session_save(v, v->session_path, err, sizeof err))
        viewer_set_message(v, false, "Session saved to %s", v->session_path);
    else
        viewer_set_message(v, true, "%s", err);
}

void act_quit(viewer *v, double arg)
{
    /* Esc first closes the help, as dialogs do. */
    if (arg == 1 && v->pnl.menu_open) {
        v->pnl.menu_close = true;
        return;
    }
    if (arg == 1 && (v->s.show_help || v->s.show_open)) {
        v->s.show_help = v->s.show_open = false;
        return;
    }
    v->quit = true;
}

/* ---------------------------------------------------------------------------------------
 * Images: the list, open and close */

void act_file(viewer *v, double dir) { viewer_file_step(v, (int)dir); }
void act_neighbour(viewer *v, double dir) { viewer_neighbour_step(v, (int)dir); }
void act_part(viewer *v, double dir) { viewer_part_step(v, (int)dir); }
void act_layer(viewer *v, double dir) { viewer_layer_step(v, (int)dir); }
void act_reload(viewer *v, double arg) { viewer_reload(v, (int)arg); }
void act_watch(viewer *v, double arg) { viewer_watch_key(v, (int)arg); }
/* A sequence's key: queued, run by the loop before the next frame (showing a frame decodes
 * and analyses it: not in the key's handler). */
void act_seq(viewer *v, double arg)
{
    if (v->in.nseq_keys < (int)(sizeof v->in.seq_keys / sizeof v->in.seq_keys[0]))
        v->in.seq_keys[v->in.nseq_keys++] = (int)arg;
}

void act_select_image(viewer *v, double index)
{
    int i = (int)index;
    if (i < 0 || i >= v->doc.list.nfiles || i == v->doc.list.cur)
        return;
    v->doc.list.cur = i;
    viewer_load_begin(v);
}

void act_close_image(viewer *v, double index)
{
    int i = (int)index;
    if (i < 0 || i >= v->doc.list.nfiles)
        return;
    bool shown = i == v->doc.list.cur;
    file_list_remove(&v->doc.list, i);   /* another entry shown stays shown; I: loaded below */
    if (i == v->s.ref)   /* the reference closed: none; one before it: its index moves */
        act_set_reference(v, -1);
    else if (i < v->s.ref)
        v->s.ref--;
    if (shown || v->doc.list.nfiles == 0)
        viewer_load_begin(v);   /* with none left: no image, the title says so */
}

void act_close(viewer *v, double arg)
{
    (void)arg;
    act_close_image(v, v->doc.list.cur);
}

/* Ctrl+O: the open box (a typed path; dropping files opens them too). */
void act_open(session *s, double arg)
{
    (void)arg;
    s->show_open = !s->show_open;
}

/* The open box's Enter: the typed path (file or folder) added to the list and shown. */
void act_open_typed(viewer *v, double arg)
{
    (void)arg;
    char *path = v->pnl.open_path;
    size_t n = strlen(path);
    while (n > 0 && (path[n - 1] == ' ' || path[n - 1] == '\n'))
        path[--n] = '\0';
    if (n == 0)
        return;
    char *paths[1] = {path};
    viewer_drop(v, paths, 1);
    v->s.show_open = false;
}

void act_copy_path(viewer *v, double arg)
{
    (void)arg;
    if (v->doc.list.nfiles > 0) {
        platform_clipboard(v, v->doc.list.files[v->doc.list.cur]);
        viewer_set_message(v, false, "copied %s", v->doc.list.files[v->doc.list.cur]);
    }
}

/* ---------------------------------------------------------------------------------------
 * Setters: the panels' sliders, lists and trees */

void act_set_lmin(session *s, double x)
{
    /* Lmin < Lmax: at the top limit, Lmin moves one step below it. */
    s->tm.lmin =
        ht_setting_clamp(HT_SET_LMIN, fmin(x, ht_settings[HT_SET_LMAX].max / RANGE_STEP));
    if (!(s->tm.lmax > s->tm.lmin))
        s->tm.lmax = s->tm.lmin * RANGE_STEP;
}

void act_set_lmax(session *s, double x)
{
    s->tm.lmax = ht_setting_clamp(HT_SET_LMAX, fmax(x, ht_settings[HT_SET_LMIN].min * 100));
    if (!(s->tm.lmin > 0) || s->tm.lmin >= s->tm.lmax)
        s->tm.lmin = s->tm.lmax / 100;
}

void act_set_ldmax(session *s, double x) { s->tm.ldmax = ht_setting_clamp(HT_SET_LDMAX, x); }
void act_set_drange(session *s, double x) { s->tm.drange = ht_setting_clamp(HT_SET_DRANGE, x); }

/* The enumerated setters keep the value when X is none of the table's (a stale index). */
static void set_enum(int *field, const ht_enum *table, double x)
{
    if (x == (int)x && ht_enum_has(table, (int)x))
        *field = (int)x;
}
void act_set_ceiling(session *s, double x) { set_enum(&s->tm.ceiling, tonemap_ceilings, x); }

void act_set_sampling(session *s, double x)
{
    set_enum(&s->tm.sampling, tonemap_samplings, x);
    if (!(s->tm.fov > 0))
        s->tm.fov = ht_settings[HT_SET_FOV].def;
}

void act_set_weights(viewer *v, double x)
{
    set_enum(&v->s.tm.luminance, tonemap_luminances, x);
    viewer_update_y_range(v);
}

void act_set_transfer(session *s, double x)
{
    set_enum(&s->tm.transfer, tonemap_transfers, x);
    if (!(s->tm.gamma > 0))
        s->tm.gamma = 2.2;
}

void act_set_msaa(session *s, double x) { s->msaa = (int)ht_setting_clamp(HT_SET_MSAA, x); }
void act_set_hist_mode(session *s, double x)
{
    s->hist_mode = ((int)x % HIST_MODES + HIST_MODES) % HIST_MODES;
}

void act_set_bins(session *s, double x)
{
    s->tm.bins = (int)ht_setting_clamp(HT_SET_BINS, x);
}

/* Parts and layers by index: stepped to, so that the file list's rules (default layer of a
 * part, what is remembered) stay in one place (viewer_files.c). */
void act_set_part(viewer *v, double index)
{
    if ((int)index != v->doc.part_idx)
        viewer_part_step(v, (int)index - v->doc.part_idx);   /* one step of that size: one load */
}

void act_set_layer(viewer *v, double index)
{
    char names[VIEWER_MAX_LAYERS][64];
    int n = viewer_layer_names(v, names, VIEWER_MAX_LAYERS), i = (int)index;
    if (i < 0 || i >= n)
        return;
    const char *cur = v->doc.have_image ? v->doc.img.layer : v->doc.layer_sel;
    int at = 0;
    while (at < n && strcmp(names[at], cur) != 0)
        at++;
    if (at < n && at != i)
        viewer_layer_step(v, i - at);   /* one step of that size: one load */
}

/* ---------------------------------------------------------------------------------------
 * The reference (compare_view.c) */

void act_set_reference(viewer *v, double index)
{
    int i = (int)index;
    v->s.ref = i >= 0 && i < v->doc.list.nfiles && i != v->s.ref ? i : -1;
    if (v->s.ref < 0)
        v->s.flip_held = false;
    if (v->s.ref >= 0 && v->s.compare == COMPARE_OFF)
        v->s.compare = COMPARE_WIPE;   /* marking a reference is asking to compare */
    v->doc.ref_err[0] = '\0';
}

void act_reference(viewer *v, double arg)
{
    (void)arg;
    act_set_reference(v, v->doc.list.cur);
}

void act_set_compare(session *s, double mode)
{
    int m = (int)mode;
    s->compare = m >= 0 && m < COMPARE_COUNT ? m : COMPARE_OFF;
}

void act_compare(session *s, double arg)
{
    (void)arg;
    s->compare = ht_enum_next(compare_modes, s->compare);
}

void act_wipe_axis(session *s, double arg)
{
    (void)arg;
    s->wipe_horizontal = !s->wipe_horizontal;
}

void act_set_ppd(session *s, double ppd) { s->ppd = ht_setting_clamp(HT_SET_PPD, ppd); }

void act_set_flip_tonemapper(viewer *v, double t)
{
    if (ht_enum_has(flip_tonemappers, (int)t)) {
        v->s.flip_tonemapper = (int)t;
        v->rnd.ref_exposures_ok = false;   /* HDR-FLIP's exposures depend on the tone mapper */
    }
}

void act_set_wipe(session *s, double at) { s->wipe = clampd(at, 0, 1); }
void act_flip(session *s, double down) { s->flip_held = down != 0; }

/* ---------------------------------------------------------------------------------------
 * The display mode (display_view.c) */

void act_set_view(session *s, double mode)
{
    if (ht_enum_has(display_modes, (int)mode))
        s->disp.mode = (int)mode;
}

void act_view_channel(session *s, double arg)
{
    (void)arg;
    if (s->disp.mode == HT_VIEW_CHANNEL) {   /* again: the next channel, its own range */
        s->disp.channel = ht_enum_next(display_channels, s->disp.channel);
        s->disp.ch_min = s->disp.ch_max = 0;
    }
    s->disp.mode = HT_VIEW_CHANNEL;
}

void act_exposure(session *s, double steps)
{
    double ev = s->disp.exposure + steps * ht_settings[HT_SET_EXPOSURE].step;
    s->disp.exposure = ht_setting_clamp(HT_SET_EXPOSURE, ev);
}
void act_set_exposure(session *s, double ev)
{
    s->disp.exposure = ht_setting_clamp(HT_SET_EXPOSURE, ev);
}
void act_set_offset(session *s, double x) { s->disp.offset = ht_setting_clamp(HT_SET_OFFSET, x); }
void act_set_fc_max(session *s, double cd)
{
    s->disp.fc_max = cd > 0 ? ht_setting_clamp(HT_SET_FC_MAX, cd) : 0;   /* 0: automatic */
}
void act_set_fc_decades(session *s, double n)
{
    s->disp.fc_decades = (int)ht_setting_clamp(HT_SET_FC_LOG, n);
}
void act_set_fc_steps(session *s, double n)
{
    s->disp.fc_steps = (int)ht_setting_clamp(HT_SET_FC_STEPS, n);
}

void act_set_fc_style(session *s, double style)
{
    set_enum(&s->disp.fc_style, display_fc_styles, style);
}

void act_set_channel(session *s, double c)
{
    if (ht_enum_has(display_channels, (int)c)) {
        s->disp.channel = (int)c;
        s->disp.ch_min = s->disp.ch_max = 0;   /* its own range */
    }
}

void act_set_ch_palette(session *s, double p)
{
    set_enum(&s->disp.ch_palette, display_channel_palettes, p);
}

/* ---------------------------------------------------------------------------------------
 * The region (region_view.c) */

/* The button let go: the statistics of the dragged rectangle. */
void act_region_done(viewer *v, double arg)
{
    (void)arg;
    v->in.region_drag = false;
    int rect[4];
    viewer_region_rect(v, rect);
    char err[HT_ERR_MAX];
    v->doc.region_gen = v->doc.image_gen;
    v->doc.region_valid =
        v->doc.have_image && region_compute(&v->doc.img, rect, v->rnd.units.weights,
                                            v->rnd.units.scale, &v->doc.region, err, sizeof err);
    if (v->doc.have_image && !v->doc.region_valid)
        viewer_set_message(v, true, "region: %s", err);
}

void act_region_clear(viewer *v, double arg)
{
    (void)arg;
    v->doc.region_valid = v->in.region_drag = false;
}
