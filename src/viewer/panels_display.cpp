/* The panels of the display mode: its settings in the dock, and the false-colour legend
 * beside the picture (drawn from the same layout and palette as export's, legend.h). */
#include "panels_internal.h"

extern "C" {
#include "legend.h"
}

/* Legend pixels per pixel of falsecolor's 100-pixel-wide legend, times the GUI's scale. */
static const float LEGEND_ZOOM = 1.5f;

/* The colour bar of the error map shown, once its numbers have come. */
static bool compare_bar(const viewer *v, metrics_colorbar *cb)
{
    if (!viewer_compare_ready(v) || v->s.flip_held)
        return false;
    *cb = v->rnd.cmp_numbers.colorbar;
    return cb->lut != NULL;
}

int panels_legend_width(const viewer *v)
{
    /* By the mode, not by whether the bar's numbers have come: the viewport keeps its size
     * from the map's first frame (a new size would render and compare everything again). */
    if (v->doc.have_image && v->s.ref >= 0 && viewer_compare_map(v))
        return (int)(90 * ui_scale(v->pnl.gui));
    if (v->s.disp.mode != HT_VIEW_FALSECOLOR || !v->doc.have_image)
        return 0;
    float s = ui_scale(v->pnl.gui);
    return (int)(LEGEND_WIDTH * LEGEND_ZOOM * s + 8 * s);
}

/* The error map's colour bar left of the picture: top the largest value. */
static void draw_compare_bar(const viewer *v, ImDrawList *dl, const metrics_colorbar *bar)
{
    float s = ui_scale(v->pnl.gui), x = 4 * s, y = (float)v->vp.y + 8 * s;
    float h = fminf(300 * s, (float)v->vp.h - 16 * s), w = 20 * s, th = ui_text_px(v->pnl.gui);
    for (int i = 0; i < 256; i++) {
        const uint8_t *c = bar->lut[255 - i];
        dl->AddRectFilled(ImVec2(x, y + h * i / 256.0f),
                          ImVec2(x + w, y + h * (i + 1) / 256.0f + 1),
                          IM_COL32(c[0], c[1], c[2], 255));
    }
    for (int k = 0; k <= 4; k++) {   /* five labels, top to bottom */
        char t[32];
        snprintf(t, sizeof t, "%.3g", bar->hi - (bar->hi - bar->lo) * k / 4.0);
        dl->AddText(ImVec2(x + w + 4 * s, y + h * k / 4.0f - th / 2), IM_COL32(230, 230, 230, 255),
                    t);
    }
}

void panels_legend(const viewer *v, ImDrawList *dl)
{
    metrics_colorbar bar;
    if (!panels_legend_width(v))
        return;
    if (compare_bar(v, &bar)) {
        draw_compare_bar(v, dl, &bar);
        return;
    }
    const display_params *d = &v->rnd.disp_res;
    legend_layout l;
    legend_layout_of(d, &l);
    float s = ui_scale(v->pnl.gui), k = LEGEND_ZOOM * s, x = 4 * s, y = (float)v->vp.y + 4 * s;
    ImU32 text = IM_COL32(230, 230, 230, 255);
    for (int r = 0; r < l.strip_rows; r++) {
        double pos = legend_row_position(&l, r), c[3];
        double nb[4] = {pos, pos, legend_row_position(&l, r - 1), legend_row_position(&l, r + 1)};
        falsecolor_rgb(d, pos, nb, c);
        ImU32 col = IM_COL32(tonemap_encode(&v->s.tm, c[0]), tonemap_encode(&v->s.tm, c[1]),
                             tonemap_encode(&v->s.tm, c[2]), 255);
        float ry = y + (l.strip_top + r) * k;
        dl->AddRectFilled(ImVec2(x, ry), ImVec2(x + LEGEND_STRIP * k, ry + k + 0.5f), col);
    }
    float th = ui_text_px(v->pnl.gui);
    dl->AddText(ImVec2(x, y), text, "cd/m2");
    for (int i = 0; i < l.nlabels; i++) {
        float ly = y + (l.strip_top + l.label_row[i]) * k - th / 2;
        dl->AddText(ImVec2(x + (LEGEND_STRIP + 3) * k, ly), text, l.labels[i].text);
    }
    if (v->rnd.units.rule == HT_UNITS_RELATIVE)   /* the numbers are not cd/m2 then: say so */
        dl->AddText(ImVec2(x, y + l.height * k + 4 * s), PANELS_RED, "relative units");
}

static typed_field g_fields[3];   /* exposure, scale maximum, channel range (shown) */


static void falsecolor_settings(const viewer *v, viewer_panel *p)
{
    bool autom = v->s.disp.fc_max <= 0;
    if (ImGui::Checkbox("automatic scale (falsecolor -s a)", &autom))
        panels_act(p, ACT_SET_FC_MAX, autom ? 0 : v->rnd.disp_res.fc_max);
    double x = panels_log_slider(HT_SET_FC_MAX, v->rnd.disp_res.fc_max, &g_fields[1]);
    if (!std::isnan(x))
        panels_act(p, ACT_SET_FC_MAX, x);
    panels_cell(0, 0.5f);
    int dec = panels_count(HT_SET_FC_LOG, v->s.disp.fc_decades);
    if (dec != v->s.disp.fc_decades)
        panels_act(p, ACT_SET_FC_DECADES, dec);
    panels_cell(0.5f, 0.5f);
    int steps = panels_count(HT_SET_FC_STEPS, v->s.disp.fc_steps);
    if (steps != v->s.disp.fc_steps)
        panels_act(p, ACT_SET_FC_STEPS, steps);
    panels_enum_combo(p, "style", display_fc_styles, v->s.disp.fc_style, ACT_SET_FC_STYLE);
}

/* Setting ID's label and a linear slider of VALUE over its span; a move runs the setter SET. */
static void slider(viewer_panel *p, ht_setting_id id, double value, action_id set)
{
    const ht_setting *s = &ht_settings[id];
    ImGui::PushID(s->label);
    panels_cell(0, 0.35f);
    panels_setting_label(id);
    panels_cell(0.35f, 0.65f);
    float now = (float)value;
    if (ImGui::SliderFloat("##slider", &now, (float)s->span_lo, (float)s->span_hi, "%.2f") &&
        now != (float)value)
        panels_act(p, set, now);
    panels_note("slider_%s", s->name);   /* the label has a space: the hook's names have none */
    ImGui::PopID();
}

/* NAME and a combo of the N NAMES (first NONE when given: index -1) showing CURRENT (NULL:
 * NONE); a choice runs the setter SET with its index. */
static void name_combo(viewer_panel *p, const char *name, const char *const *names, int n,
                       const char *current, const char *none, action_id set)
{
    const char *items[257];
    int k = 0, cur = 0;
    if (none)
        items[k++] = none;
    for (int i = 0; i < n && k < 257; i++, k++) {
        items[k] = names[i];
        if (current && strcmp(current, names[i]) == 0)
            cur = k;
    }
    int got = panels_combo_row(name, items, k, cur, 12);
    if (got >= 0)
        panels_act(p, set, got - (none ? 1 : 0));
}

/* The OCIO view's choices: display, view, look, the input space (docs/colour.md). */
static void ocio_settings(const viewer *v, viewer_panel *p)
{
    const char *names[256];
    const display_params *d = &v->s.disp;
    const char *display = d->ocio_display ? d->ocio_display : viewer_ocio_default(&v->rnd, NULL);
    int n = viewer_ocio_names(&v->rnd, OCIO_DISPLAYS, NULL, names, 256);
    name_combo(p, "display", names, n, display, NULL, ACT_SET_OCIO_DISPLAY);
    n = viewer_ocio_names(&v->rnd, -1, display, names, 256);
    const char *view = d->ocio_view ? d->ocio_view : viewer_ocio_default(&v->rnd, display);
    name_combo(p, "view", names, n, view, NULL, ACT_SET_OCIO_VIEW);
    n = viewer_ocio_names(&v->rnd, OCIO_LOOKS, NULL, names, 256);
    if (n)
        name_combo(p, "look", names, n, d->ocio_look, "none", ACT_SET_OCIO_LOOK);
    n = viewer_ocio_names(&v->rnd, OCIO_SPACES, NULL, names, 256);
    name_combo(p, "input", names, n, d->ocio_input, "the file's", ACT_SET_OCIO_INPUT);
    if (!d->ocio_input && v->rnd.disp_res.ocio_input) {
        char text[192];
        snprintf(text, sizeof text, "input: %s", v->rnd.disp_res.ocio_input);
        panels_text(text, false);
    }
}

void panels_display(const viewer *v, viewer_panel *p)
{
    panels_enum_combo(p, "show", display_modes, v->s.disp.mode, ACT_SET_VIEW);
    char text[256];
    if (v->s.disp.mode == HT_VIEW_EXPOSURE) {
        slider(p, HT_SET_EXPOSURE, v->s.disp.exposure, ACT_SET_EXPOSURE);
        slider(p, HT_SET_OFFSET, v->s.disp.offset, ACT_SET_OFFSET);
        snprintf(text, sizeof text, "%+.2f EV, offset %+.3f (Ctrl+E, Ctrl+Shift+E)",
                 v->s.disp.exposure, v->s.disp.offset);
        panels_text(text, false);
    } else if (v->s.disp.mode == HT_VIEW_FALSECOLOR) {
        falsecolor_settings(v, p);
    } else if (v->s.disp.mode == HT_VIEW_CHANNEL) {
        panels_enum_combo(p, "channel", display_channels, v->s.disp.channel, ACT_SET_CHANNEL);
        panels_enum_combo(p, "palette", display_channel_palettes, v->s.disp.ch_palette,
                          ACT_SET_CH_PALETTE);
        snprintf(text, sizeof text, "range %.4g .. %.4g (%s)", v->rnd.disp_res.ch_min,
                 v->rnd.disp_res.ch_max, ht_enum_label(display_channel_palettes,
                                                   v->rnd.disp_res.ch_palette));
        panels_text(text, false);
    } else if (v->s.disp.mode == HT_VIEW_OCIO) {
        ocio_settings(v, p);
    }
    colour_describe(&v->doc.img.colour, v->s.tm.display_space, text, sizeof text);
    panels_text(text, false);
    units_describe(&v->rnd.units, text, sizeof text);
    panels_text(text, v->rnd.units.rule == HT_UNITS_RELATIVE);
}

/* The region's statistics as lines (the Region section; tests read them from the layout
 * hook). "" when there is no region. */
void panels_region_text(const viewer *v, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!v->doc.region_valid)
        return;
    const region_stats *r = &v->doc.region;
    const region_lum *f = &r->file, *c = &r->cd_m2;
    snprintf(buf, len,
             "rectangle %d,%d - %d,%d\n"
             "pixels %llu (%llu counted)\n"
             "file  min %.4g  max %.4g\n"
             "      mean %.4g  median %.4g\n"
             "      log-average %.4g\n"
             "cd/m2 min %.4g  max %.4g\n"
             "      mean %.4g  median %.4g\n"
             "      log-average %.4g",
             r->rect[0], r->rect[1], r->rect[2], r->rect[3], (unsigned long long)r->pixels,
             (unsigned long long)r->counted, f->min, f->max, f->mean, f->median, f->log_average,
             c->min, c->max, c->mean, c->median, c->log_average);
}

void panels_region(const viewer *v, viewer_panel *p)
{
    char text[1024];
    panels_region_text(v, text, sizeof text);
    if (!text[0]) {
        panels_text("Shift+drag on the picture selects a region", false);
        return;
    }
    panels_text(text, false);
    panels_note_text("region", text);
    if (ImGui::Button("clear (Backspace)"))
        panels_run(p, ACT_REGION_CLEAR);
}

/* ---------------------------------------------------------------------------------------
 * The comparison's numbers (compare_gpu.h), of the picture shown and of the region */

/* FLIP's weighted histogram (100 buckets over [0, 1]) as bars. */
static void flip_histogram(const viewer *v, const flip_pooled *fp)
{
    ImVec2 a, size;
    if (!panels_plot_area(4 * panels_row(v), &a, &size))
        return;
    ImDrawList *dl = ImGui::GetWindowDrawList();
    double top = 0;
    for (int i = 0; i < FLIP_HIST_BINS; i++)
        top = fp->weighted_hist[i] > top ? fp->weighted_hist[i] : top;
    for (int i = 0; top > 0 && i < FLIP_HIST_BINS; i++) {
        float h = (float)(fp->weighted_hist[i] / top) * (size.y - 2);
        float x = a.x + size.x * i / FLIP_HIST_BINS, y1 = a.y + size.y;
        dl->AddRectFilled(ImVec2(x, y1 - h), ImVec2(x + fmaxf(1, size.x / FLIP_HIST_BINS), y1),
                          IM_COL32(230, 120, 60, 255));
    }
}

void panels_compare_numbers(const viewer *v, viewer_panel *p)
{
    static typed_field ppd_field;
    if (v->s.compare >= COMPARE_FLIP) {
        double ppd = v->s.ppd > 0 ? v->s.ppd : flip_default_ppd();
        double x = panels_log_slider(HT_SET_PPD, ppd, &ppd_field);
        if (!std::isnan(x))
            panels_act(p, ACT_SET_PPD, x);
    }
    if (v->s.compare == COMPARE_HDR_FLIP)
        panels_enum_combo(p, "tone mapper", flip_tonemappers, v->s.flip_tonemapper,
                          ACT_SET_FLIP_TONEMAPPER);
    if (v->rnd.cmp_shown && !viewer_compare_ready(v)) {   /* never another run's numbers */
        panels_text("the image as shown: computing...", false);
        panels_note_text("compare", "computing");
    }
    if (!viewer_compare_ready(v))
        return;
    const compare_gpu_numbers *n = &v->rnd.cmp_numbers;
    if (!n->has_rect)
        return;
    char text[512], head[128];
    snprintf(head, sizeof head, "%s as shown: %llu px at %.3g%%",
             v->doc.region_valid ? "the region" : "the image",
             (unsigned long long)n->metrics_rect.count, v->s.view.zoom * 100);
    panels_text(head, false);
    panels_numbers_text(&n->flip_rect, n->has_flip, &n->metrics_rect, text, sizeof text);
    panels_text(text, false);
    panels_note_text("compare", text);
    if (n->has_flip)
        flip_histogram(v, &n->flip_rect);
}
