/* The panels (panels.h): layout and the dock's sections. The histogram plot, the help and
 * the marks over the picture are in panels_draw.cpp, the display mode's section and the
 * comparison's numbers in panels_display.cpp, the widgets they share in panels_widgets.cpp. */
#include "panels_internal.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>   /* the modifier bits of a press (the key codes are GLFW's) */

/* Points of the layout (times the GUI's scale), and the dock's largest share of the width:
 * at 640x400 a 16:9 picture fitted beside it keeps 35 % of the window. */
enum { DOCK_PT = 310, DOCK_MIN_PT = 230 };
static const float DOCK_SHARE = 0.375f;


extern "C" void panels_layout(const viewer *v, viewer_panel *p, viewport *vp)
{
    float s = ui_scale(p->gui), row = panels_row(v);
    int top = (int)(row + 4 * s), bottom = (int)(row + 4 * s);
    int dock = 0;
    if (!v->s.show_panels)
        top = bottom = 0;   /* the picture alone fills the window */
    if (v->s.show_panels) {
        dock = (int)fminf(DOCK_PT * s, v->fb_w * DOCK_SHARE);
        if (dock < DOCK_MIN_PT * s)
            dock = 0;   /* too narrow for its text: folded away (Ctrl+H shows it floating) */
    }
    p->dock_w = dock;
    int legend = panels_legend_width(v);   /* false colour: its legend left of the picture */
    *vp = viewport{legend, top, v->fb_w - dock - legend, v->fb_h - top - bottom};
    if (vp->w < 1)
        vp->w = 1;
    if (vp->h < 1)
        vp->h = 1;
}

/* A window of the panels at R (x, y, w, h) that the user neither moves nor resizes. */
static bool fixed_window(const char *name, float x, float y, float w, float h,
                         ImGuiWindowFlags flags)
{
    ImGui::SetNextWindowPos(ImVec2(x, y));
    ImGui::SetNextWindowSize(ImVec2(w, h));
    return ImGui::Begin(name, NULL,
                        flags | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                            ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
}

/* A bar of one row (the menu bar, the status bar): fixed_window with little padding above
 * and below, so that the row fits. */
static bool bar_window(const viewer *v, const char *name, float y, float h,
                       ImGuiWindowFlags flags)
{
    float s = ui_scale(v->pnl.gui);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6 * s, 2 * s));
    bool shown = fixed_window(name, 0, y, (float)v->fb_w, h,
                              flags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                  ImGuiWindowFlags_NoBringToFrontOnFocus);
    ImGui::PopStyleVar();
    return shown;
}

/* ---------------------------------------------------------------------------------------
 * Menu bar: one menu per action group, each action with its keys, greyed when disabled */

/* An action's entry: its short label, keys and check mark; its whole label in a tooltip. */
static void menu_item(const viewer *v, viewer_panel *p, action_id id)
{
    const action *a = action_get(id);
    char keys[96], label[160], help[256];
    action_keys_text(id, keys, sizeof keys);
    action_menu_label(id, label, sizeof label);
    bool on = a->checked && a->checked(v);
    if (ImGui::MenuItem(label, keys, on, action_enabled(v, id))) {
        if (a->hold)   /* from a menu there is no key to let go: a switch */
            panels_act(p, id, !on);
        else
            panels_run(p, id);
    }
    panels_note("menu_%s", a->id);
    panels_note_text("menu_entry", label);
    action_plain_label(id, help, sizeof help);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) && strcmp(help, label) != 0) {
        ImGui::SetTooltip("%s", help);
        panels_note_text("tooltip", help);
    }
}

static void menu_bar(const viewer *v, viewer_panel *p)
{
    bool open = false;
    if (bar_window(v, "menu", 0, (float)v->rnd.area.y, ImGuiWindowFlags_MenuBar) &&
        ImGui::BeginMenuBar()) {
        for (int g = 0; g < GROUP_COUNT; g++) {
            bool shown = ImGui::BeginMenu(action_group_name((action_group)g));
            panels_note("menubar%d", g);
            if (!shown)
                continue;
            open = true;
            for (int i = 0; i < ACT_COUNT; i++)
                if (action_get((action_id)i)->group == (action_group)g)
                    menu_item(v, p, (action_id)i);
            if (v->pnl.menu_close)   /* Esc */
                ImGui::CloseCurrentPopup();
            ImGui::EndMenu();
        }
        ImGui::EndMenuBar();
    }
    ImGui::End();
    p->menu_open = open && !p->menu_close;
    p->menu_close = false;
}

/* ---------------------------------------------------------------------------------------
 * The dock's sections */

static void section_images(const viewer *v, viewer_panel *p)
{
    if (v->doc.list.nfiles == 0)
        panels_text(v->net ? "waiting for images (--listen)" : "no image: Ctrl+O or drop files",
                    false);
    for (int i = 0; i < v->doc.list.nfiles; i++) {
        char name[160];
        const char *base = viewer_base_name(v->doc.list.files[i]);
        if (i == v->doc.list.cur && v->doc.have_image)
            snprintf(name, sizeof name, "%d  %s  %dx%d", i + 1, base, v->doc.img.width,
                     v->doc.img.height);
        else if (i == v->doc.list.cur && viewer_loading(v))
            snprintf(name, sizeof name, "%d  %s  (loading)", i + 1, base);
        else
            snprintf(name, sizeof name, "%d  %s", i + 1, base);
        if (i == v->s.ref)
            snprintf(name + strlen(name), sizeof name - strlen(name), "  (reference)");
        ImGui::PushID(i);
        bool is_ref = i == v->s.ref;   /* a click below may change it: pop what was pushed */
        if (is_ref)   /* the reference: marked, as tev does */
            ImGui::PushStyleColor(ImGuiCol_Text, PANELS_GREEN);
        panels_cell(0, 0.86f);
        float w = ImGui::CalcItemWidth();
        ImGui::AlignTextToFramePadding();   /* as high as the button beside it */
        bool shift = v->in.press_mods & GLFW_MOD_SHIFT;
        if (panels_selectable(name, i == v->doc.list.cur, w)) {
            if (shift)   /* Shift+click: the reference (tev) */
                panels_act(p, ACT_SET_REFERENCE, i);
            else if (i != v->doc.list.cur)
                panels_act(p, ACT_SELECT_IMAGE, i);
        }
        panels_note("image%d", i);
        if (is_ref)
            ImGui::PopStyleColor();
        panels_cell(0.86f, 0.14f);
        if (ImGui::Button("x", ImVec2(ImGui::CalcItemWidth(), 0)))
            panels_act(p, ACT_CLOSE_IMAGE, i);
        panels_note("close%d", i);
        ImGui::PopID();
    }
}

/* The shown file's folder, its images listed (one key away: Ctrl+PageDown / PageUp). */
static void section_folder(const viewer *v, viewer_panel *p)
{
    const file_list *l = &v->doc.list;
    int at = file_list_neighbour_index(l);
    if (l->nneighbours == 0 || at < 0) {
        panels_text("Ctrl+PageDown / PageUp: the files beside it", false);
        return;
    }
    for (int i = 0; i < l->nneighbours; i++) {
        ImGui::PushID(i);
        if (panels_selectable(file_list_name(l->neighbours[i]), i == at, 0) && i != at)
            panels_act(p, ACT_SET_NEIGHBOUR, i - at);
        panels_note("neighbour%d", i);
        ImGui::PopID();
    }
}

static typed_field g_fields[4];   /* Lmin, Lmax, Ldmax, Dr */

static void section_range(const viewer *v, viewer_panel *p)
{
    const tonemap_result *r = renderer_result(&v->rnd, &v->doc, &v->s, v->vp);
    bool manual = v->s.tm.lmin > 0 && v->s.tm.lmax > v->s.tm.lmin;
    double lo = manual ? v->s.tm.lmin : r && r->bw_max > r->bw_min ? exp(r->bw_min) : 1e-3;
    double hi = manual ? v->s.tm.lmax : r && r->bw_max > r->bw_min ? exp(r->bw_max) : 1e3;
    bool autom = !manual;
    if (ImGui::Checkbox("automatic luminance range (A)", &autom))
        panels_run(p, autom ? ACT_RANGE_AUTO : ACT_RANGE_FIT);
    panels_note_text("auto_range", autom ? "on" : "off");
    double x = panels_log_slider(HT_SET_LMIN, lo, &g_fields[0]);
    if (!std::isnan(x)) {
        panels_act(p, ACT_SET_LMAX, hi);
        panels_act(p, ACT_SET_LMIN, x);
    }
    x = panels_log_slider(HT_SET_LMAX, hi, &g_fields[1]);
    if (!std::isnan(x)) {
        panels_act(p, ACT_SET_LMIN, lo);
        panels_act(p, ACT_SET_LMAX, x);
    }
}

static void section_settings(const viewer *v, viewer_panel *p)
{
    section_range(v, p);
    double x = panels_log_slider(HT_SET_LDMAX, v->s.tm.ldmax, &g_fields[2]);
    if (!std::isnan(x))
        panels_act(p, ACT_SET_LDMAX, x);
    x = panels_log_slider(HT_SET_DRANGE, v->s.tm.drange, &g_fields[3]);
    if (!std::isnan(x))
        panels_act(p, ACT_SET_DRANGE, x);
    panels_enum_combo(p, "ceiling", tonemap_ceilings, v->s.tm.ceiling, ACT_SET_CEILING);
    panels_enum_combo(p, "samples", tonemap_samplings, v->s.tm.sampling, ACT_SET_SAMPLING);
    panels_enum_combo(p, "weights", tonemap_luminances, v->s.tm.luminance, ACT_SET_WEIGHTS);
    panels_enum_combo(p, "transfer", tonemap_transfers, v->s.tm.transfer, ACT_SET_TRANSFER);
    panels_cell(0, 0.5f);
    int bins = panels_count(HT_SET_BINS, v->s.tm.bins);
    if (bins != v->s.tm.bins)   /* a step doubles or halves */
        panels_act(p, ACT_SET_BINS, bins > v->s.tm.bins ? v->s.tm.bins * 2 : v->s.tm.bins / 2);
    panels_cell(0.5f, 0.5f);
    int msaa = panels_count(HT_SET_MSAA, v->s.msaa);
    if (msaa > v->s.msaa)
        panels_run(p, ACT_MSAA);   /* the next count the GPU offers */
    else if (msaa < v->s.msaa)
        panels_act(p, ACT_SET_MSAA, v->s.msaa / 2 < 1 ? 1 : v->s.msaa / 2);
    panels_cell(0, 0.5f);
    panels_toggle(v, p, ACT_LINEAR, "linear (K)");
    panels_cell(0.5f, 0.5f);
    panels_toggle(v, p, ACT_POINTS, "point samples (I)");
    panels_cell(0, 0.5f);
    panels_toggle(v, p, ACT_ADAPT_VIEW, "adapt to view (V)");
    panels_cell(0.5f, 0.5f);
    panels_toggle(v, p, ACT_PCOND, "pcond preset (Shift+P)");
    ImGui::TextUnformatted("Human vision");
    panels_cell(0, 1 / 3.0f);
    panels_toggle(v, p, ACT_VEIL, "veil");
    panels_cell(1 / 3.0f, 1 / 3.0f);
    panels_toggle(v, p, ACT_ACUITY, "acuity");
    panels_cell(2 / 3.0f, 1 / 3.0f);
    panels_toggle(v, p, ACT_COLOR_LOSS, "colour");
    char human[512];
    viewer_status_human(v, human, sizeof human);
    if (human[0])
        panels_text(human, false);
}

static void section_parts(const viewer *v, viewer_panel *p)
{
    for (int k = 0; k < v->doc.part_count; k++) {
        char name[96];
        const char *pn = v->doc.img.parts ? v->doc.img.parts[k].name : "";
        snprintf(name, sizeof name, "part %d%s%s", k, pn[0] ? "  " : "", pn);
        ImGui::PushID(k);
        if (panels_selectable(name, k == v->doc.part_idx, 0) && k != v->doc.part_idx)
            panels_act(p, ACT_SET_PART, k);
        panels_note("part%d", k);
        if (k == v->doc.part_idx) {
            char layers[VIEWER_MAX_LAYERS][64];
            int n = viewer_layer_names(v, layers, VIEWER_MAX_LAYERS);
            ImGui::Indent();
            for (int l = 0; l < n; l++) {
                ImGui::PushID(l);
                if (panels_selectable(layers[l][0] ? layers[l] : "(none)",
                                      strcmp(v->doc.img.layer, layers[l]) == 0, 0))
                    panels_act(p, ACT_SET_LAYER, l);
                panels_note("layer%d", l);
                ImGui::PopID();
            }
            ImGui::Unindent();
        }
        ImGui::PopID();
    }
    if (v->doc.part_count <= 1)
        panels_text("one part", false);
}

static void section_compare(const viewer *v, viewer_panel *p)
{
    if (v->s.ref < 0) {
        panels_text("no reference: Shift+R marks the shown image,\nShift+click one in the list",
                    false);
        return;
    }
    char text[512];
    snprintf(text, sizeof text, "reference: %d  %s", v->s.ref + 1,
             viewer_base_name(viewer_ref_path(v)));
    panels_text(text, false);
    panels_enum_combo(p, "mode", compare_modes, v->s.compare, ACT_SET_COMPARE);
    panels_note_text("compare_mode", ht_enum_name(compare_modes, v->s.compare));
    if (v->rnd.ntiles > 1)
        panels_text("(shown in the single layout: J)", false);
    panels_toggle(v, p, ACT_WIPE_AXIS, "horizontal divider");
    ImGui::SameLine();
    if (ImGui::Button("no reference"))
        panels_act(p, ACT_SET_REFERENCE, -1);
    if (v->doc.ref_err[0])
        panels_text(v->doc.ref_err, true);
    const char *msaa =
        v->s.compare != COMPARE_OFF ? viewer_msaa_note(v, v->rnd.samples, false) : NULL;
    if (msaa) {   /* the mode changed the picture's samples: said where the mode is chosen */
        char note[160];
        snprintf(note, sizeof note, "MSAA %d, not %d: %s", v->rnd.samples, v->s.msaa, msaa);
        panels_text(note, false);
        panels_note_text("compare_msaa", note);
    }
    panels_compare_numbers(v, p);
    panels_whole_numbers(v, p);
}

static void section_pixel(const viewer *v, viewer_panel *p)
{
    char text[512];
    viewer_pixel_text(v, text, sizeof text);
    int lines = 1;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    panels_text(text, false);
    panels_note_text("pixel", text);
    for (; lines < VIEWER_PIXEL_LINES; lines++)   /* the longest text's room: nothing moves */
        ImGui::TextUnformatted("");
    panels_pins(v, p);
}

/* The file's metadata as stats --json gives it (image.h: every header attribute, EXIF/XMP,
 * ICC and CICP, long values already folded): each key over its value, wrapped to the dock. */
static void section_metadata(const viewer *v, viewer_panel *p)
{
    (void)p;   /* a section's body: reads only */
    if (v->doc.img.meta_count == 0) {
        const char *none = v->doc.img.width > 0 ? "the file gives none" : "no image";
        panels_text(none, false);
        panels_note_text("meta_none", none);
        return;
    }
    char line[IMAGE_META_FOLD + 256];
    for (int i = 0; i < v->doc.img.meta_count; i++) {
        const image_meta *m = &v->doc.img.meta[i];
        ImGui::TextDisabled("%s", m->key);
        ImGui::Indent();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(m->value);
        ImGui::PopTextWrapPos();
        ImGui::Unindent();
        snprintf(line, sizeof line, "%s = %s", m->key, m->value);
        panels_note_text("meta", line);
    }
}

/* A section of the dock under a header, open at first when OPEN. */
static void section(const viewer *v, viewer_panel *p, const char *title, bool open,
                    void (*body)(const viewer *, viewer_panel *))
{
    bool shown = ImGui::CollapsingHeader(title, open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    char name[64];
    snprintf(name, sizeof name, "section_%s", title);
    for (char *c = name; *c; c++)   /* one word, for the layout hook's lines */
        *c = *c == ' ' ? '_' : *c;
    panels_note("%s", name);
    if (shown)
        body(v, p);
}

static void dock(const viewer *v, viewer_panel *p)
{
    static int ref_was = -1;
    if (v->pnl.dock_w <= 0)
        return;
    if (fixed_window("dock", (float)(v->fb_w - v->pnl.dock_w), (float)v->rnd.area.y,
                     (float)v->pnl.dock_w, (float)v->rnd.area.h,
                     ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoBringToFrontOnFocus)) {
        section(v, p, "Images", true, section_images);
        section(v, p, "Folder", false, section_folder);
        section(v, p, "Display", true, panels_display);
        if (v->s.ref >= 0 && ref_was < 0)   /* a reference set: its section opens */
            ImGui::SetNextItemOpen(true);
        ref_was = v->s.ref;
        section(v, p, "Compare", false, section_compare);
        section(v, p, "Histogram and curve", true, panels_histogram);
        section(v, p, "Region", true, panels_region);
        section(v, p, "Pixel", true, section_pixel);
        section(v, p, "Settings", true, section_settings);
        section(v, p, "Parts and layers", false, section_parts);
        section(v, p, "Metadata", false, section_metadata);
    }
    ImGui::End();
}

static void status_bar(const viewer *v)
{
    float y = (float)(v->rnd.area.y + v->rnd.area.h);
    if (bar_window(v, "status", y, (float)v->fb_h - y, 0)) {
        char line[1024];
        bool error = false;
        viewer_status_line(v, line, sizeof line, &error);
        ImGui::AlignTextToFramePadding();
        if (error)
            ImGui::PushStyleColor(ImGuiCol_Text, PANELS_RED);
        ImGui::TextUnformatted(line);   /* one row: cut at the window's edge, not wrapped */
        if (error)
            ImGui::PopStyleColor();
        if (panels_noting() && v->doc.have_image) {   /* the tests read all of the status */
            char text[2048];
            viewer_status_text(v, v->rnd.samples, text, sizeof text);
            panels_note_text("status", text);
            /* The analysis shown: its bins and counted pixels, or pending (renderer_result). */
            const tonemap_result *r = renderer_result(&v->rnd, &v->doc, &v->s, v->vp);
            if (r)
                snprintf(text, sizeof text, "bins %d counted %lu", r->bins,
                         (unsigned long)r->n_counted);
            panels_note_text("analysis", r ? text : "pending");
        }
    }
    ImGui::End();
}

static void open_box(const viewer *v, viewer_panel *p)
{
    if (!v->s.show_open)
        return;
    float s = ui_scale(v->pnl.gui), w = fminf(520 * s, (float)v->rnd.area.w - 16);
    if (fixed_window("Open a file or folder", v->rnd.area.x + (v->rnd.area.w - w) / 2,
                     (float)v->rnd.area.y + 16 * s, w, 3 * panels_row(v) + 24 * s,
                     ImGuiWindowFlags_NoScrollbar)) {
        if (ImGui::IsWindowAppearing()) {   /* on top, the keyboard in its field */
            ImGui::SetWindowFocus();
            ImGui::SetKeyboardFocusHere();
        }
        ImGui::SetNextItemWidth(-1);
        bool enter = ImGui::InputText("##path", p->open_path, sizeof p->open_path,
                                      ImGuiInputTextFlags_EnterReturnsTrue);
        panels_note("open_path");
        panels_note_text("open_text", p->open_path);
        float bw = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
        if (ImGui::Button("Open", ImVec2(bw, 0)) || enter)
            panels_run(p, ACT_OPEN_TYPED);
        ImGui::SameLine();
        if (ImGui::Button("Cancel", ImVec2(bw, 0)))
            panels_run(p, ACT_OPEN);
    }
    ImGui::End();
}

/* What the drawing asked for (the panel part's queue), done now on the whole viewer. */
static void panels_done(viewer *v)
{
    viewer_panel *p = &v->pnl;
    for (int i = 0; i < p->nacts; i++) {
        if (p->acts[i].set)
            action_set(v, (action_id)p->acts[i].id, p->acts[i].value);
        else
            action_run(v, (action_id)p->acts[i].id);
    }
    for (int i = 0; i < p->nwhole_asks; i++)
        viewer_whole_ask(v, p->whole_asks[i]);
    p->nacts = p->nwhole_asks = 0;
}

extern "C" void panels_build(viewer *v)
{
    viewer_panel *p = &v->pnl;
    ui_frame_begin(p->gui, v->fb_w, v->fb_h);
    panels_layout_begin(v);
    if (v->s.show_panels) {
        menu_bar(v, p);
        dock(v, p);
        status_bar(v);
    } else {
        p->menu_open = p->menu_close = false;   /* no menu bar: no menu open */
    }
    open_box(v, p);
    if (v->s.show_help)
        panels_help(v);
    panels_canvas(v, ImGui::GetBackgroundDrawList());
    panels_tiles(v, p, ImGui::GetBackgroundDrawList());
    char shown[64];
    snprintf(shown, sizeof shown, "%dx%d", v->doc.img.width, v->doc.img.height);
    char loading[280];
    viewer_loading_text(v, loading, sizeof loading);
    if (viewer_loading(v) && v->doc.list.nfiles > 0)
        panels_note_text("loading", loading);
    int at[4], rows;
    char preview[128];
    if (viewer_preview_place(v, at, &rows)) {   /* the tests' boundary of the rows shown */
        snprintf(preview, sizeof preview, "%d rows at %d %d %d %d", rows, at[0], at[1], at[2],
                 at[3]);
        panels_note_text("preview", preview);
    }
    else if (v->doc.have_image)
        panels_note_text("shown", shown);
    panels_layout_end();
    panels_done(v);
}

extern "C" bool panels_hovered(const viewer *v, double x, double y)
{
    return ui_over_window(v->pnl.gui, x, y);
}
