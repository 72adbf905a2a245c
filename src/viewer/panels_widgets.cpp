/* The panels' widgets and the test hook's notes (panels_internal.h): the rows, cells,
 * labels, sliders, typed fields, combos, counts and plots every section of the panels
 * builds with. Calls no other panels file. */
#include "panels_internal.h"

/* The test hook HT_TEST_LAYOUT=FILE: each frame, FILE gets where the named widgets are
 * ("NAME X Y W H" in framebuffer pixels), written whole (rename) so a reader never sees
 * half a frame. The window tests click on them with xdotool. */
static FILE *g_layout;

void panels_layout_begin(const viewer *v)
{
    const char *path = getenv("HT_TEST_LAYOUT");
    char tmp[4096];
    if (path && snprintf(tmp, sizeof tmp, "%s.tmp", path) < (int)sizeof tmp)
        g_layout = fopen(tmp, "w");
    if (g_layout)
        fprintf(g_layout, "viewport %d %d %d %d\n", v->vp.x, v->vp.y, v->vp.w, v->vp.h);
    for (int i = 0; g_layout && v->rnd.ntiles > 1 && i < v->rnd.ntiles; i++)
        fprintf(g_layout, "tile%d %d %d %d %d\ntile_name: %d %s\n", i, v->rnd.tiles[i].at.x,
                v->rnd.tiles[i].at.y, v->rnd.tiles[i].at.w, v->rnd.tiles[i].at.h, i,
                viewer_tile_name(v, i));
}

void panels_layout_end(void)
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

bool panels_noting(void) { return g_layout != NULL; }

void panels_note_text(const char *name, const char *text)
{
    for (const char *l = text; g_layout && l && *l;) {
        const char *end = strchr(l, '\n');
        int n = end ? (int)(end - l) : (int)strlen(l);
        fprintf(g_layout, "%s: %.*s\n", name, n, l);
        l = end ? end + 1 : NULL;
    }
}

void panels_note(const char *fmt, ...)
{
    if (!g_layout)
        return;
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    va_list ap;
    va_start(ap, fmt);
    vfprintf(g_layout, fmt, ap);
    va_end(ap);
    fprintf(g_layout, " %d %d %d %d\n", (int)a.x, (int)a.y, (int)(b.x - a.x), (int)(b.y - a.y));
}

float panels_row(const viewer *v) { return ui_text_px(v->pnl.gui) + 8 * ui_scale(v->pnl.gui); }

void panels_cell(float from, float width)
{
    float x0 = ImGui::GetWindowContentRegionMin().x;
    float w = ImGui::GetWindowContentRegionMax().x - x0;
    if (from > 0)
        ImGui::SameLine(x0 + from * w);
    float gap = from + width < 0.999f ? ImGui::GetStyle().ItemSpacing.x : 0;
    ImGui::SetNextItemWidth(fmaxf(1, width * w - gap));
}

/* A typed number: F's text, shown as VALUE unless it is being edited; true with the typed
 * number in *typed when Enter commits it (the field then lets the keyboard go). */
static bool typed_number(typed_field *f, double value, double *typed)
{
    if (!f->editing)   /* shows the value, unless the user is typing one */
        snprintf(f->text, sizeof f->text, "%.4g", value);
    bool enter = ImGui::InputText("##typed", f->text, sizeof f->text,
                                  ImGuiInputTextFlags_CharsScientific |
                                      ImGuiInputTextFlags_EnterReturnsTrue |
                                      ImGuiInputTextFlags_AutoSelectAll);
    f->editing = ImGui::IsItemActive() && !enter;
    char *end;
    *typed = strtod(f->text, &end);
    return enter && end != f->text;
}

void panels_setting_label(ht_setting_id id)
{
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ht_settings[id].label);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s (--%s, %g to %g)", ht_settings[id].tooltip, ht_settings[id].name,
                          ht_settings[id].min, ht_settings[id].max);
}

double panels_log_slider(ht_setting_id id, double value, typed_field *f)
{
    const ht_setting *s = &ht_settings[id];
    ImGui::PushID(s->label);
    panels_cell(0, 0.2f);
    panels_setting_label(id);
    float l = (float)log10(fmax(value, s->span_lo)), nl = l;
    panels_cell(0.2f, 0.45f);
    bool moved = ImGui::SliderFloat("##slider", &nl, (float)log10(s->span_lo),
                                    (float)log10(s->span_hi), "", ImGuiSliderFlags_NoRoundToFormat);
    panels_note("slider_%s", s->label);
    panels_cell(0.65f, 0.35f);
    double typed;
    bool entered = typed_number(f, value, &typed);
    ImGui::PopID();
    if (moved && nl != l)
        return pow(10.0, nl);
    if (entered)   /* the setter clamps to the limits, wider than the slider's span */
        return typed;
    return NAN;
}

void panels_enum_combo(viewer_panel *p, const char *name, const ht_enum *table, int value,
                       action_id set)
{
    const char *labels[16];
    int n = 0, cur = 0;
    for (; table[n].name && n < 16; n++) {
        labels[n] = table[n].label;
        if (table[n].value == value)
            cur = n;
    }
    int got = panels_combo_row(name, labels, n, cur, n);
    if (got >= 0)
        panels_act(p, set, table[got].value);
}

/* Queued in the panel part: the drawing reads the viewer as const. */
static void queue(viewer_panel *p, action_id id, double value, bool set)
{
    int n = (int)(sizeof p->acts / sizeof p->acts[0]);
    if (p->nacts < n)   /* more than a frame's clicks can ask for: dropped */
        p->acts[p->nacts++] = {(int)id, value, set};
}

void panels_act(viewer_panel *p, action_id id, double value) { queue(p, id, value, true); }
void panels_run(viewer_panel *p, action_id id) { queue(p, id, 0, false); }

int panels_combo_row(const char *name, const char *const *items, int n, int cur, int shown)
{
    ImGui::PushID(name);
    panels_cell(0, 0.35f);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(name);
    panels_cell(0.35f, 0.65f);
    int got = cur;
    bool chose = ImGui::Combo("##combo", &got, items, n, shown) && got != cur;
    panels_note("combo_%s", name);
    ImGui::PopID();
    return chose ? got : -1;
}

void panels_toggle(const viewer *v, viewer_panel *p, action_id id, const char *name)
{
    const action *a = action_get(id);
    bool on = a->checked(v);
    if (ImGui::Checkbox(name, &on))
        panels_run(p, id);
}

int panels_count(ht_setting_id id, int value)
{
    const char *name = ht_settings[id].label;
    float w = ImGui::CalcItemWidth();   /* the cell's (panels_cell) */
    panels_setting_label(id);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fmaxf(1, w - ImGui::CalcTextSize(name).x -
                                         ImGui::GetStyle().ItemSpacing.x));
    ImGui::PushID(name);
    int n = value;
    bool changed = ImGui::InputInt("##count", &n, 1, 1);
    panels_note("count_%s", name);
    ImGui::PopID();
    if (changed && n != value)
        return (int)ht_setting_clamp(id, n);
    return value;
}

bool panels_selectable(const char *label, bool selected, float width)
{
    ImGui::PushStyleColor(ImGuiCol_Header, IM_COL32(40, 90, 150, 255));
    ImGui::PushStyleColor(ImGuiCol_HeaderHovered, IM_COL32(60, 100, 150, 255));
    ImGui::PushStyleColor(ImGuiCol_HeaderActive, IM_COL32(40, 90, 150, 255));
    bool clicked = ImGui::Selectable(label, selected, 0, ImVec2(width, 0));
    ImGui::PopStyleColor(3);
    return clicked;
}

void panels_text(const char *text, bool error)
{
    if (error)
        ImGui::PushStyleColor(ImGuiCol_Text, PANELS_RED);
    ImGui::PushTextWrapPos(0.0f);   /* a line wider than the dock goes on below, not cut off */
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        ImGui::TextUnformatted(line, end ? end : line + strlen(line));
        line = end ? end + 1 : NULL;
    }
    ImGui::PopTextWrapPos();
    if (error)
        ImGui::PopStyleColor();
}

bool panels_plot_area(float h, ImVec2 *a, ImVec2 *size)
{
    *size = ImVec2(ImGui::GetContentRegionAvail().x, h);
    *a = ImGui::GetCursorScreenPos();
    ImGui::Dummy(*size);
    if (!ImGui::IsItemVisible())
        return false;
    ImGui::GetWindowDrawList()->AddRectFilled(*a, ImVec2(a->x + size->x, a->y + size->y),
                                              IM_COL32(24, 24, 27, 255));
    return true;
}

/* TEXT at (X, Y) on a box of BG (none when transparent), with padding. */
void panels_label(ImDrawList *dl, float x, float y, const char *text, ImU32 bg, ImU32 fg,
                  float wrap)
{
    float pad = ImGui::GetStyle().FramePadding.x, at = wrap > 0 ? wrap - 2 * pad : 0.0f;
    ImVec2 size = ImGui::CalcTextSize(text, nullptr, false, at > 0 ? at : -1.0f);
    if (bg & IM_COL32_A_MASK)
        dl->AddRectFilled(ImVec2(x, y), ImVec2(x + size.x + 2 * pad, y + size.y + pad), bg);
    dl->AddText(nullptr, 0.0f, ImVec2(x + pad, y + pad / 2), fg, text, nullptr, at > 0 ? at : 0.0f);
}

void panels_cover_outside(const viewer *v, ImDrawList *dl, viewport at, view_place p, int w,
                          int h)
{
    if (v->s.disp.mode == HT_VIEW_TONEMAP)
        return;
    view_point a = view_to_window(p, view_point{0, 0});
    view_point b = view_to_window(p, view_point{(double)w, (double)h});
    float x0 = (float)at.x, y0 = (float)at.y, x1 = x0 + at.w, y1 = y0 + at.h;
    float ax = fmaxf(x0, x0 + (float)a.x), ay = fmaxf(y0, y0 + (float)a.y);
    float bx = fminf(x1, x0 + (float)b.x), by = fminf(y1, y0 + (float)b.y);
    ImU32 bg = IM_COL32(0, 0, 0, 255);
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, fmaxf(y0, ay)), bg);
    dl->AddRectFilled(ImVec2(x0, fminf(by, y1)), ImVec2(x1, y1), bg);
    dl->AddRectFilled(ImVec2(x0, ay), ImVec2(fmaxf(x0, ax), fmaxf(ay, by)), bg);
    dl->AddRectFilled(ImVec2(fminf(bx, x1), ay), ImVec2(x1, fmaxf(ay, by)), bg);
}

void panels_numbers_text(const flip_pooled *fp, bool flip, const metrics_values *m, char *buf,
                         size_t len)
{
    int n = 0;
    if (flip)
        n = snprintf(buf, len,
                     "FLIP mean %.4f  median %.4f\n     q1 %.4f  q3 %.4f\n"
                     "     min %.4f  max %.4f\n",
                     fp->mean, fp->weighted_median, fp->q1, fp->q3, fp->min, fp->max);
    snprintf(buf + n, len - (size_t)n,
             "MSE %.4g  RMSE %.4g\nPSNR %.2f dB  relMSE %.4g\nMAE %.4g",
             m->mse, m->rmse, m->psnr, m->relmse, m->mae);
}
