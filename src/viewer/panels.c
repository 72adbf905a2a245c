/* The panels (panels.h): layout and the dock's sections. The histogram plot, the help and
 * the marks over the picture are in panels_draw.c. */
#include "panels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "panels_internal.h"
#include "viewer_internal.h"

void panels_draw_canvas(viewer *v) { panels_canvas(v, ui_ctx(v->gui)); }

/* The test hook HT_TEST_LAYOUT=FILE: each frame, FILE gets where the named widgets are
 * ("NAME X Y W H" in framebuffer pixels), written whole (rename) so a reader never sees
 * half a frame. The window tests click on them with xdotool. */
static FILE *g_layout;

static void layout_begin(const viewer *v)
{
    const char *path = getenv("HT_TEST_LAYOUT");
    char tmp[4096];
    if (path && snprintf(tmp, sizeof tmp, "%s.tmp", path) < (int)sizeof tmp)
        g_layout = fopen(tmp, "w");
    if (g_layout)
        fprintf(g_layout, "viewport %d %d %d %d\n", v->vp.x, v->vp.y, v->vp.w, v->vp.h);
}

static void layout_end(void)
{
    const char *path = getenv("HT_TEST_LAYOUT");
    char tmp[4096];
    if (!g_layout)
        return;
    fclose(g_layout);
    g_layout = NULL;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    rename(tmp, path);
}

void panels_note_text(const char *name, const char *text)
{
    for (const char *l = text; g_layout && l && *l;) {
        const char *end = strchr(l, '\n');
        int n = end ? (int)(end - l) : (int)strlen(l);
        fprintf(g_layout, "%s: %.*s\n", name, n, l);
        l = end ? end + 1 : NULL;
    }
}

/* Notes the next widget's place under NAME (HT_TEST_LAYOUT). */
static void note(struct nk_context *ctx, const char *fmt, int i)
{
    if (!g_layout)
        return;
    struct nk_rect r = nk_widget_bounds(ctx);
    fprintf(g_layout, fmt, i);
    fprintf(g_layout, " %d %d %d %d\n", (int)r.x, (int)r.y, (int)r.w, (int)r.h);
}

/* Points of the layout (times the GUI's scale). */
enum { DOCK_PT = 310, DOCK_MIN_PT = 230 };

float panels_row(const viewer *v) { return ui_text_px(v->gui) + 8 * ui_scale(v->gui); }

void panels_layout(viewer *v)
{
    float s = ui_scale(v->gui), row = panels_row(v);
    int top = (int)(row + 4 * s), bottom = (int)(row + 4 * s);
    int dock = 0;
    if (!v->s.show_panels)
        top = bottom = 0;   /* the picture alone fills the window */
    if (v->s.show_panels) {
        dock = (int)fminf(DOCK_PT * s, v->fb_w / 2.0f);
        if (dock < DOCK_MIN_PT * s)
            dock = 0;   /* too narrow for its text: folded away (Ctrl+H shows it floating) */
    }
    v->dock_w = dock;
    int legend = panels_legend_width(v);   /* false colour: its legend left of the picture */
    v->vp = (viewport){legend, top, v->fb_w - dock - legend, v->fb_h - top - bottom};
    if (v->vp.w < 1)
        v->vp.w = 1;
    if (v->vp.h < 1)
        v->vp.h = 1;
}

/* ---------------------------------------------------------------------------------------
 * Menu bar: one menu per action group, each action with its keys, greyed when disabled */

static void menu_item(viewer *v, struct nk_context *ctx, action_id id)
{
    const action *a = action_get(id);
    char label[160], keys[96];
    snprintf(label, sizeof label, "%s%s", a->label,
             a->checked && a->checked(v) ? "  (on)" : "");
    action_keys_text(id, keys, sizeof keys);
    bool on = action_enabled(v, id);
    nk_layout_row(ctx, NK_DYNAMIC, panels_row(v), 2, (float[]){0.72f, 0.28f});
    if (!on)
        nk_widget_disable_begin(ctx);
    if (nk_menu_item_label(ctx, label, NK_TEXT_LEFT)) {
        if (a->hold)   /* from a menu there is no key to let go: a switch */
            action_set(v, id, !a->checked(v));
        else
            action_run(v, id);
    }
    nk_label(ctx, keys, NK_TEXT_RIGHT);
    if (!on)
        nk_widget_disable_end(ctx);
}

static void menu_bar(viewer *v, struct nk_context *ctx)
{
    float s = ui_scale(v->gui), row = panels_row(v);
    if (!nk_begin(ctx, "menu", nk_rect(0, 0, (float)v->fb_w, (float)v->vp.y),
                  NK_WINDOW_NO_SCROLLBAR))
        goto done;
    bool open = false;
    nk_menubar_begin(ctx);
    nk_layout_row_begin(ctx, NK_STATIC, row, GROUP_COUNT);
    for (int g = 0; g < GROUP_COUNT; g++) {
        const char *name = action_group_name((action_group)g);
        const struct nk_user_font *f = ctx->style.font;
        float w = f->width(f->userdata, f->height, name, (int)strlen(name)) + 16 * s;
        nk_layout_row_push(ctx, w);
        float mw = fminf(560 * s, (float)v->fb_w - 8);
        if (nk_menu_begin_label(ctx, name, NK_TEXT_CENTERED, nk_vec2(mw, 0.8f * v->fb_h))) {
            open = true;
            for (int i = 0; i < ACT_COUNT; i++)
                if (action_get((action_id)i)->group == (action_group)g)
                    menu_item(v, ctx, (action_id)i);
            if (v->menu_close)   /* Esc */
                nk_menu_close(ctx);
            nk_menu_end(ctx);
        }
    }
    nk_layout_row_end(ctx);
    nk_menubar_end(ctx);
    v->menu_open = open && !v->menu_close;
    v->menu_close = false;
done:
    nk_end(ctx);
}

/* ---------------------------------------------------------------------------------------
 * The dock's sections */

static void section_images(viewer *v, struct nk_context *ctx)
{
    float row = panels_row(v);
    if (v->nfiles == 0)
        panels_text(v, ctx,
                    v->net ? "waiting for images (--listen)" : "no image: Ctrl+O or drop files",
                    false);
    for (int i = 0; i < v->nfiles; i++) {
        char name[160];
        const char *base = viewer_base_name(v->files[i]);
        if (i == v->cur && v->have_image)
            snprintf(name, sizeof name, "%d  %s  %dx%d", i + 1, base, v->img.width,
                     v->img.height);
        else
            snprintf(name, sizeof name, "%d  %s", i + 1, base);
        if (i == v->s.ref)
            snprintf(name + strlen(name), sizeof name - strlen(name), "  (reference)");
        nk_layout_row(ctx, NK_DYNAMIC, row, 2, (float[]){0.86f, 0.14f});
        nk_bool sel = i == v->cur;
        note(ctx, "image%d", i);
        bool is_ref = i == v->s.ref;   /* a click below may change it: pop what was pushed */
        if (is_ref)   /* the reference: marked, as tev does */
            nk_style_push_color(ctx, &ctx->style.selectable.text_normal, PANELS_GREEN);
        bool shift = v->press_mods & GLFW_MOD_SHIFT;
        if (nk_selectable_label(ctx, name, NK_TEXT_LEFT, &sel)) {
            if (shift)   /* Shift+click: the reference (tev) */
                action_set(v, ACT_SET_REFERENCE, i);
            else if (i != v->cur)
                action_set(v, ACT_SELECT_IMAGE, i);
        }
        if (is_ref)
            nk_style_pop_color(ctx);
        note(ctx, "close%d", i);
        if (nk_button_label(ctx, "x"))
            action_set(v, ACT_CLOSE_IMAGE, i);
    }
}

/* The shown file's folder, its images listed (one key away: Ctrl+PageDown / PageUp). */
static void section_folder(viewer *v, struct nk_context *ctx)
{
    const file_list *l = &v->list;
    int at = file_list_neighbour_index(l);
    if (l->nneighbours == 0 || at < 0) {
        panels_text(v, ctx, "Ctrl+PageDown / PageUp: the files beside it", false);
        return;
    }
    for (int i = 0; i < l->nneighbours; i++) {
        nk_layout_row_dynamic(ctx, panels_row(v), 1);
        nk_bool sel = i == at;
        note(ctx, "neighbour%d", i);
        if (nk_selectable_label(ctx, file_list_name(l->neighbours[i]), NK_TEXT_LEFT, &sel) &&
            i != at)
            action_set(v, ACT_SET_NEIGHBOUR, i - at);
    }
}

double panels_log_slider(viewer *v, struct nk_context *ctx, const char *name, double value,
                         double lo, double hi, typed_field *f)
{
    nk_layout_row(ctx, NK_DYNAMIC, panels_row(v), 3, (float[]){0.2f, 0.45f, 0.35f});
    nk_label(ctx, name, NK_TEXT_LEFT);
    float l = (float)log10(fmax(value, lo)), nl = l;
    if (g_layout) {
        struct nk_rect b = nk_widget_bounds(ctx);
        fprintf(g_layout, "slider_%s %d %d %d %d\n", name, (int)b.x, (int)b.y, (int)b.w,
                (int)b.h);
    }
    nk_slider_float(ctx, (float)log10(lo), &nl, (float)log10(hi), 0.01f);
    if (!f->editing)   /* shows the value, unless the user is typing one */
        f->len = snprintf(f->text, sizeof f->text, "%.4g", value);
    nk_flags e = nk_edit_string(ctx, NK_EDIT_FIELD | NK_EDIT_SIG_ENTER, f->text, &f->len,
                                (int)sizeof f->text - 1, nk_filter_float);
    f->editing = (e & NK_EDIT_ACTIVE) && !(e & NK_EDIT_COMMITED);
    if (nl != l)
        return pow(10.0, nl);
    if (e & NK_EDIT_COMMITED) {
        f->text[f->len] = '\0';
        double typed = atof(f->text);
        if (typed >= lo && typed <= hi)
            return typed;
    }
    return NAN;
}

void panels_enum_combo(viewer *v, struct nk_context *ctx, const char *name,
                       const ht_enum *table, int value, int set)
{
    const char *labels[16];
    int n = 0, cur = 0;
    for (; table[n].name && n < 16; n++) {
        labels[n] = table[n].label;
        if (table[n].value == value)
            cur = n;
    }
    nk_layout_row(ctx, NK_DYNAMIC, panels_row(v), 2, (float[]){0.35f, 0.65f});
    nk_label(ctx, name, NK_TEXT_LEFT);
    float row = panels_row(v);
    int got = nk_combo(ctx, labels, n, cur, (int)row, nk_vec2(nk_widget_width(ctx), row * (n + 1)));
    if (got != cur)
        action_set(v, set, table[got].value);
}

void panels_toggle(viewer *v, struct nk_context *ctx, int id, const char *name)
{
    const action *a = action_get(id);
    nk_bool on = a->checked(v), was = on;
    nk_checkbox_label(ctx, name, &on);
    if (on != was)
        action_run(v, id);
}

static typed_field g_fields[4];   /* Lmin, Lmax, Ldmax, Dr */

static void section_range(viewer *v, struct nk_context *ctx)
{
    const tonemap_result *r = v->frame.valid ? &v->frame.r : NULL;
    bool manual = v->s.tm.lmin > 0 && v->s.tm.lmax > v->s.tm.lmin;
    double lo = manual ? v->s.tm.lmin : r && r->bw_max > r->bw_min ? exp(r->bw_min) : 1e-3;
    double hi = manual ? v->s.tm.lmax : r && r->bw_max > r->bw_min ? exp(r->bw_max) : 1e3;
    nk_layout_row_dynamic(ctx, panels_row(v), 1);
    nk_bool autom = !manual, was = autom;
    nk_checkbox_label(ctx, "automatic luminance range (A)", &autom);
    if (autom != was)
        action_run(v, autom ? ACT_RANGE_AUTO : ACT_RANGE_FIT);
    double x = panels_log_slider(v, ctx, "Lmin", lo, 1e-6, 1e8, &g_fields[0]);
    if (!isnan(x)) {
        action_set(v, ACT_SET_LMAX, hi);
        action_set(v, ACT_SET_LMIN, x);
    }
    x = panels_log_slider(v, ctx, "Lmax", hi, 1e-6, 1e8, &g_fields[1]);
    if (!isnan(x)) {
        action_set(v, ACT_SET_LMIN, lo);
        action_set(v, ACT_SET_LMAX, x);
    }
}

static void section_settings(viewer *v, struct nk_context *ctx)
{
    section_range(v, ctx);
    double x = panels_log_slider(v, ctx, "Ldmax", v->s.tm.ldmax, 1, 1e4, &g_fields[2]);
    if (!isnan(x))
        action_set(v, ACT_SET_LDMAX, x);
    x = panels_log_slider(v, ctx, "Dr", v->s.tm.drange, 2, 1e5, &g_fields[3]);
    if (!isnan(x))
        action_set(v, ACT_SET_DRANGE, x);
    panels_enum_combo(v, ctx, "ceiling", tonemap_ceilings, v->s.tm.ceiling, ACT_SET_CEILING);
    panels_enum_combo(v, ctx, "samples", tonemap_samplings, v->s.tm.sampling, ACT_SET_SAMPLING);
    panels_enum_combo(v, ctx, "weights", tonemap_luminances, v->s.tm.luminance, ACT_SET_WEIGHTS);
    panels_enum_combo(v, ctx, "transfer", tonemap_transfers, v->s.tm.transfer, ACT_SET_TRANSFER);
    nk_layout_row(ctx, NK_DYNAMIC, panels_row(v), 2, (float[]){0.5f, 0.5f});
    int bins = nk_propertyi(ctx, "#bins", HT_MIN_BINS, v->s.tm.bins, HT_MAX_BINS, 1, 1);
    if (bins != v->s.tm.bins)
        action_set(v, ACT_SET_BINS, bins > v->s.tm.bins ? v->s.tm.bins * 2 : v->s.tm.bins / 2);
    int msaa = nk_propertyi(ctx, "#MSAA", 1, v->s.msaa, 8, 1, 1);
    if (msaa > v->s.msaa)
        action_run(v, ACT_MSAA);   /* the next count the GPU offers */
    else if (msaa < v->s.msaa)
        action_set(v, ACT_SET_MSAA, v->s.msaa / 2 < 1 ? 1 : v->s.msaa / 2);
    nk_layout_row_dynamic(ctx, panels_row(v), 2);
    panels_toggle(v, ctx, ACT_LINEAR, "linear (K)");
    panels_toggle(v, ctx, ACT_POINTS, "point samples (I)");
    panels_toggle(v, ctx, ACT_ADAPT_VIEW, "adapt to view (V)");
    panels_toggle(v, ctx, ACT_PCOND, "pcond preset (Shift+P)");
    nk_layout_row_dynamic(ctx, panels_row(v), 1);
    nk_label(ctx, "Human vision", NK_TEXT_LEFT);
    nk_layout_row_dynamic(ctx, panels_row(v), 3);
    panels_toggle(v, ctx, ACT_VEIL, "veil");
    panels_toggle(v, ctx, ACT_ACUITY, "acuity");
    panels_toggle(v, ctx, ACT_COLOR_LOSS, "colour");
    char human[512];
    viewer_status_human(v, human, sizeof human);
    if (human[0])
        panels_text(v, ctx, human, false);
}

static void section_parts(viewer *v, struct nk_context *ctx)
{
    float row = panels_row(v);
    for (int p = 0; p < v->part_count; p++) {
        char name[96];
        const char *pn = v->img.parts ? v->img.parts[p].name : "";
        snprintf(name, sizeof name, "part %d%s%s", p, pn[0] ? "  " : "", pn);
        nk_layout_row_dynamic(ctx, row, 1);
        nk_bool sel = p == v->part_idx;
        if (nk_selectable_label(ctx, name, NK_TEXT_LEFT, &sel) && p != v->part_idx)
            action_set(v, ACT_SET_PART, p);
        if (p != v->part_idx)
            continue;
        char layers[VIEWER_MAX_LAYERS][64];
        int n = viewer_layer_names(v, layers, VIEWER_MAX_LAYERS);
        for (int l = 0; l < n; l++) {
            nk_layout_row(ctx, NK_DYNAMIC, row, 2, (float[]){0.1f, 0.9f});
            nk_spacing(ctx, 1);
            nk_bool lsel = strcmp(v->img.layer, layers[l]) == 0;
            if (nk_selectable_label(ctx, layers[l][0] ? layers[l] : "(none)", NK_TEXT_LEFT,
                                    &lsel) && lsel)
                action_set(v, ACT_SET_LAYER, l);
        }
    }
    if (v->part_count <= 1)
        panels_text(v, ctx, "one part", false);
}

static void section_compare(viewer *v, struct nk_context *ctx)
{
    if (v->s.ref < 0) {
        panels_text(v, ctx,
                    "no reference: Shift+R marks the shown image,\nShift+click one in the list",
                    false);
        return;
    }
    char text[512];
    snprintf(text, sizeof text, "reference: %d  %s", v->s.ref + 1,
             viewer_base_name(viewer_ref_path(v)));
    panels_text(v, ctx, text, false);
    panels_enum_combo(v, ctx, "mode", compare_modes, v->s.compare, ACT_SET_COMPARE);
    nk_layout_row_dynamic(ctx, panels_row(v), 2);
    panels_toggle(v, ctx, ACT_WIPE_AXIS, "horizontal divider");
    if (nk_button_label(ctx, "no reference"))
        action_set(v, ACT_SET_REFERENCE, -1);
    if (v->ref_err[0])
        panels_text(v, ctx, v->ref_err, true);
    panels_compare_numbers(v, ctx);
}

static void section_pixel(viewer *v, struct nk_context *ctx)
{
    char text[512];
    viewer_pixel_text(v, text, sizeof text);
    panels_text(v, ctx, text, false);
}

static void dock(viewer *v, struct nk_context *ctx)
{
    if (v->dock_w <= 0)
        return;
    struct nk_rect r = nk_rect((float)(v->fb_w - v->dock_w), (float)v->vp.y, (float)v->dock_w,
                               (float)v->vp.h);
    if (nk_begin(ctx, "dock", r, 0)) {   /* no border: it would cover the picture's edge */
        if (nk_tree_push(ctx, NK_TREE_TAB, "Images", NK_MAXIMIZED)) {
            section_images(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Folder", NK_MINIMIZED)) {
            section_folder(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Display", NK_MAXIMIZED)) {
            panels_display(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Compare",
                         v->s.ref >= 0 ? NK_MAXIMIZED : NK_MINIMIZED)) {
            section_compare(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Histogram and curve", NK_MAXIMIZED)) {
            panels_histogram(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Region", NK_MAXIMIZED)) {
            panels_region(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Pixel", NK_MAXIMIZED)) {
            section_pixel(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Settings", NK_MAXIMIZED)) {
            section_settings(v, ctx);
            nk_tree_pop(ctx);
        }
        if (nk_tree_push(ctx, NK_TREE_TAB, "Parts and layers", NK_MINIMIZED)) {
            section_parts(v, ctx);
            nk_tree_pop(ctx);
        }
    }
    nk_end(ctx);
}

static void status_bar(viewer *v, struct nk_context *ctx)
{
    float y = (float)(v->vp.y + v->vp.h);
    if (nk_begin(ctx, "status", nk_rect(0, y, (float)v->fb_w, (float)v->fb_h - y),
                 NK_WINDOW_NO_SCROLLBAR)) {
        nk_layout_row_dynamic(ctx, panels_row(v), 1);
        char line[1024];
        bool error = false;
        viewer_status_line(v, line, sizeof line, &error);
        if (error)
            nk_label_colored(ctx, line, NK_TEXT_LEFT, PANELS_RED);
        else
            nk_label(ctx, line, NK_TEXT_LEFT);
    }
    nk_end(ctx);
}

static void open_box(viewer *v, struct nk_context *ctx)
{
    if (!v->s.show_open)
        return;
    float s = ui_scale(v->gui), w = fminf(520 * s, (float)v->vp.w - 16);
    struct nk_rect r = nk_rect(v->vp.x + (v->vp.w - w) / 2, (float)v->vp.y + 16 * s, w,
                               4 * panels_row(v) + 24 * s);
    static const char title[] = "Open a file or folder";
    /* On top each frame: the toolkit activates a window the mouse merely hovers, and only the
     * top one takes keys (the box's first frame creates it on top). */
    nk_window_set_focus(ctx, title);
    if (nk_begin(ctx, title, r, NK_WINDOW_BORDER | NK_WINDOW_TITLE | NK_WINDOW_NO_SCROLLBAR)) {
        nk_layout_row_dynamic(ctx, panels_row(v), 1);
        nk_edit_focus(ctx, NK_EDIT_DEFAULT);
        nk_flags f = nk_edit_string_zero_terminated(
            ctx, NK_EDIT_FIELD | NK_EDIT_SIG_ENTER, v->open_path, sizeof v->open_path, NULL);
        nk_layout_row_dynamic(ctx, panels_row(v), 2);
        if (nk_button_label(ctx, "Open") || (f & NK_EDIT_COMMITED))
            action_run(v, ACT_OPEN_TYPED);
        if (nk_button_label(ctx, "Cancel"))
            action_run(v, ACT_OPEN);
    }
    nk_end(ctx);
}

void panels_build(viewer *v)
{
    struct nk_context *ctx = ui_ctx(v->gui);
    layout_begin(v);
    if (v->s.show_panels) {
        menu_bar(v, ctx);
        dock(v, ctx);
        status_bar(v, ctx);
    } else {
        v->menu_open = v->menu_close = false;   /* no menu bar: no menu open */
    }
    open_box(v, ctx);
    if (v->s.show_help)
        panels_help(v, ctx);
    layout_end();
}

bool panels_hovered(const viewer *v, double x, double y)
{
    const struct nk_context *ctx = ui_ctx(v->gui);
    struct nk_vec2 m = nk_vec2((float)x, (float)y);
    for (const struct nk_window *w = ctx->begin; w; w = w->next) {
        if ((w->flags & NK_WINDOW_HIDDEN) || strcmp(w->name_string, "canvas") == 0)
            continue;
        if (w->popup.active && w->popup.win && NK_INBOX(m.x, m.y, w->popup.win->bounds.x,
                                                        w->popup.win->bounds.y,
                                                        w->popup.win->bounds.w,
                                                        w->popup.win->bounds.h))
            return true;
        if (NK_INBOX(m.x, m.y, w->bounds.x, w->bounds.y, w->bounds.w, w->bounds.h))
            return true;
    }
    return false;
}
