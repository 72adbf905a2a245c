/* The panels that draw: the histogram plot, the help, and the canvas over the picture
 * (panels_internal.h). */
#define _GNU_SOURCE   /* strcasestr */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "panels_internal.h"
#include "viewer_internal.h"

void panels_text(const viewer *v, struct nk_context *ctx, const char *text, bool error)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        int n = end ? (int)(end - line) : (int)strlen(line);
        nk_layout_row_dynamic(ctx, panels_row(v), 1);
        if (error)
            nk_text_colored(ctx, line, n, NK_TEXT_LEFT, PANELS_RED);
        else
            nk_text(ctx, line, n, NK_TEXT_LEFT);
        line = end ? end + 1 : NULL;
    }
}

/* ---------------------------------------------------------------------------------------
 * Histogram and curve */

/* The plot's x axis (ln cd/m^2): the image's luminance and the histogram range, padded, so
 * the range limits show where they cut. */
static void plot_axis(const viewer *v, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    const tonemap_result *r = v->frame.valid ? &v->frame.r : NULL;
    if (r && r->mapping != HT_MAP_NONE) {
        a = fmin(r->bw_min, log(fmax(r->lw_min, 1e-30)));
        b = fmax(r->bw_max, log(fmax(r->lw_max, 1e-30)));
    }
    if (v->y_max > 0) {
        a = fmin(a, log(v->y_min * v->s.tm.scale));
        b = fmax(b, log(v->y_max * v->s.tm.scale));
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
    struct nk_command_buffer *cb;
    struct nk_rect b;
    double lo, hi;   /* x axis, ln cd/m^2 */
} plot;

static float plot_x(const plot *p, double ln_lw)
{
    return p->b.x + (float)((ln_lw - p->lo) / (p->hi - p->lo)) * p->b.w;
}

static void plot_log(viewer *v, const plot *p, const tonemap_result *r)
{
    unsigned maxc = 1;
    for (unsigned i = 0; i < r->bins; i++)
        maxc = r->hist[i] > maxc ? r->hist[i] : maxc;
    double w = (r->bw_max - r->bw_min) / r->bins;
    for (unsigned i = 0; i < r->bins; i++) {
        float x0 = plot_x(p, r->bw_min + i * w), x1 = plot_x(p, r->bw_min + (i + 1) * w);
        float h = (float)r->hist[i] / maxc * (p->b.h - 4);
        nk_fill_rect(p->cb, nk_rect(x0, p->b.y + p->b.h - h, fmaxf(1, x1 - x0), h), 0,
                     nk_rgb(90, 110, 140));
    }
    /* The curve: log Ld over the display's range, from Ldmax / Dr to Ldmax. */
    float pts[2 * 128];
    double y0 = log10(v->s.tm.ldmax / v->s.tm.drange), y1 = log10(v->s.tm.ldmax);
    for (int i = 0; i < 128; i++) {
        double x = r->bw_min + (r->bw_max - r->bw_min) * i / 127.0;
        double ld = tonemap_curve_ld(r, &v->s.tm, exp(x));
        double t = (log10(fmax(ld, 1e-30)) - y0) / (y1 - y0);
        pts[2 * i] = plot_x(p, x);
        pts[2 * i + 1] = p->b.y + p->b.h - (float)fmin(1, fmax(0, t)) * (p->b.h - 2) - 1;
    }
    if (v->region_valid && v->region.counted > 0) {   /* the region's, over the image's */
        const region_stats *rs = &v->region;
        uint32_t rmax = 1;
        for (int i = 0; i < REGION_BINS; i++)
            rmax = rs->hist[i] > rmax ? rs->hist[i] : rmax;
        /* Its bins are in cd/m^2 by the file's units; the axis is the operator's. */
        double rw = (rs->ln_max - rs->ln_min) / REGION_BINS;
        double lo = rs->ln_min + log(v->s.tm.scale / v->units.scale);
        for (int i = 0; i < REGION_BINS; i++) {
            float x0 = plot_x(p, lo + i * rw), x1 = plot_x(p, lo + (i + 1) * rw);
            float h = (float)rs->hist[i] / rmax * (p->b.h - 4);
            nk_fill_rect(p->cb, nk_rect(x0, p->b.y + p->b.h - h, fmaxf(1, x1 - x0), h), 0,
                         nk_rgba(120, 255, 120, 110));
        }
    }
    nk_stroke_polyline(p->cb, pts, 128, 2, nk_rgb(255, 200, 60));
    float l = plot_x(p, r->bw_min), h = plot_x(p, r->bw_max);
    nk_stroke_line(p->cb, l, p->b.y, l, p->b.y + p->b.h, 1, PANELS_DIM);
    nk_stroke_line(p->cb, h, p->b.y, h, p->b.y + p->b.h, 1, PANELS_DIM);
    double lw;
    if (viewer_cursor_lw(v, &lw)) {
        float c = plot_x(p, log(lw));
        nk_stroke_line(p->cb, c, p->b.y, c, p->b.y + p->b.h, 1, nk_rgb(90, 220, 255));
    }
}

static void plot_output(viewer *v, const plot *p)
{
    static const struct nk_color cols[4] = {{255, 90, 90, 255}, {90, 220, 90, 255},
                                            {110, 150, 255, 255}, {200, 200, 200, 255}};
    int nch = v->s.hist_mode == HIST_RGBA ? 4 : 1;
    for (int ch = 0; ch < nch; ch++) {
        const uint32_t *h = nch == 4 ? v->stats.rgba_hist[ch] : v->stats.grey_hist;
        uint32_t maxc = 1;
        for (int i = 1; i < 255; i++)   /* the clipped ends would flatten the rest */
            maxc = h[i] > maxc ? h[i] : maxc;
        float pts[2 * 256];
        for (int i = 0; i < 256; i++) {
            pts[2 * i] = p->b.x + p->b.w * i / 255.0f;
            pts[2 * i + 1] = p->b.y + p->b.h - fminf(1, (float)h[i] / maxc) * (p->b.h - 2) - 1;
        }
        nk_stroke_polyline(p->cb, pts, 256, 1.5f, cols[nch == 4 ? ch : 3]);
    }
}

void panels_histogram(viewer *v, struct nk_context *ctx)
{
    static const char *modes[HIST_MODES] = {"log luminance + curve", "RGBA of the output",
                                            "grey of the output"};
    float row = panels_row(v);
    nk_layout_row_dynamic(ctx, row, 1);
    int m = nk_combo(ctx, modes, HIST_MODES, v->s.hist_mode, (int)row,
                     nk_vec2(nk_widget_width(ctx), row * 4));
    if (m != v->s.hist_mode)
        action_set(v, ACT_SET_HIST_MODE, m);
    plot p;
    nk_layout_row_dynamic(ctx, fmaxf(4 * row, fminf(9 * row, v->vp.h * 0.3f)), 1);
    if (!nk_widget(&p.b, ctx))
        return;
    p.cb = nk_window_get_canvas(ctx);
    memcpy(v->hist_rect, (float[]){p.b.x, p.b.y, p.b.w, p.b.h}, sizeof v->hist_rect);
    nk_fill_rect(p.cb, p.b, 0, nk_rgb(24, 24, 27));
    plot_axis(v, &p.lo, &p.hi);
    const tonemap_result *r = v->frame.valid ? &v->frame.r : NULL;
    if (v->s.hist_mode == HIST_LOG && r && r->bins > 0 && r->bw_max > r->bw_min)
        plot_log(v, &p, r);
    else if (v->s.hist_mode != HIST_LOG && v->stats_ok && v->stats.have_hist)
        plot_output(v, &p);
    char lo[48], hi[48];
    if (v->s.hist_mode == HIST_LOG) {
        snprintf(lo, sizeof lo, "%.3g", exp(p.lo));
        snprintf(hi, sizeof hi, "%.3g cd/m2", exp(p.hi));
    } else {
        snprintf(lo, sizeof lo, "0");
        snprintf(hi, sizeof hi, "255");
    }
    nk_layout_row_dynamic(ctx, row, 2);
    nk_label_colored(ctx, lo, NK_TEXT_LEFT, PANELS_DIM);
    nk_label_colored(ctx, hi, NK_TEXT_RIGHT, PANELS_DIM);
    if (v->s.hist_mode != HIST_LOG && v->stats_ok && !v->stats.have_hist)
        panels_text(v, ctx, "no output histograms: the image is\nlarger than one GPU texture",
                    false);
}

/* ---------------------------------------------------------------------------------------
 * Help */

void panels_help(viewer *v, struct nk_context *ctx)
{
    float s = ui_scale(v->gui), row = panels_row(v);
    float w = fminf(720 * s, (float)v->fb_w - 16), h = fmaxf(6 * row, (float)v->fb_h * 0.85f);
    struct nk_rect r = nk_rect((v->fb_w - w) / 2, (v->fb_h - h) / 2, w, h);
    static const char title[] = "Help: actions and keys (F1 or Esc closes)";
    if (nk_begin(ctx, title, r,
                 NK_WINDOW_BORDER | NK_WINDOW_TITLE)) {
        nk_layout_row(ctx, NK_DYNAMIC, row, 2, (float[]){0.2f, 0.8f});
        nk_label(ctx, "search (type)", NK_TEXT_LEFT);
        char shown[80];
        snprintf(shown, sizeof shown, "%s_", v->help_filter);   /* platform.c types it */
        nk_label_colored(ctx, shown, NK_TEXT_LEFT, PANELS_GREEN);
        for (int g = 0; g < GROUP_COUNT; g++) {
            bool header = false;
            for (int i = 0; i < ACT_COUNT; i++) {
                const action *a = action_get((action_id)i);
                char keys[128];
                action_keys_text((action_id)i, keys, sizeof keys);
                if (a->group != (action_group)g ||
                    (v->help_filter[0] && !strcasestr(a->label, v->help_filter) &&
                     !strcasestr(keys, v->help_filter)))
                    continue;
                if (!header) {
                    nk_layout_row_dynamic(ctx, row, 1);
                    nk_label_colored(ctx, action_group_name((action_group)g), NK_TEXT_LEFT,
                                     PANELS_GREEN);
                    header = true;
                }
                nk_layout_row(ctx, NK_DYNAMIC, row, 2, (float[]){0.3f, 0.7f});
                nk_label(ctx, keys, NK_TEXT_LEFT);
                nk_label(ctx, a->label, NK_TEXT_LEFT);
            }
        }
    }
    nk_end(ctx);
}

/* ---------------------------------------------------------------------------------------
 * The canvas over the picture */

/* The display window's frame (when it differs from the data window): a line just outside
 * it, so it covers none of its pixels. */
static void draw_display_frame(viewer *v, struct nk_command_buffer *cb)
{
    const int *dw = v->img.data_window, *dp = v->img.display_window;
    if (memcmp(dw, dp, sizeof v->img.data_window) == 0 || dp[2] < dp[0] || dp[3] < dp[1])
        return;
    view_place place = viewer_place(v);
    view_point a = view_to_window(place, (view_point){dp[0] - dw[0], dp[1] - dw[1]});
    view_point b = view_to_window(place, (view_point){dp[2] + 1 - dw[0], dp[3] + 1 - dw[1]});
    /* 2 wide, centred a pixel outside: the pixel next to the window fully, none inside. */
    nk_stroke_rect(cb, nk_rect(v->vp.x + (float)a.x - 1, v->vp.y + (float)a.y - 1,
                               (float)(b.x - a.x) + 2, (float)(b.y - a.y) + 2),
                   0, 2, nk_rgba(255, 200, 64, 230));
}

/* X: a cross-hair on the brightest pixel, squares on the peaks, numbered by rank. */
static void draw_marks(viewer *v, struct nk_context *ctx, struct nk_command_buffer *cb)
{
    if (!v->s.show_marks || !v->stats_ok)
        return;
    view_place place = viewer_place(v);
    float u = ui_scale(v->gui);
    struct nk_color cyan = nk_rgb(50, 240, 255), mag = nk_rgb(255, 64, 230);
    for (int i = v->stats.n_peaks - 1; i >= 0; i--) {
        const imgstats_pixel *p = &v->stats.peaks[i];
        view_point c = view_to_window(place, (view_point){p->x + 0.5, p->y + 0.5});
        float cx = v->vp.x + (float)c.x, cy = v->vp.y + (float)c.y;
        float h = fmaxf(7 * u, (float)place.zoom * 0.5f + 3 * u);
        nk_stroke_rect(cb, nk_rect(cx - h, cy - h, 2 * h, 2 * h), 0, 4 * u, nk_rgba(0, 0, 0, 200));
        /* 2 wide: an antialiased line of 1 is two half-bright pixels off the pixel grid */
        nk_stroke_rect(cb, nk_rect(cx - h, cy - h, 2 * h, 2 * h), 0, 2 * u, cyan);
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        nk_draw_text(cb, nk_rect(cx + h + 2 * u, cy - h - ui_text_px(v->gui), 40 * u,
                                 ui_text_px(v->gui) + 2), num, (int)strlen(num),
                     ctx->style.font, nk_rgba(0, 0, 0, 0), cyan);
    }
    const imgstats_pixel *b = &v->stats.brightest;
    if (!b->valid)
        return;
    view_point c = view_to_window(place, (view_point){b->x + 0.5, b->y + 0.5});
    float cx = v->vp.x + (float)c.x, cy = v->vp.y + (float)c.y;
    float gap = fmaxf(5 * u, (float)place.zoom * 0.5f + 2 * u), len = 18 * u;
    for (int k = 0; k < 2; k++) {
        struct nk_color col = k ? mag : nk_rgba(0, 0, 0, 200);
        float t = k ? 2 * u : 4 * u;
        nk_stroke_line(cb, cx - gap - len, cy, cx - gap, cy, t, col);
        nk_stroke_line(cb, cx + gap, cy, cx + gap + len, cy, t, col);
        nk_stroke_line(cb, cx, cy - gap - len, cx, cy - gap, t, col);
        nk_stroke_line(cb, cx, cy + gap, cx, cy + gap + len, t, col);
    }
    nk_draw_text(cb, nk_rect(cx + gap + 2 * u, cy + gap, 60 * u, ui_text_px(v->gui) + 2), "max",
                 3, ctx->style.font, nk_rgba(0, 0, 0, 0), mag);
}

/* Outside the image the scene is zero, which the display modes other than tone mapping
 * colour (falsecolor's bottom colour, a diverging palette's middle): covered with the
 * window's background, as tone mapping shows it black. */
static void cover_outside(viewer *v, struct nk_command_buffer *cb)
{
    if (v->s.disp.mode == HT_VIEW_TONEMAP)
        return;
    view_place p = viewer_place(v);
    view_point a = view_to_window(p, (view_point){0, 0});
    view_point b = view_to_window(p, (view_point){v->img.width, v->img.height});
    float x0 = (float)v->vp.x, y0 = (float)v->vp.y, x1 = x0 + v->vp.w, y1 = y0 + v->vp.h;
    float ax = fmaxf(x0, x0 + (float)a.x), ay = fmaxf(y0, y0 + (float)a.y);
    float bx = fminf(x1, x0 + (float)b.x), by = fminf(y1, y0 + (float)b.y);
    struct nk_color bg = nk_rgb(0, 0, 0);
    nk_fill_rect(cb, nk_rect(x0, y0, x1 - x0, fmaxf(0, ay - y0)), 0, bg);
    nk_fill_rect(cb, nk_rect(x0, by, x1 - x0, fmaxf(0, y1 - by)), 0, bg);
    nk_fill_rect(cb, nk_rect(x0, ay, fmaxf(0, ax - x0), fmaxf(0, by - ay)), 0, bg);
    nk_fill_rect(cb, nk_rect(bx, ay, fmaxf(0, x1 - bx), fmaxf(0, by - ay)), 0, bg);
}

/* The region's rectangle, while dragged and after: a line just outside its pixels. */
static void draw_region(viewer *v, struct nk_command_buffer *cb)
{
    if (!v->region_drag && !v->region_valid)
        return;
    int r[4];
    viewer_region_rect(v, r);
    view_place p = viewer_place(v);
    view_point a = view_to_window(p, (view_point){r[0], r[1]});
    view_point b = view_to_window(p, (view_point){r[2] + 1, r[3] + 1});
    struct nk_rect box = nk_rect(v->vp.x + (float)a.x - 1, v->vp.y + (float)a.y - 1,
                                 (float)(b.x - a.x) + 2, (float)(b.y - a.y) + 2);
    nk_stroke_rect(cb, box, 0, 3, nk_rgba(0, 0, 0, 200));
    nk_stroke_rect(cb, box, 0, 1.5f, nk_rgb(120, 255, 120));
}

/* The wipe's divider and which side shows what; or, Z held, that the reference shows. */
static void draw_compare(viewer *v, struct nk_context *ctx, struct nk_command_buffer *cb)
{
    if (v->s.ref < 0 || v->ref_err[0] || (v->s.compare == COMPARE_OFF && !v->s.flip_held))
        return;
    float s = ui_scale(v->gui), th = ui_text_px(v->gui) + 4 * s;
    const struct nk_user_font *f = ctx->style.font;
    char a[300], b[300];
    snprintf(a, sizeof a, "%s", viewer_base_name(v->files[v->cur]));
    snprintf(b, sizeof b, "reference: %s", viewer_base_name(viewer_ref_path(v)));
    float x = (float)v->vp.x, y = (float)v->vp.y, w = (float)v->vp.w, h = (float)v->vp.h;
    float bw = f->width(f->userdata, f->height, b, (int)strlen(b)) + 12 * s;
    float aw = f->width(f->userdata, f->height, a, (int)strlen(a)) + 12 * s;
    struct nk_color bg = nk_rgba(0, 0, 0, 170), fg = nk_rgb(240, 240, 240);
    if (v->s.flip_held) {
        nk_draw_text(cb, nk_rect(x + 6 * s, y + 6 * s, bw, th), b, (int)strlen(b), f, bg, fg);
        return;
    }
    if (v->s.compare != COMPARE_WIPE)
        return;
    float at = (float)viewer_wipe_pos(v);
    if (v->s.wipe_horizontal) {
        nk_fill_rect(cb, nk_rect(x, y + at - 1, w, 2), 0, nk_rgb(255, 255, 255));
        nk_draw_text(cb, nk_rect(x + 6 * s, y + at - th - 4 * s, aw, th), a, (int)strlen(a), f,
                     bg, fg);
        nk_draw_text(cb, nk_rect(x + 6 * s, y + at + 4 * s, bw, th), b, (int)strlen(b), f, bg, fg);
    } else {
        nk_fill_rect(cb, nk_rect(x + at - 1, y, 2, h), 0, nk_rgb(255, 255, 255));
        nk_draw_text(cb, nk_rect(x + at - aw - 4 * s, y + 6 * s, aw, th), a, (int)strlen(a), f,
                     bg, fg);
        nk_draw_text(cb, nk_rect(x + at + 4 * s, y + 6 * s, bw, th), b, (int)strlen(b), f, bg, fg);
    }
}

void panels_canvas(viewer *v, struct nk_context *ctx)
{
    nk_style_push_style_item(ctx, &ctx->style.window.fixed_background,
                             nk_style_item_color(nk_rgba(0, 0, 0, 0)));
    nk_style_push_color(ctx, &ctx->style.window.border_color, nk_rgba(0, 0, 0, 0));
    nk_style_push_vec2(ctx, &ctx->style.window.padding, nk_vec2(0, 0));   /* to the edges */
    /* The viewport and, left of it, the legend's room. */
    struct nk_rect r = nk_rect(0, (float)v->vp.y, (float)(v->vp.x + v->vp.w), (float)v->vp.h);
    if (nk_begin(ctx, "canvas", r,
                 NK_WINDOW_NO_INPUT | NK_WINDOW_BACKGROUND | NK_WINDOW_NO_SCROLLBAR)) {
        struct nk_command_buffer *cb = nk_window_get_canvas(ctx);
        if (v->have_image) {
            cover_outside(v, cb);
            draw_display_frame(v, cb);
            draw_marks(v, ctx, cb);
            draw_region(v, cb);
            draw_compare(v, ctx, cb);
            panels_legend(v, ctx, cb);
        } else {
            const char *t = v->load_err[0] ? v->load_err
                            : v->net     ? "waiting for images (tev protocol, --listen)"
                                         : "no image: Ctrl+O to open one, or drop files here";
            nk_layout_row_dynamic(ctx, panels_row(v), 1);
            panels_text(v, ctx, t, v->load_err[0] != 0);
        }
    }
    nk_end(ctx);
    nk_style_pop_vec2(ctx);
    nk_style_pop_color(ctx);
    nk_style_pop_style_item(ctx);
}
