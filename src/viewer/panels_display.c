/* The panels of the display mode: its settings in the dock, and the false-colour legend
 * beside the picture (drawn from the same layout and palette as export's, legend.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "legend.h"
#include "panels_internal.h"
#include "viewer_internal.h"

/* Legend pixels per pixel of falsecolor's 100-pixel-wide legend, times the GUI's scale. */
static const float LEGEND_ZOOM = 1.5f;

/* The colour bar of the error map shown, once its numbers have come. */
static bool compare_bar(const viewer *v, metrics_colorbar *cb)
{
    if (!v->cmp_shown || !v->cmp_have || v->s.flip_held)
        return false;
    *cb = v->cmp_numbers.colorbar;
    return cb->lut != NULL;
}

int panels_legend_width(const viewer *v)
{
    /* By the mode, not by whether the bar's numbers have come: the viewport keeps its size
     * from the map's first frame (a new size would render and compare everything again). */
    if (v->have_image && v->s.ref >= 0 && viewer_compare_map(v))
        return (int)(90 * ui_scale(v->gui));
    if (v->s.disp.mode != HT_VIEW_FALSECOLOR || !v->have_image)
        return 0;
    float s = ui_scale(v->gui);
    return (int)(LEGEND_WIDTH * LEGEND_ZOOM * s + 8 * s);
}

/* The error map's colour bar left of the picture: top the largest value. */
static void draw_compare_bar(viewer *v, struct nk_context *ctx, struct nk_command_buffer *cb,
                             const metrics_colorbar *bar)
{
    float s = ui_scale(v->gui), x = 4 * s, y = (float)v->vp.y + 8 * s;
    float h = fminf(300 * s, (float)v->vp.h - 16 * s), w = 20 * s, th = ui_text_px(v->gui) + 2;
    for (int i = 0; i < 256; i++) {
        const uint8_t *c = bar->lut[255 - i];
        nk_fill_rect(cb, nk_rect(x, y + h * i / 256.0f, w, h / 256.0f + 1), 0,
                     nk_rgb(c[0], c[1], c[2]));
    }
    const struct nk_user_font *f = ctx->style.font;
    for (int k = 0; k <= 4; k++) {   /* five labels, top to bottom */
        char t[32];
        snprintf(t, sizeof t, "%.3g", bar->hi - (bar->hi - bar->lo) * k / 4.0);
        nk_draw_text(cb, nk_rect(x + w + 4 * s, y + h * k / 4.0f - th / 2, 60 * s, th), t,
                     (int)strlen(t), f, nk_rgba(0, 0, 0, 0), nk_rgb(230, 230, 230));
    }
}

void panels_legend(viewer *v, struct nk_context *ctx, struct nk_command_buffer *cb)
{
    metrics_colorbar bar;
    if (!panels_legend_width(v))
        return;
    if (compare_bar(v, &bar)) {
        draw_compare_bar(v, ctx, cb, &bar);
        return;
    }
    const display_params *d = &v->disp_res;
    legend_layout l;
    legend_layout_of(d, &l);
    float s = ui_scale(v->gui), k = LEGEND_ZOOM * s, x = 4 * s, y = (float)v->vp.y + 4 * s;
    const struct nk_user_font *f = ctx->style.font;
    struct nk_color text = nk_rgb(230, 230, 230), none = nk_rgba(0, 0, 0, 0);
    for (int r = 0; r < l.strip_rows; r++) {
        double pos = legend_row_position(&l, r), c[3];
        double nb[4] = {pos, pos, legend_row_position(&l, r - 1), legend_row_position(&l, r + 1)};
        falsecolor_rgb(d, pos, nb, c);
        struct nk_color col = nk_rgb(tonemap_encode(&v->s.tm, c[0]), tonemap_encode(&v->s.tm, c[1]),
                                     tonemap_encode(&v->s.tm, c[2]));
        nk_fill_rect(cb, nk_rect(x, y + (l.strip_top + r) * k, LEGEND_STRIP * k, k + 0.5f), 0,
                     col);
    }
    float th = ui_text_px(v->gui) + 2;
    nk_draw_text(cb, nk_rect(x, y, LEGEND_WIDTH * k, th), "cd/m2", 5, f, none, text);
    for (int i = 0; i < l.nlabels; i++) {
        const char *t = l.labels[i].text;
        float ly = y + (l.strip_top + l.label_row[i]) * k - th / 2;
        nk_draw_text(cb, nk_rect(x + (LEGEND_STRIP + 3) * k, ly, (LEGEND_WIDTH - LEGEND_STRIP) * k,
                                 th), t, (int)strlen(t), f, none, text);
    }
    if (v->units.rule == HT_UNITS_RELATIVE)   /* the numbers are not cd/m2 then: say so */
        nk_draw_text(cb, nk_rect(x, y + l.height * k + 4 * s, LEGEND_WIDTH * k, th),
                     "relative units", 14, f, none, PANELS_RED);
}

static typed_field g_fields[3];   /* exposure, scale maximum, channel range (shown) */

static void falsecolor_settings(viewer *v, struct nk_context *ctx)
{
    float row = panels_row(v);
    nk_layout_row_dynamic(ctx, row, 1);
    nk_bool autom = v->s.disp.fc_max <= 0, was = autom;
    nk_checkbox_label(ctx, "automatic scale (falsecolor -s a)", &autom);
    if (autom != was)
        action_set(v, ACT_SET_FC_MAX, autom ? 0 : v->disp_res.fc_max);
    double x = panels_log_slider(v, ctx, "max", v->disp_res.fc_max, 1e-3, 1e9, &g_fields[1]);
    if (!isnan(x))
        action_set(v, ACT_SET_FC_MAX, x);
    nk_layout_row_dynamic(ctx, row, 2);
    int dec = nk_propertyi(ctx, "#log decades", 0, v->s.disp.fc_decades, 12, 1, 0.2f);
    if (dec != v->s.disp.fc_decades)
        action_set(v, ACT_SET_FC_DECADES, dec);
    int steps = nk_propertyi(ctx, "#steps", 2, v->s.disp.fc_steps, 100, 1, 0.2f);
    if (steps != v->s.disp.fc_steps)
        action_set(v, ACT_SET_FC_STEPS, steps);
    panels_enum_combo(v, ctx, "style", display_fc_styles, v->s.disp.fc_style, ACT_SET_FC_STYLE);
}

/* NAME and a linear slider of VALUE from LO to HI; a move runs the setter SET. */
static void slider(viewer *v, struct nk_context *ctx, const char *name, double value, float lo,
                   float hi, float step, action_id set)
{
    nk_layout_row(ctx, NK_DYNAMIC, panels_row(v), 2, (float[]){0.35f, 0.65f});
    nk_label(ctx, name, NK_TEXT_LEFT);
    float was = (float)value, now = was;
    nk_slider_float(ctx, lo, &now, hi, step);
    if (now != was)
        action_set(v, set, now);
}

void panels_display(viewer *v, struct nk_context *ctx)
{
    panels_enum_combo(v, ctx, "show", display_modes, v->s.disp.mode, ACT_SET_VIEW);
    char text[256];
    if (v->s.disp.mode == HT_VIEW_EXPOSURE) {
        slider(v, ctx, "exposure EV", v->s.disp.exposure, -20, 20, 0.25f, ACT_SET_EXPOSURE);
        slider(v, ctx, "offset", v->s.disp.offset, -0.5f, 0.5f, 0.01f, ACT_SET_OFFSET);
        snprintf(text, sizeof text, "%+.2f EV, offset %+.3f (Ctrl+E, Ctrl+Shift+E)",
                 v->s.disp.exposure, v->s.disp.offset);
        panels_text(v, ctx, text, false);
    } else if (v->s.disp.mode == HT_VIEW_FALSECOLOR) {
        falsecolor_settings(v, ctx);
    } else if (v->s.disp.mode == HT_VIEW_CHANNEL) {
        panels_enum_combo(v, ctx, "channel", display_channels, v->s.disp.channel, ACT_SET_CHANNEL);
        panels_enum_combo(v, ctx, "palette", display_channel_palettes, v->s.disp.ch_palette,
                          ACT_SET_CH_PALETTE);
        snprintf(text, sizeof text, "range %.4g .. %.4g (%s)", v->disp_res.ch_min,
                 v->disp_res.ch_max, ht_enum_label(display_channel_palettes,
                                                   v->disp_res.ch_palette));
        panels_text(v, ctx, text, false);
    }
    units_describe(&v->units, text, sizeof text);
    panels_text(v, ctx, text, v->units.rule == HT_UNITS_RELATIVE);
}

/* The region's statistics as lines (the Region section; tests read them from the layout
 * hook). "" when there is no region. */
void panels_region_text(const viewer *v, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!v->region_valid)
        return;
    const region_stats *r = &v->region;
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

void panels_region(viewer *v, struct nk_context *ctx)
{
    char text[1024];
    panels_region_text(v, text, sizeof text);
    if (!text[0]) {
        panels_text(v, ctx, "Shift+drag on the picture selects a region", false);
        return;
    }
    panels_text(v, ctx, text, false);
    panels_note_text("region", text);
    nk_layout_row_dynamic(ctx, panels_row(v), 1);
    if (nk_button_label(ctx, "clear (Backspace)"))
        action_run(v, ACT_REGION_CLEAR);
}

/* ---------------------------------------------------------------------------------------
 * The comparison's numbers (compare_gpu.h), of the picture shown and of the region */

static void numbers_text(const flip_pooled *fp, bool flip, const metrics_values *m, char *buf,
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

/* FLIP's weighted histogram (100 buckets over [0, 1]) as bars. */
static void flip_histogram(viewer *v, struct nk_context *ctx, const flip_pooled *fp)
{
    struct nk_rect b;
    nk_layout_row_dynamic(ctx, 4 * panels_row(v), 1);
    if (!nk_widget(&b, ctx))
        return;
    struct nk_command_buffer *cb = nk_window_get_canvas(ctx);
    nk_fill_rect(cb, b, 0, nk_rgb(24, 24, 27));
    double top = 0;
    for (int i = 0; i < FLIP_HIST_BINS; i++)
        top = fp->weighted_hist[i] > top ? fp->weighted_hist[i] : top;
    for (int i = 0; top > 0 && i < FLIP_HIST_BINS; i++) {
        float h = (float)(fp->weighted_hist[i] / top) * (b.h - 2);
        nk_fill_rect(cb, nk_rect(b.x + b.w * i / FLIP_HIST_BINS, b.y + b.h - h,
                                 fmaxf(1, b.w / FLIP_HIST_BINS), h), 0, nk_rgb(230, 120, 60));
    }
}

void panels_compare_numbers(viewer *v, struct nk_context *ctx)
{
    static typed_field ppd_field;
    if (v->s.compare >= COMPARE_FLIP) {
        double ppd = v->s.ppd > 0 ? v->s.ppd : flip_default_ppd();
        double x = panels_log_slider(v, ctx, "px/deg", ppd, 1, 1000, &ppd_field);
        if (!isnan(x))
            action_set(v, ACT_SET_PPD, x);
    }
    if (v->s.compare == COMPARE_HDR_FLIP)
        panels_enum_combo(v, ctx, "tone mapper", flip_tonemappers, v->s.flip_tonemapper,
                          ACT_SET_FLIP_TONEMAPPER);
    if (!v->cmp_shown || !v->cmp_have)
        return;
    const compare_gpu_numbers *n = &v->cmp_numbers;
    if (!n->has_rect)
        return;
    char text[512], head[128];
    snprintf(head, sizeof head, "%s as shown: %llu px at %.3g%%",
             v->region_valid ? "the region" : "the image",
             (unsigned long long)n->metrics_rect.count, v->s.view.zoom * 100);
    panels_text(v, ctx, head, false);
    numbers_text(&n->flip_rect, n->has_flip, &n->metrics_rect, text, sizeof text);
    panels_text(v, ctx, text, false);
    panels_note_text("compare", text);
    if (n->has_flip)
        flip_histogram(v, ctx, &n->flip_rect);
}
