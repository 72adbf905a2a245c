/* The panels that draw: the histogram plot, the help, and the canvas over the picture
 * (panels_internal.h). */
#include "panels_internal.h"

/* ---------------------------------------------------------------------------------------
 * Histogram and curve */

/* The plot's x axis (ln cd/m^2): the image's luminance and the histogram range, padded, so
 * the range limits show where they cut. */
static void plot_axis(const viewer *v, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    const tonemap_result *r = renderer_result(&v->rnd, &v->doc, &v->s, v->vp);
    if (r && r->mapping != HT_MAP_NONE) {
        a = fmin(r->bw_min, log(fmax(r->lw_min, 1e-30)));
        b = fmax(r->bw_max, log(fmax(r->lw_max, 1e-30)));
    }
    if (v->doc.y_max > 0) {
        a = fmin(a, log(v->doc.y_min * v->s.tm.scale));
        b = fmax(b, log(v->doc.y_max * v->s.tm.scale));
    }
    if (v->s.tm.lmin > 0 && v->s.tm.lmax > v->s.tm.lmin) {
        a = fmin(a, log(v->s.tm.lmin));
        b = fmax(b, log(v->s.tm.lmax));
    }
    if (!(b > a)) {
        a = 0;
        b = log(100.0);
    }
    double pad = 0.05 * (b - a) + 0.1;
    *lo = a - pad;
    *hi = b + pad;
}

typedef struct plot {
    ImDrawList *dl;
    ImVec2 a, size;   /* the plot's corner and size */
    double lo, hi;    /* x axis, ln cd/m^2 */
} plot;

static float plot_x(const plot *p, double ln_lw)
{
    return p->a.x + (float)((ln_lw - p->lo) / (p->hi - p->lo)) * p->size.x;
}

/* A bar from X0 to X1 of height H (pixels) standing on the plot's floor. */
static void plot_bar(const plot *p, float x0, float x1, float h, ImU32 col)
{
    float y1 = p->a.y + p->size.y;
    p->dl->AddRectFilled(ImVec2(x0, y1 - h), ImVec2(x0 + fmaxf(1, x1 - x0), y1), col);
}

static void plot_vline(const plot *p, float x, ImU32 col)
{
    p->dl->AddLine(ImVec2(x, p->a.y), ImVec2(x, p->a.y + p->size.y), col, 1);
}

static void plot_log(const viewer *v, const plot *p, const tonemap_result *r)
{
    unsigned maxc = 1;
    for (unsigned i = 0; i < r->bins; i++)
        maxc = r->hist[i] > maxc ? r->hist[i] : maxc;
    double w = (r->bw_max - r->bw_min) / r->bins;
    for (unsigned i = 0; i < r->bins; i++)
        plot_bar(p, plot_x(p, r->bw_min + i * w), plot_x(p, r->bw_min + (i + 1) * w),
                 (float)r->hist[i] / maxc * (p->size.y - 4), IM_COL32(90, 110, 140, 255));
    /* The curve: log Ld over the display's range, from Ldmax / Dr to Ldmax. */
    ImVec2 pts[128];
    double y0 = log10(v->s.tm.ldmax / v->s.tm.drange), y1 = log10(v->s.tm.ldmax);
    for (int i = 0; i < 128; i++) {
        double x = r->bw_min + (r->bw_max - r->bw_min) * i / 127.0;
        double ld = tonemap_curve_ld(r, &v->s.tm, exp(x));
        double t = (log10(fmax(ld, 1e-30)) - y0) / (y1 - y0);
        pts[i] = ImVec2(plot_x(p, x),
                        p->a.y + p->size.y - (float)fmin(1, fmax(0, t)) * (p->size.y - 2) - 1);
    }
    if (v->doc.region_valid && v->doc.region.counted > 0) {   /* the region's, over the image's */
        const region_stats *rs = &v->doc.region;
        uint32_t rmax = 1;
        for (int i = 0; i < REGION_BINS; i++)
            rmax = rs->hist[i] > rmax ? rs->hist[i] : rmax;
        /* Its bins are in cd/m^2 by the file's units; the axis is the operator's. */
        double rw = (rs->ln_max - rs->ln_min) / REGION_BINS;
        double lo = rs->ln_min + log(v->s.tm.scale / v->rnd.units.scale);
        for (int i = 0; i < REGION_BINS; i++)
            plot_bar(p, plot_x(p, lo + i * rw), plot_x(p, lo + (i + 1) * rw),
                     (float)rs->hist[i] / rmax * (p->size.y - 4), IM_COL32(120, 255, 120, 110));
    }
    p->dl->AddPolyline(pts, 128, IM_COL32(255, 200, 60, 255), 0, 2);
    plot_vline(p, plot_x(p, r->bw_min), PANELS_DIM);
    plot_vline(p, plot_x(p, r->bw_max), PANELS_DIM);
    double lw;
    if (viewer_cursor_lw(v, &lw))
        plot_vline(p, plot_x(p, log(lw)), IM_COL32(90, 220, 255, 255));
}

static void plot_output(const viewer *v, const plot *p, const imgstats *st)
{
    static const ImU32 cols[4] = {IM_COL32(255, 90, 90, 255), IM_COL32(90, 220, 90, 255),
                                  IM_COL32(110, 150, 255, 255), IM_COL32(200, 200, 200, 255)};
    int nch = v->s.hist_mode == HIST_RGBA ? 4 : 1;
    for (int ch = 0; ch < nch; ch++) {
        const uint32_t *h = nch == 4 ? st->rgba_hist[ch] : st->grey_hist;
        uint32_t maxc = 1;
        for (int i = 1; i < 255; i++)   /* the clipped ends would flatten the rest */
            maxc = h[i] > maxc ? h[i] : maxc;
        ImVec2 pts[256];
        for (int i = 0; i < 256; i++) {
            float t = fminf(1, (float)h[i] / maxc);
            pts[i] = ImVec2(p->a.x + p->size.x * i / 255.0f,
                            p->a.y + p->size.y - t * (p->size.y - 2) - 1);
        }
        p->dl->AddPolyline(pts, 256, cols[nch == 4 ? ch : 3], 0, 1.5f);
    }
}

void panels_histogram(const viewer *v, viewer_panel *pnl)
{
    static const char *modes[HIST_MODES] = {"log luminance + curve", "RGBA of the output",
                                            "grey of the output"};
    float row = panels_row(v);
    int m = v->s.hist_mode;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::Combo("##histogram", &m, modes, HIST_MODES) && m != v->s.hist_mode)
        panels_act(pnl, ACT_SET_HIST_MODE, m);
    plot p;
    if (!panels_plot_area(fmaxf(4 * row, fminf(9 * row, v->vp.h * 0.3f)), &p.a, &p.size))
        return;
    p.dl = ImGui::GetWindowDrawList();
    float hr[4] = {p.a.x, p.a.y, p.size.x, p.size.y};
    memcpy(pnl->hist_rect, hr, sizeof pnl->hist_rect);
    plot_axis(v, &p.lo, &p.hi);
    const tonemap_result *r = renderer_result(&v->rnd, &v->doc, &v->s, v->vp);
    const imgstats *st = renderer_stats(&v->rnd, &v->doc, &v->s);
    if (v->s.hist_mode == HIST_LOG && r && r->bins > 0 && r->bw_max > r->bw_min)
        plot_log(v, &p, r);
    else if (v->s.hist_mode != HIST_LOG && st && st->have_hist)
        plot_output(v, &p, st);
    char lo[48], hi[48];
    if (v->s.hist_mode == HIST_LOG) {
        snprintf(lo, sizeof lo, "%.3g", exp(p.lo));
        bool units = v->rnd.units.rule != HT_UNITS_RELATIVE;   /* else the numbers are not cd/m2 */
        snprintf(hi, sizeof hi, units ? "%.3g cd/m2" : "%.3g (relative)", exp(p.hi));
    } else {
        snprintf(lo, sizeof lo, "0");
        snprintf(hi, sizeof hi, "255");
    }
    ImGui::PushStyleColor(ImGuiCol_Text, PANELS_DIM);
    ImGui::TextUnformatted(lo);
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(hi).x);
    ImGui::TextUnformatted(hi);
    ImGui::PopStyleColor();
    panels_note_text("hist_axis", hi);
    if (v->s.hist_mode == HIST_LOG && !r && v->doc.have_image)
        panels_text("analysis pending", false);   /* a frame or so after a change */
    if (v->s.hist_mode != HIST_LOG && st && !st->have_hist)
        panels_text("no output histograms: the image is\nlarger than one GPU texture", false);
}

/* ---------------------------------------------------------------------------------------
 * Help */

void panels_help(const viewer *v)
{
    float s = ui_scale(v->pnl.gui), row = panels_row(v);
    float w = fminf(720 * s, (float)v->fb_w - 16), h = fmaxf(6 * row, (float)v->fb_h * 0.85f);
    ImGui::SetNextWindowPos(ImVec2((v->fb_w - w) / 2, (v->fb_h - h) / 2));
    ImGui::SetNextWindowSize(ImVec2(w, h));
    if (ImGui::Begin("Help: actions and keys (F1 or Esc closes)", NULL,
                     ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                         ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        if (ImGui::IsWindowAppearing())   /* on top when it opens */
            ImGui::SetWindowFocus();
        float x0 = ImGui::GetWindowContentRegionMin().x;
        float cw = ImGui::GetWindowContentRegionMax().x - x0;
        ImGui::TextUnformatted("search (type)");
        ImGui::SameLine(x0 + 0.2f * cw);
        /* platform.c types it */
        ImGui::TextColored(ImColor(PANELS_GREEN), "%s_", v->pnl.help_filter);
        panels_note_text("help_search", v->pnl.help_filter);
        for (int g = 0; g < GROUP_COUNT; g++) {
            bool header = false;
            for (int i = 0; i < ACT_COUNT; i++) {
                const action *a = action_get((action_id)i);
                char keys[128], label[256];
                action_keys_text((action_id)i, keys, sizeof keys);
                action_plain_label((action_id)i, label, sizeof label);
                if (a->group != (action_group)g ||
                    (v->pnl.help_filter[0] && !strcasestr(label, v->pnl.help_filter) &&
                     !strcasestr(keys, v->pnl.help_filter)))
                    continue;
                if (!header) {
                    ImGui::TextColored(ImColor(PANELS_GREEN), "%s",
                                       action_group_name((action_group)g));
                    header = true;
                }
                ImGui::TextUnformatted(keys);
                ImGui::SameLine(x0 + 0.3f * cw);
                ImGui::TextUnformatted(label);
                panels_note("help_%s", a->id);
            }
        }
    }
    ImGui::End();
}

/* ---------------------------------------------------------------------------------------
 * The canvas over the picture */

/* A rectangle's outline from (X, Y), W x H, of line width T. */
static void stroke_rect(ImDrawList *dl, float x, float y, float w, float h, ImU32 col, float t)
{
    dl->AddRect(ImVec2(x, y), ImVec2(x + w, y + h), col, 0, 0, t);
}

/* The display window's frame (when it differs from the data window): a line just outside
 * it, so it covers none of its pixels. */
static void draw_display_frame(const viewer *v, ImDrawList *dl)
{
    const int *dw = v->doc.img.data_window, *dp = v->doc.img.display_window;
    if (memcmp(dw, dp, sizeof v->doc.img.data_window) == 0 || dp[2] < dp[0] || dp[3] < dp[1])
        return;
    view_place place = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
    view_point a = view_to_window(place, view_point{(double)(dp[0] - dw[0]),
                                                    (double)(dp[1] - dw[1])});
    view_point b = view_to_window(place, view_point{(double)(dp[2] + 1 - dw[0]),
                                                    (double)(dp[3] + 1 - dw[1])});
    /* 2 wide, centred a pixel outside: the pixel next to the window fully, none inside. */
    stroke_rect(dl, v->vp.x + (float)a.x - 1, v->vp.y + (float)a.y - 1, (float)(b.x - a.x) + 2,
                (float)(b.y - a.y) + 2, IM_COL32(255, 200, 64, 230), 2);
}

/* X: a cross-hair on the brightest pixel, squares on the peaks, numbered by rank. */
static void draw_marks(const viewer *v, ImDrawList *dl)
{
    const imgstats *st = renderer_stats(&v->rnd, &v->doc, &v->s);
    if (!v->s.show_marks || !st)
        return;
    view_place place = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
    float u = ui_scale(v->pnl.gui), th = ui_text_px(v->pnl.gui);
    ImU32 cyan = IM_COL32(50, 240, 255, 255), mag = IM_COL32(255, 64, 230, 255);
    ImU32 shade = IM_COL32(0, 0, 0, 200);
    for (int i = st->n_peaks - 1; i >= 0; i--) {
        const imgstats_pixel *p = &st->peaks[i];
        view_point c = view_to_window(place, view_point{p->x + 0.5, p->y + 0.5});
        float cx = v->vp.x + (float)c.x, cy = v->vp.y + (float)c.y;
        float h = fmaxf(7 * u, (float)place.zoom * 0.5f + 3 * u);
        stroke_rect(dl, cx - h, cy - h, 2 * h, 2 * h, shade, 4 * u);
        /* 2 wide: an antialiased line of 1 is two half-bright pixels off the pixel grid */
        stroke_rect(dl, cx - h, cy - h, 2 * h, 2 * h, cyan, 2 * u);
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        dl->AddText(ImVec2(cx + h + 2 * u, cy - h - th), cyan, num);
    }
    const imgstats_pixel *b = &st->brightest;
    if (!b->valid)
        return;
    view_point c = view_to_window(place, view_point{b->x + 0.5, b->y + 0.5});
    float cx = v->vp.x + (float)c.x, cy = v->vp.y + (float)c.y;
    float gap = fmaxf(5 * u, (float)place.zoom * 0.5f + 2 * u), len = 18 * u;
    for (int k = 0; k < 2; k++) {
        ImU32 col = k ? mag : shade;
        float t = k ? 2 * u : 4 * u;
        dl->AddLine(ImVec2(cx - gap - len, cy), ImVec2(cx - gap, cy), col, t);
        dl->AddLine(ImVec2(cx + gap, cy), ImVec2(cx + gap + len, cy), col, t);
        dl->AddLine(ImVec2(cx, cy - gap - len), ImVec2(cx, cy - gap), col, t);
        dl->AddLine(ImVec2(cx, cy + gap), ImVec2(cx, cy + gap + len), col, t);
    }
    dl->AddText(ImVec2(cx + gap + 2 * u, cy + gap), mag, "max");
}

/* The region's rectangle, while dragged and after: a line just outside its pixels. */
static void draw_region(const viewer *v, ImDrawList *dl)
{
    if (!v->in.region_drag && !v->doc.region_valid)
        return;
    int r[4];
    viewer_region_rect(v, r);
    view_place p = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
    view_point a = view_to_window(p, view_point{(double)r[0], (double)r[1]});
    view_point b = view_to_window(p, view_point{(double)r[2] + 1, (double)r[3] + 1});
    float x = v->vp.x + (float)a.x - 1, y = v->vp.y + (float)a.y - 1;
    float w = (float)(b.x - a.x) + 2, h = (float)(b.y - a.y) + 2;
    stroke_rect(dl, x, y, w, h, IM_COL32(0, 0, 0, 200), 3);
    stroke_rect(dl, x, y, w, h, IM_COL32(120, 255, 120, 255), 1.5f);
}

/* The wipe's divider and which side shows what; or, Z held, that the reference shows. */
static void draw_compare(const viewer *v, ImDrawList *dl)
{
    if (v->s.ref < 0 || v->doc.ref_err[0] || (v->s.compare == COMPARE_OFF && !v->s.flip_held) ||
        v->rnd.ntiles > 1)   /* the tiles show the pictures side by side */
        return;
    float s = ui_scale(v->pnl.gui), th = ui_text_px(v->pnl.gui) + 4 * s;
    char a[300], b[300];
    snprintf(a, sizeof a, "%s", viewer_base_name(v->doc.list.files[v->doc.list.cur]));
    snprintf(b, sizeof b, "reference: %s", viewer_base_name(viewer_ref_path(v)));
    float x = (float)v->vp.x, y = (float)v->vp.y, w = (float)v->vp.w, h = (float)v->vp.h;
    float aw = ImGui::CalcTextSize(a).x + 12 * s;
    ImU32 bg = IM_COL32(0, 0, 0, 170), fg = IM_COL32(240, 240, 240, 255);
    ImU32 white = IM_COL32(255, 255, 255, 255);
    if (v->s.flip_held) {
        panels_label(dl, x + 6 * s, y + 6 * s, b, bg, fg);
        return;
    }
    if (v->s.compare != COMPARE_WIPE)
        return;
    float at = (float)viewer_wipe_pos_at(&v->s, v->vp);
    if (v->s.wipe_horizontal) {
        dl->AddRectFilled(ImVec2(x, y + at - 1), ImVec2(x + w, y + at + 1), white);
        panels_label(dl, x + 6 * s, y + at - th - 4 * s, a, bg, fg);
        panels_label(dl, x + 6 * s, y + at + 4 * s, b, bg, fg);
    } else {
        dl->AddRectFilled(ImVec2(x + at - 1, y), ImVec2(x + at + 1, y + h), white);
        panels_label(dl, x + at - aw - 4 * s, y + 6 * s, a, bg, fg);
        panels_label(dl, x + at + 4 * s, y + 6 * s, b, bg, fg);
    }
}

void panels_canvas(const viewer *v, ImDrawList *dl)
{
    /* The viewport and, left of it, the legend's room. */
    dl->PushClipRect(ImVec2(0, (float)v->vp.y),
                     ImVec2((float)(v->vp.x + v->vp.w), (float)(v->vp.y + v->vp.h)));
    if (v->doc.have_image) {
        view_place p = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
        panels_cover_outside(v, dl, v->vp, p, v->doc.img.width, v->doc.img.height);
        panels_pixel_values(v, dl);
        draw_display_frame(v, dl);
        draw_marks(v, dl);
        draw_region(v, dl);
        panels_pin_marks(v, dl);
        draw_compare(v, dl);
        panels_legend(v, dl);
    } else {
        char name[280], loading[300];
        viewer_loading_text(v, name, sizeof name);
        snprintf(loading, sizeof loading, "loading %s ...", name);
        const char *t = v->doc.load_err[0]     ? v->doc.load_err
                        : viewer_loading(v) ? loading
                        : v->net           ? "waiting for images (tev protocol, --listen)"
                                           : "no image: Ctrl+O to open one, or drop files here";
        float pad = ImGui::GetStyle().WindowPadding.x;
        dl->AddText(ImVec2(v->vp.x + pad, v->vp.y + pad),
                    v->doc.load_err[0] ? PANELS_RED : IM_COL32(230, 230, 230, 255), t);
    }
    dl->PopClipRect();
}
