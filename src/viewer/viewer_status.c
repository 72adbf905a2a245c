/* The viewer's overlay: the status text, the messages, the markers (X) and the display
 * window's frame, the histogram panel, and the help (F1). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "human.h"
#include "human_gpu.h"
#include "tev_server.h"
#include "viewer_internal.h"

void viewer_set_message(viewer *v, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    v->message_error = error;
    fprintf(stderr, "hdrtone: %s\n", v->message);
}

/* World luminance of a pixel, by the current weights. */
static double pixel_lw(const viewer *v, const float *p)
{
    double w[3];
    tonemap_luminance_weights(v->tm.luminance, w);
    return v->tm.scale * (w[0] * p[0] + w[1] * p[1] + w[2] * p[2]);
}

/* The image pixel under the cursor (its RGBA, and its data-window coordinates in *x, *y), or
 * NULL when the cursor is not over the image. */
static const float *cursor_pixel(const viewer *v, int *x, int *y)
{
    view_point i = view_to_image(viewer_place(v), (view_point){v->mouse_x, v->mouse_y});
    double ix = floor(i.x), iy = floor(i.y);
    if (!(v->mouse_in && ix >= 0 && iy >= 0 && ix < v->img.width && iy < v->img.height))
        return NULL;
    *x = (int)ix;
    *y = (int)iy;
    return v->img.rgba + 4 * ((size_t)iy * v->img.width + (size_t)ix);
}

static void fmt_lum(double l, char *buf, size_t len) { snprintf(buf, len, "%.3g", l); }

/* ---------------------------------------------------------------------------------------
 * The status text, line by line */

/* Text appended to BUF[LEN]; N counts what was asked for, so a full buffer stays a
 * truncated, terminated string. */
typedef struct text_buf {
    char *buf;
    size_t len, n;
} text_buf;

static void add(text_buf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text_buf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->buf + (t->n < t->len ? t->n : t->len), t->n < t->len ? t->len - t->n : 0,
                      fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

/* Whether the frame's analysis reads the view (V), not the image: never with the
 * human-vision stage, whose grids are in the image's pixels (viewer.c render). */
static bool analyses_view(const viewer *v)
{
    return v->adapt_view && !viewer_human_shown(v);
}

/* File, size, position in the list, zoom, samples, adaptation, latency, GPU time. */
static void status_view(text_buf *t, const viewer *v, int samples)
{
    add(t, "%s  %dx%d  [%d/%d]  zoom %.3g%%  MSAA %d", viewer_base_name(v->files[v->cur]),
        v->img.width, v->img.height, v->cur + 1, v->nfiles, v->view.zoom * 100, samples);
    if (samples != v->msaa)   /* --msaa asked for a count this GPU does not offer */
        add(t, " (asked %d)", v->msaa);
    add(t, "  adapt: %s", analyses_view(v) ? "view" : "image");
    if (v->adapt_view && !analyses_view(v))
        add(t, " (not the view: human vision)");
    if (v->latency)
        add(t, "  latency %d frame", v->latency);
    double ms = pass_scene_last_ms(v->scene) + pipeline_last_timings(v->pipe).total_ms;
    if (ms > 0)
        add(t, "  GPU %.2f ms", ms);
    else
        add(t, "  GPU time n/a");
}

/* Which part and layer is on screen, and where the data window lies: for files that have
 * more than one, or windows that differ. */
static void status_part(text_buf *t, const viewer *v)
{
    const hdr_image *im = &v->img;
    char names[VIEWER_MAX_LAYERS][64];
    int nl = viewer_layer_names(v, names, VIEWER_MAX_LAYERS);
    const int *dw = im->data_window, *dp = im->display_window;
    bool windows = memcmp(dw, dp, sizeof im->data_window) != 0;
    if (!(v->part_count > 1 || nl > 1 || windows || strcmp(im->rgb_source, "R,G,B") != 0))
        return;
    if (v->part_count > 1)
        add(t, "\npart %d/%d%s%s%s  ", im->part + 1, v->part_count, im->part_name[0] ? " '" : "",
            im->part_name, im->part_name[0] ? "'" : "");
    else
        add(t, "\n");
    add(t, "layer %s", im->layer[0] ? im->layer : "(none)");
    if (nl > 1)
        add(t, " (of %d)", nl);
    add(t, "  shown: %s", im->rgb_source);
    if (windows)
        add(t, "\ndata window (%d,%d)-(%d,%d) in display window (%d,%d)-(%d,%d) (frame)", dw[0],
            dw[1], dw[2], dw[3], dp[0], dp[1], dp[2], dp[3]);
}

/* The luminance range (set or automatic) and the mapping. */
static void status_range(text_buf *t, const viewer *v, const tonemap_result *r)
{
    const tonemap_params *tm = &v->tm;
    char a[32], b[32];
    if (tm->lmin > 0 && tm->lmax > tm->lmin) {
        fmt_lum(tm->lmin, a, sizeof a);
        fmt_lum(tm->lmax, b, sizeof b);
        add(t, "\nrange %s..%s cd/m^2 (set)", a, b);
    } else if (r && r->mapping != HT_MAP_NONE) {
        fmt_lum(exp(r->bw_min), a, sizeof a);
        fmt_lum(exp(r->bw_max), b, sizeof b);
        add(t, "\nrange %s..%s cd/m^2 (auto)", a, b);
    } else {
        add(t, "\nrange auto");
    }
    if (r) {
        add(t, "  mapping: %s", tonemap_mapping_name(r->mapping));
        if (tm->pcond)
            add(t, " (pcond: %s)", tonemap_mapping_pcond_name(r->mapping));
    }
}

/* The size of the analysed source: the image, or the window's view (V). */
static void analysed_size(const viewer *v, int *w, int *h)
{
    *w = analyses_view(v) ? v->fb_w : v->img.width;
    *h = analyses_view(v) ? v->fb_h : v->img.height;
}

/* What the histogram samples (the analysed source is the image, or the window's view), the
 * luminance weights, forced linear, the preset. */
static void status_sampling(text_buf *t, const viewer *v)
{
    const tonemap_params *tm = &v->tm;
    if (tm->sampling == HT_SAMPLING_FOVEAL) {
        int sw, sh;
        analysed_size(v, &sw, &sh);
        int fw, fh;
        tonemap_foveal_grid(sw, sh, tm->fov, &fw, &fh);
        add(t, "\nsampling foveal %.3g deg, grid %dx%d", tm->fov, fw, fh);
        if (tm->point_samples)
            add(t, " + %u point samples", (unsigned)tonemap_point_count(sw, sh, fw, fh));
        else
            add(t, ", no point samples");
    } else {
        add(t, "\nsampling pixels (every pixel)");
    }
    add(t, "  weights %s%s%s", ht_enum_label(tonemap_luminances, tm->luminance),
        tm->force_linear ? "  linear forced" : "", tm->pcond ? "  preset pcond" : "");
}

/* The display range, ceiling, bins and transfer. */
static void status_display(text_buf *t, const viewer *v)
{
    const tonemap_params *tm = &v->tm;
    char a[32], b[32];
    fmt_lum(tm->ldmax / tm->drange, a, sizeof a);
    fmt_lum(tm->ldmax, b, sizeof b);
    add(t, "\ndisplay Ld %s..%s cd/m^2 (Dr %.4g)  ceiling %s  bins %d  ", a, b, tm->drange,
        ht_enum_name(tonemap_ceilings, tm->ceiling),
        tm->bins);
    if (tm->transfer == HT_TRANSFER_SRGB)
        add(t, "sRGB");
    else
        add(t, "gamma %.3g", tm->gamma);
}

/* What became of one human-vision option: off, on, or skipped with the reason, as pcond's
 * check2do decided on REP (NULL: not decided yet, only on or off). */
static void status_human_one(text_buf *t, bool on, const human_report *rep, int outcome)
{
    if (!on || !rep) {
        add(t, on ? "on" : "off");
        return;
    }
    switch (outcome) {
    case HUMAN_APPLIED_NOOP:
        add(t, "on (no-op: sample radii <= 1 pixel)");
        break;
    case HUMAN_SKIP_RANGE:
        add(t, "skipped (range %.3g < %.3g ln)", rep->range, HT_VEIL_MIN_RANGE);
        break;
    case HUMAN_SKIP_ACUITY:
        add(t, "skipped (L5 acuity %.3g c/deg >= %.3g px/deg)", rep->hacuity_l5,
            rep->px_per_deg);
        break;
    case HUMAN_SKIP_PHOTOPIC:
        add(t, "skipped (L5 %.3g >= %.3g cd/m^2)", rep->l5, HT_TOP_MESOPIC);
        break;
    case HUMAN_SKIP_NO_SAMPLES:
        add(t, "skipped (no samples)");
        break;
    default:
        add(t, "on");
    }
}

/* pcond's human-vision options, when any is on (Shift+V, A, C, H): which, and those the
 * analysis skips, why, as the GPU's analysis of the image decided (pipeline_human_report);
 * or that an image in pieces is shown without them. */
static void status_human(text_buf *t, const viewer *v)
{
    const tonemap_params *tm = &v->tm;
    if (!human_requested(tm))
        return;
    if (!viewer_human_shown(v)) {
        add(t, "\nhuman vision: not shown (the image is in %d pieces, larger than one GPU "
               "texture)", pipeline_image_pieces(v->pipe));
        return;
    }
    const human_report *rep = pipeline_human_report(v->pipe);
    add(t, "\nhuman vision: veil ");
    status_human_one(t, tm->veil, rep, rep ? rep->veil : 0);
    add(t, ", acuity ");
    status_human_one(t, tm->acuity, rep, rep ? rep->acuity : 0);
    add(t, ", colour loss ");
    status_human_one(t, tm->color_loss, rep, rep ? rep->color : 0);
}

/* The brightest pixel and the peaks (X). */
static void status_marks(text_buf *t, const viewer *v)
{
    const imgstats *st = &v->stats;
    if (!v->show_marks)
        return;
    if (!v->stats_ok)
        add(t, "\nbrightest: not available");
    else if (!st->brightest.valid)
        add(t, "\nbrightest: none (no pixel with Y > 0)");
    else
        add(t, "\nbrightest %d,%d (abs %d,%d)  RGB %.4g %.4g %.4g  Y %.4g  peaks %d",
            st->brightest.x, st->brightest.y, st->brightest.abs_x, st->brightest.abs_y,
            st->brightest.rgb[0], st->brightest.rgb[1], st->brightest.rgb[2],
            st->brightest.luminance, st->n_peaks);
}

/* The pixel under the cursor, from the CPU copy of the image, and what it maps to. */
static void status_pixel(text_buf *t, const viewer *v, const tonemap_result *r)
{
    const tonemap_params *tm = &v->tm;
    int ix, iy;
    const float *p = cursor_pixel(v, &ix, &iy);
    if (!p) {
        add(t, "\npixel -  (F1 or ? for keys)");
        return;
    }
    double lw = pixel_lw(v, p);
    add(t, "\npixel %d,%d  RGB %.3g %.3g %.3g  Lw %.3g", ix + v->img.data_window[0],
        iy + v->img.data_window[1], p[0], p[1], p[2], lw);
    if (r && isfinite(lw) && lw > 0) {
        double f = tonemap_pixel_factor(r, tm, lw);
        add(t, " -> Ld %.3g cd/m^2  out %d %d %d", tonemap_curve_ld(r, tm, lw),
            tonemap_encode(tm, tm->scale * p[0] * f), tonemap_encode(tm, tm->scale * p[1] * f),
            tonemap_encode(tm, tm->scale * p[2] * f));
    }
}

void viewer_status_text(const viewer *v, int samples, char *buf, size_t len)
{
    const tonemap_result *r = v->rb.valid ? &v->rb.r : NULL;
    text_buf t = {buf, len, 0};
    status_view(&t, v, samples);
    char seq[256];
    viewer_seq_status(v, seq, sizeof seq);
    if (seq[0])
        add(&t, "\n%s", seq);
    status_part(&t, v);
    status_range(&t, v, r);
    status_sampling(&t, v);
    status_display(&t, v);
    status_human(&t, v);
    status_marks(&t, v);
    status_pixel(&t, v, r);
}

/* ---------------------------------------------------------------------------------------
 * Drawing */

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
    char lines[KEY_HELP_MAX][2][96];
    int n = viewer_keys_help_lines(lines, KEY_HELP_MAX);
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

/* The panel's x axis: the image's luminance and the histogram range, padded, so the range
 * limits show where they cut. */
static void plot_axis(const viewer *v, double *lo, double *hi)
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

/* The display window's frame (when it differs from the data window): a line just outside
 * it, so it covers none of its pixels. */
static void draw_display_frame(viewer *v, float s)
{
    const int *dw = v->img.data_window, *dp = v->img.display_window;
    if (memcmp(dw, dp, sizeof v->img.data_window) == 0 || dp[2] < dp[0] || dp[3] < dp[1])
        return;
    view_place place = viewer_place(v);
    view_point a = view_to_window(place, (view_point){dp[0] - dw[0], dp[1] - dw[1]});
    view_point b = view_to_window(place, (view_point){dp[2] + 1 - dw[0], dp[3] + 1 - dw[1]});
    float x0 = (float)a.x, y0 = (float)a.y, x1 = (float)b.x, y1 = (float)b.y;
    float t = fmaxf(1, floorf(s / 1.5f + 0.5f));
    const float c[4] = {1.0f, 0.78f, 0.25f, 0.9f};
    overlay_outline(v->ovl, x0 - t, y0 - t, x1 - x0 + 2 * t, y1 - y0 + 2 * t, t, c);
}

/* X: a cross-hair on the brightest pixel, squares on the peaks, numbered by rank. */
static void draw_marks(viewer *v, float s)
{
    if (!v->show_marks || !v->stats_ok)
        return;
    view_place place = viewer_place(v);
    float u = s / 1.5f;
    const float dark[4] = {0, 0, 0, 0.8f};
    const float cyan[4] = {0.2f, 0.95f, 1.0f, 1};
    const float mag[4] = {1.0f, 0.25f, 0.9f, 1};
    for (int i = v->stats.n_peaks - 1; i >= 0; i--) {
        const imgstats_pixel *p = &v->stats.peaks[i];
        view_point c = view_to_window(place, (view_point){p->x + 0.5, p->y + 0.5});
        float cx = (float)c.x, cy = (float)c.y;
        float h = fmaxf(7 * u, (float)place.zoom * 0.5f + 3 * u);
        overlay_outline(v->ovl, cx - h - u, cy - h - u, 2 * (h + u), 2 * (h + u), 3 * u, dark);
        overlay_outline(v->ovl, cx - h, cy - h, 2 * h, 2 * h, u, cyan);
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        overlay_text(v->ovl, cx + h + 2 * u, cy - h - 2 * u, u, num, cyan);
    }
    const imgstats_pixel *b = &v->stats.brightest;
    if (!b->valid)
        return;
    view_point c = view_to_window(place, (view_point){b->x + 0.5, b->y + 0.5});
    float cx = (float)c.x, cy = (float)c.y;
    float gap = fmaxf(5 * u, (float)place.zoom * 0.5f + 2 * u), len = 18 * u, t = 2 * u;
    const float arms[4][4] = {{cx - gap - len, cy - t / 2, len, t}, {cx + gap, cy - t / 2, len, t},
                              {cx - t / 2, cy - gap - len, t, len}, {cx - t / 2, cy + gap, t, len}};
    for (int k = 0; k < 4; k++)
        overlay_rect(v->ovl, arms[k][0] - u, arms[k][1] - u, arms[k][2] + 2 * u,
                     arms[k][3] + 2 * u, dark);
    for (int k = 0; k < 4; k++)
        overlay_rect(v->ovl, arms[k][0], arms[k][1], arms[k][2], arms[k][3], mag);
    overlay_text(v->ovl, cx + gap + 2 * u, cy + gap, u, "max", mag);
}

/* The histogram panel at the bottom left, below nothing that reaches down to TOP: the
 * log-luminance histogram and curve from the frame's buffer, or (Tab) the output's RGBA or
 * grey histogram from the statistics. */
static void draw_panel(viewer *v, float s, float top)
{
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
    info.title = analyses_view(v) ? "histogram of the view" : "histogram of the image";
    int ix, iy;
    const float *p = cursor_pixel(v, &ix, &iy);
    if (p) {
        double lw = pixel_lw(v, p);
        info.cursor = isfinite(lw) && lw > 0;
        info.cursor_ln_lw = info.cursor ? log(lw) : 0;
    }
    bool room = pw > 120 && ph > 80 && info.y > top;
    if (v->hist_mode == HIST_LOG) {
        if (room)
            overlay_plot(v->ovl, pipeline_frame_buffer(v->pipe), &info);
        return;
    }
    info.title = v->hist_mode == HIST_RGBA
                     ? "RGBA histogram of the output (whole image, as export)"
                     : "grey histogram of the output (whole image, as export)";
    if (room && v->stats_ok && v->stats.have_hist)
        overlay_plot_output(v->ovl, imgstats_gpu_hist_buffer(v->stats_ctx),
                            v->hist_mode == HIST_RGBA ? OVERLAY_OUTPUT_RGBA : OVERLAY_OUTPUT_GREY,
                            &info);
    else if (v->stats_ok && info.y > top)
        text_box(v, 8, info.y, s, "no output histograms: the image is larger than one "
                                  "GPU texture (Tab for the log-luminance panel)", GREY);
}

void viewer_draw_overlay(viewer *v, int samples)
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
            viewer_status_text(v, samples, text, sizeof text);
            y += text_box(v, 8, y, s, text, WHITE) + 4;
        } else if (v->nfiles > 0) {
            char text[256];
            snprintf(text, sizeof text, "[%d/%d]  PageUp/PageDown for other files, F1 for keys",
                     v->cur + 1, v->nfiles);
            y += text_box(v, 8, y, s, text, WHITE) + 4;
        } else if (v->net) {
            char text[128];
            snprintf(text, sizeof text, "waiting for images: tev protocol on port %d, F1 for keys",
                     tev_server_port(v->net));
            y += text_box(v, 8, y, s, text, WHITE) + 4;
        }
    }
    if (v->net_warn[0])
        y += text_box(v, 8, y, s, v->net_warn, RED) + 4;
    if (v->load_err[0])
        y += text_box(v, 8, y, s, v->load_err, RED) + 4;
    if (v->message[0])
        y += text_box(v, 8, y, s, v->message, v->message_error ? RED : GREEN) + 4;
    if (v->show_overlay && v->have_image && !v->show_help)
        draw_panel(v, s, y);
    if (v->show_help)
        draw_help(v, s);
    overlay_end(v->ovl);
}
