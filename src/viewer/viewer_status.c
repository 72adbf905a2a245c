/* The viewer's text: the status lines, the messages, the pixel inspector's text (the panels
 * show them, panels.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "human.h"
#include "human_gpu.h"
#include "tev_server.h"
#include "viewer_internal.h"

/* World luminance of a pixel, by TM's weights and scale. */
static double tm_lw(const tonemap_params *tm, const float *p)
{
    double w[3];
    tonemap_weights(tm, w);
    return tm->scale * (w[0] * p[0] + w[1] * p[1] + w[2] * p[2]);
}

/* The same by the current settings. */
static double pixel_lw(const viewer *v, const float *p) { return tm_lw(&v->s.tm, p); }

/* The image under the cursor: the shown one, or in the side-by-side and grid layouts another
 * tile's file (tile non-NULL), with the settings and tone curve (r NULL: none yet) it is
 * drawn with. */
typedef struct hovered {
    const hdr_image *img;
    tonemap_params tm;
    const tonemap_result *r;
    const viewer_tile *tile;
} hovered;

static hovered hovered_image(const viewer *v)
{
    hovered h = {&v->doc.img, v->s.tm, renderer_result(&v->rnd, &v->doc, &v->s, v->vp),
                 NULL};
    const viewer_tile *t = viewer_tile_hovered(v);
    tonemap_params tm;
    char err[HT_ERR_MAX];
    if (t && viewer_tile_params(&v->s, t, &tm, err, sizeof err))
        h = (hovered){&t->img, tm, &t->r, t};
    return h;
}

/* H's pixel under the cursor (its RGBA in BUF, from its floats or its half floats: a
 * sequence's frame has only these, and its data-window coordinates in *x, *y), or NULL when
 * the cursor is not over the image. The tiles share the view: H's image is placed as the
 * shown one is, on its own data window (tiles.c). */
static const float *cursor_pixel(const viewer *v, const hovered *h, int *x, int *y,
                                 float buf[4])
{
    const hdr_image *im = h->img;
    view_place p = view_placement(v->s.view, im->data_window[0], im->data_window[1], v->vp.w,
                                  v->vp.h);
    view_point i = view_to_image(p, (view_point){v->in.mouse_x, v->in.mouse_y});
    double ix = floor(i.x), iy = floor(i.y);
    if (!(v->in.mouse_in && ix >= 0 && iy >= 0 && ix < im->width && iy < im->height))
        return NULL;
    *x = (int)ix;
    *y = (int)iy;
    image_get_pixel(im, (size_t)iy * im->width + (size_t)ix, buf);
    return buf;
}

/* The display bytes of pixel P with TM and the tone curve R; false without a curve or for a
 * black pixel. */
static bool pixel_bytes(const tonemap_params *tm, const tonemap_result *r, const float *p,
                        int out[3])
{
    double lw = tm_lw(tm, p);
    if (!r || !(isfinite(lw) && lw > 0))
        return false;
    double f = tonemap_pixel_factor(r, tm, lw), d[3];
    for (int c = 0; c < 3; c++)
        d[c] = tm->scale * p[c] * f;
    tonemap_to_display(tm, d);
    for (int c = 0; c < 3; c++)
        out[c] = tonemap_encode(tm, d[c]);
    return true;
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
 * human-vision stage, whose grids are in the image's pixels (renderer_render). */
static bool analyses_view(const viewer *v)
{
    return v->s.adapt_view && !viewer_human_shown_in(&v->rnd, &v->s);
}

const char *viewer_msaa_note(const viewer *v, int samples, bool brief)
{
    if (samples >= v->s.msaa)
        return NULL;
    /* viewer_draw_frame: the linear maps read the scene pictures a sample a pixel */
    if (viewer_compare_linear(v))
        return brief ? "error map" : "the error map compares 1 sample a pixel";
    return brief ? "the GPU's most" : "the most this GPU offers";
}

/* File, size, position in the list, zoom, samples, adaptation, latency, GPU time. */
static void status_view(text_buf *t, const viewer *v, int samples)
{
    add(t, "%s  %dx%d  [%d/%d]  zoom %.3g%%  MSAA %d",
        viewer_base_name(v->doc.list.files[v->doc.list.cur]), v->doc.img.width, v->doc.img.height,
        v->doc.list.cur + 1, v->doc.list.nfiles, v->s.view.zoom * 100, samples);
    const char *why = viewer_msaa_note(v, samples, true);   /* one line at 640 px */
    if (why)
        add(t, " (asked %d: %s)", v->s.msaa, why);
    add(t, "  adapt: %s", analyses_view(v) ? "view" : "image");
    if (v->s.adapt_view && !analyses_view(v))
        add(t, " (not the view: human vision)");
    if (v->rnd.latency)
        add(t, "  latency %d frame", v->rnd.latency);
    double ms = pass_scene_last_ms(v->rnd.scene) + pipeline_last_timings(v->rnd.pipe).total_ms;
    if (ms > 0)
        add(t, "  GPU %.2f ms", ms);
    else
        add(t, "  GPU time n/a");
}

/* Which part and layer is on screen, and where the data window lies: for files that have
 * more than one, or windows that differ. */
static void status_part(text_buf *t, const viewer *v)
{
    const hdr_image *im = &v->doc.img;
    char names[VIEWER_MAX_LAYERS][64];
    int nl = viewer_layer_names(v, names, VIEWER_MAX_LAYERS);
    const int *dw = im->data_window, *dp = im->display_window;
    bool windows = memcmp(dw, dp, sizeof im->data_window) != 0;
    if (!(v->doc.part_count > 1 || nl > 1 || windows || strcmp(im->rgb_source, "R,G,B") != 0))
        return;
    if (v->doc.part_count > 1)
        add(t, "\npart %d of %d (from 0, as --part)%s%s%s  ", im->part, v->doc.part_count,
            im->part_name[0] ? " '" : "",
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
    const tonemap_params *tm = &v->s.tm;
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
    *w = analyses_view(v) ? v->fb_w : v->doc.img.width;
    *h = analyses_view(v) ? v->fb_h : v->doc.img.height;
}

/* What the histogram samples (the analysed source is the image, or the window's view), the
 * luminance weights, forced linear, the preset. */
static void status_sampling(text_buf *t, const viewer *v)
{
    const tonemap_params *tm = &v->s.tm;
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
    const tonemap_params *tm = &v->s.tm;
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
    char colour[256];   /* the image's space, on one line */
    colour_describe(&v->doc.img.colour, tm->display_space, colour, sizeof colour);
    for (char *nl = strchr(colour, '\n'); nl; nl = strchr(nl, '\n'))
        *nl = ' ';
    add(t, "\ncolour %s", colour);
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
    const tonemap_params *tm = &v->s.tm;
    if (!human_requested(tm))
        return;
    if (!viewer_human_shown_in(&v->rnd, &v->s)) {
        add(t, "\nhuman vision: not shown (the image is in %d pieces, larger than one GPU "
               "texture)", pipeline_image_pieces(v->rnd.pipe));
        return;
    }
    const human_report *rep = pipeline_human_report(v->rnd.pipe);
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
    const imgstats *st = renderer_stats(&v->rnd, &v->doc, &v->s);
    if (!v->s.show_marks)
        return;
    if (!st)
        add(t, "\nbrightest: not available");
    else if (!st->brightest.valid)
        add(t, "\nbrightest: none (no pixel with Y > 0)");
    else
        add(t, "\nbrightest %d,%d (abs %d,%d)  RGB %.4g %.4g %.4g  Y %.4g  peaks %d",
            st->brightest.x, st->brightest.y, st->brightest.abs_x, st->brightest.abs_y,
            st->brightest.rgb[0], st->brightest.rgb[1], st->brightest.rgb[2],
            st->brightest.luminance, st->n_peaks);
}

/* The name of H's file where the layout shows several: "  in NAME", else "". */
static const char *hovered_name(const viewer *v, const hovered *h, char *buf, size_t len)
{
    buf[0] = '\0';
    if (v->rnd.ntiles > 1)
        snprintf(buf, len, "  in %s",
                 h->tile ? viewer_tile_name(v, (int)(h->tile - v->rnd.tiles))
                         : viewer_base_name(v->doc.list.files[v->doc.list.cur]));
    return buf;
}

/* The pixel under the cursor (of the hovered tile's file in a layout), from the CPU copy of
 * the image, and what it maps to. */
static void status_pixel(text_buf *t, const viewer *v)
{
    hovered h = hovered_image(v);
    int ix, iy;
    float px[4];
    const float *p = cursor_pixel(v, &h, &ix, &iy, px);
    if (!p) {
        add(t, "\npixel -  (F1 for help)");
        return;
    }
    double lw = tm_lw(&h.tm, p);
    char name[300];
    add(t, "\npixel %d,%d%s  RGB %.3g %.3g %.3g  Lw %.3g", ix + h.img->data_window[0],
        iy + h.img->data_window[1], hovered_name(v, &h, name, sizeof name), p[0], p[1], p[2],
        lw);
    int b[3];   /* the display's bytes: the same function as the Pixel section's */
    if (pixel_bytes(&h.tm, h.r, p, b))
        add(t, " -> Ld %.3g cd/m^2  out %d %d %d", tonemap_curve_ld(h.r, &h.tm, lw), b[0], b[1],
            b[2]);
}

void viewer_status_text(const viewer *v, int samples, char *buf, size_t len)
{
    const tonemap_result *r = renderer_result(&v->rnd, &v->doc, &v->s, v->vp);
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
    if (v->s.ref >= 0)
        add(&t, "\nreference %s: %s", viewer_base_name(viewer_ref_path(v)),
            v->doc.ref_err[0] ? v->doc.ref_err : ht_enum_label(compare_modes, v->s.compare));
    status_pixel(&t, v);
}

/* ---------------------------------------------------------------------------------------
 * What the panels show */

void viewer_status_human(const viewer *v, char *buf, size_t len)
{
    text_buf t = {buf, len, 0};
    buf[0] = '\0';
    status_human(&t, v);
    if (buf[0] == '\n')
        memmove(buf, buf + 1, strlen(buf));
}

bool viewer_cursor_lw(const viewer *v, double *lw)
{
    int ix, iy;
    float px[4];
    hovered h = hovered_image(v);   /* the shown image's histogram: its own pixels only */
    const float *p = v->doc.have_image && !h.tile ? cursor_pixel(v, &h, &ix, &iy, px) : NULL;
    if (!p)
        return false;
    *lw = pixel_lw(v, p);
    return isfinite(*lw) && *lw > 0;
}

void viewer_pixel_text(const viewer *v, char *buf, size_t len)
{
    text_buf t = {buf, len, 0};
    int ix, iy;
    float px[4];
    hovered h = hovered_image(v);
    const float *p = v->doc.have_image ? cursor_pixel(v, &h, &ix, &iy, px) : NULL;
    if (!p) {
        add(&t, "(move the cursor over the picture)");
        return;
    }
    const tonemap_params *tm = &h.tm;
    double lw = tm_lw(tm, p);
    image_units units = v->rnd.units;
    if (h.tile)   /* its own file's units */
        units_of_image(h.img, v->doc.user_scale, &units);
    char name[300];
    /* cd/m2 only when the file (or --scale) gives units, as the histogram's axis says */
    add(&t, "pixel %d, %d%s\nR %.4g  G %.4g  B %.4g  A %.4g\nluminance %.4g %s",
        ix + h.img->data_window[0], iy + h.img->data_window[1],
        hovered_name(v, &h, name, sizeof name), p[0], p[1], p[2], p[3],
        units_luminance(&units, p), units.rule == HT_UNITS_RELATIVE ? "(relative)" : "cd/m2");
    const char *display = ht_enum_label(colour_display_spaces, tm->display_space);
    if (!colour_xform_is_identity(&tm->colour)) {   /* the file's values, then the display's */
        double in[3] = {p[0], p[1], p[2]}, d[3];
        colour_xform_apply(&tm->colour, in, d);
        add(&t, "\nin %s: R %.4g  G %.4g  B %.4g", display, d[0], d[1], d[2]);
    }
    int bytes[3];
    if (pixel_bytes(tm, h.r, p, bytes))
        add(&t, "\ndisplay %.4g cd/m2\n%s %d %d %d", tonemap_curve_ld(h.r, tm, lw), display,
            bytes[0], bytes[1], bytes[2]);
}

bool viewer_pixel_bytes(const viewer *v, const tonemap_params *tm, const float *p, int out[3])
{
    return pixel_bytes(tm, renderer_result(&v->rnd, &v->doc, &v->s, v->vp), p, out);
}

void viewer_status_line(const viewer *v, char *buf, size_t len, bool *error)
{
    *error = false;
    if (v->message[0]) {
        snprintf(buf, len, "%s", v->message);
        *error = v->message_error;
    } else if (v->net_warn[0]) {
        snprintf(buf, len, "%s", v->net_warn);
        *error = true;
    } else if (v->doc.ref_err[0] && v->s.ref >= 0 && v->s.compare != COMPARE_OFF) {
        snprintf(buf, len, "%s", v->doc.ref_err);
        *error = true;
    } else if (v->doc.load_err[0]) {
        snprintf(buf, len, "%s", v->doc.load_err);
        *error = true;
    } else if (v->doc.have_image) {
        char text[2048], seq[256];
        viewer_status_text(v, v->rnd.samples, text, sizeof text);
        char *nl = strchr(text, '\n');
        if (nl)
            *nl = '\0';
        viewer_seq_status(v, seq, sizeof seq);   /* first: a narrow window still shows it */
        snprintf(buf, len, "%s%s%s   F1: help", seq, seq[0] ? "   " : "", text);
    } else if (viewer_loading(v) && v->doc.list.nfiles > 0) {
        char name[280];
        viewer_loading_text(v, name, sizeof name);
        snprintf(buf, len, "loading %s   F1: help", name);
    } else if (v->net) {
        snprintf(buf, len, "waiting for images: tev protocol on port %d   F1: help",
                 tev_server_port(v->net));
    } else {
        snprintf(buf, len, "no image   Ctrl+O: open   F1: help");
    }
}

void viewer_status_print(const viewer *v, FILE *f)
{
    char line[1024];
    bool error;
    viewer_status_line(v, line, sizeof line, &error);
    fprintf(f, "bar: %s\n", line);
    if (v->doc.have_image) {
        char text[2048];
        viewer_status_text(v, v->rnd.samples, text, sizeof text);
        for (char *l = text, *end; l; l = end ? end + 1 : NULL) {
            end = strchr(l, '\n');
            fprintf(f, "status: %.*s\n", end ? (int)(end - l) : (int)strlen(l), l);
        }
    }
    if (v->message[0])
        fprintf(f, "message: %s\n", v->message);
    if (!v->doc.have_image && v->doc.load_err[0])
        fprintf(f, "error: %s\n", v->doc.load_err);
}
