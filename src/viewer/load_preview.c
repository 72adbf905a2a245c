/* The picture while a file loads (issue 32): the rows its loader has finished (the progress
 * hook, image_progress: final from the top) shown tone-mapped where the whole image will be
 * shown first, the rest of the canvas left as background, before the whole is in.
 *
 * The loading thread keeps a reduced copy of the rows as they land (preview_rows_add: every
 * K-th pixel of every K-th row, K from the zoom the image will first be shown at, so that the
 * copy has at most the viewport's pixels, not the image's: an 8K image's full rows would be
 * ~265 MB to copy and upload). It is made inside the hook, on the loading thread, so the
 * loader's buffer is read only while it surely exists (a load that fails frees it before the
 * window's thread hears of it). The window's thread uploads only the copy's new rows into a
 * texture of its own and tone-maps them with a pipeline of its own (viewer_preview_*): the
 * shown image's pipeline, its curve (and the one-frame latency's), its textures and the view
 * are never touched, so the first frame of the whole image is the one a load without a
 * preview draws. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_internal.h"

static const double PREVIEW_EVERY_S = 0.2;   /* the least time between two tone mappings */

struct preview_rows {
    atomic_int fit_w, fit_h;   /* the viewport, from the window's thread: K's */
    /* Set by the first rows, before ROWS publishes them (read only when ROWS > 0): */
    int k;                     /* image pixels per preview pixel, either way */
    int width, height;         /* the image's */
    int w, h;                  /* the copy's: ceil(width / K) x ceil(height / K) */
    uint16_t *half;            /* w x h RGBA half floats */
    atomic_int rows;           /* the copy's rows final, from the top */
    bool failed;               /* out of memory: no preview */
};

preview_rows *preview_rows_new(void) { return calloc(1, sizeof(preview_rows)); }

void preview_rows_free(preview_rows *p)
{
    if (p)
        free(p->half);
    free(p);
}

void preview_rows_fit(preview_rows *p, int w, int h)
{
    atomic_store(&p->fit_w, w);
    atomic_store(&p->fit_h, h);
}

/* The view a WIDTH x HEIGHT image gets first in a VW x VH viewport (update_view's, with the
 * display window taken as the data window: the hook tells rows only, the windows come with
 * the whole image; most files have them equal, and where not only the preview's place
 * differs a little, never the image's first frame; a --session's saved view, too, applies
 * to the whole image alone). */
static view_place first_place(int width, int height, int vw, int vh)
{
    const int dw[4] = {0, 0, width - 1, height - 1};
    view_state s = view_first(view_frame(dw, width, height, dw), 0, vw, vh);
    return view_placement(s, 0, 0, vw, vh);
}

/* The image pixel that preview pixel I samples along an axis of N pixels. */
static int sample_at(int i, int k, int n)
{
    int s = i * k + k / 2;
    return s < n ? s : n - 1;
}

static bool rows_begin(preview_rows *p, int width, int height)
{
    int vw = atomic_load(&p->fit_w), vh = atomic_load(&p->fit_h);
    if (vw <= 0 || vh <= 0) {   /* no frame drawn yet: a common screen's */
        vw = 1920;
        vh = 1080;
    }
    double zoom = first_place(width, height, vw, vh).zoom;
    /* Rounded up: at most the viewport's pixels (a 4K image at a zoom of 0.6 would be copied
     * whole otherwise), shown enlarged by less than 2. */
    p->k = zoom < 1 ? (int)ceil(1 / zoom - 1e-9) : 1;
    p->width = width;
    p->height = height;
    p->w = (width + p->k - 1) / p->k;
    p->h = (height + p->k - 1) / p->k;
    p->half = malloc((size_t)p->w * (size_t)p->h * 4 * sizeof *p->half);
    p->failed = !p->half;
    return !p->failed;
}

void preview_rows_add(preview_rows *p, const uint16_t *half, int width, int done, int height)
{
    if (p->failed || !half || width <= 0 || height <= 0)
        return;
    if (!p->half && !rows_begin(p, width, height))
        return;
    if (width != p->width || height != p->height)
        return;   /* not the contract's: one image */
    int r = atomic_load(&p->rows), k = p->k;
    for (; r < p->h && sample_at(r, k, height) < done; r++) {
        const uint16_t *src = half + (size_t)sample_at(r, k, height) * (size_t)width * 4;
        uint16_t *dst = p->half + (size_t)r * (size_t)p->w * 4;
        for (int i = 0; i < p->w; i++)
            memcpy(dst + 4 * i, src + 4 * (size_t)sample_at(i, k, width), 4 * sizeof *dst);
    }
    atomic_store(&p->rows, r);   /* after the rows: the window's thread reads them then */
}

/* ---------------------------------------------------------------------------------------
 * The window's thread */

/* Whether the rows landed are due to be tone-mapped again: each time is a pipeline frame on
 * the window's thread, which on a CPU rasteriser takes the cores the decoder runs on (at every
 * band of an 8K load it cost the load 4.5 % here; BENCHMARKS.md). */
static bool render_due(const viewer_preview *g)
{
    return !g->failed && g->drawn < g->rows &&
           (!g->drawn || platform_time() - g->drawn_at >= PREVIEW_EVERY_S);
}

/* N rows of HALF (the texture's width of RGBA half floats) into the preview's texture at Y. */
static void upload_rows(viewer_preview *g, int y, int n, const uint16_t *half)
{
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);   /* from memory, not an upload buffer */
    glBindTexture(GL_TEXTURE_2D, g->tex.id);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, g->tex.width, n, GL_RGBA, GL_HALF_FLOAT, half);
}

void viewer_preview_update(viewer *v, preview_rows *p)
{
    viewer_preview *g = &v->rnd.preview;
    if (v->vp.w > 0 && v->vp.h > 0)
        preview_rows_fit(p, v->vp.w, v->vp.h);
    int rows = atomic_load(&p->rows);
    if (rows <= g->rows) {
        v->dirty = v->dirty || render_due(g);   /* rows held back by the last render */
        return;
    }
    if (!g->rows) {
        /* And the output, once for the load: the pipeline's own, made anew for each band's
         * size, stalled llvmpipe's apply pass up to a second here (BENCHMARKS.md). */
        gpu_tex_recreate(&g->tex, p->w, p->h, GL_RGBA16F, 1);
        gpu_tex_recreate(&g->out, p->w, p->h, GL_RGBA8, 1);
        g->k = p->k;
        g->width = p->width;
        g->height = p->height;
    }
    upload_rows(g, g->rows, rows - g->rows, p->half + (size_t)g->rows * (size_t)p->w * 4);
    g->rows = rows;
    v->dirty = v->dirty || render_due(g);
}

/* G without a picture: its textures gone, its pipeline kept. */
static void preview_clear(viewer_preview *g)
{
    gpu_tex_destroy(&g->tex);
    gpu_tex_destroy(&g->out);
    g->rows = g->drawn = 0;
    g->drawn_at = 0;
}

void viewer_preview_drop(viewer *v)
{
    if (v->rnd.preview.rows)
        v->dirty = true;
    preview_clear(&v->rnd.preview);
}

void viewer_preview_destroy(viewer *v)
{
    viewer_preview_drop(v);
    pipeline_destroy(&v->rnd.preview.pipe);
}

/* The preview's tone mapping: the session's, without the human-vision stage (a picture of
 * some rows has no scene to adapt to) and in the colour space the load asks for (--colorspace)
 * or else the default, Rec. 709: the file's tags come with the whole image, and the shown
 * session's own colour space is the image's (viewer_show_image), which the preview must leave
 * as it is. */
static tonemap_params preview_params(const viewer *v)
{
    tonemap_params tm = v->s.tm;
    tm.veil = tm.acuity = tm.color_loss = false;
    char why[HT_ERR_MAX];
    image_colour c = v->doc.opt_colour;   /* zeroed without --colorspace: the default */
    if (!tonemap_set_colour(&tm, &c, why, sizeof why))
        tm = v->s.tm;   /* the option's space was checked at the start: not reached */
    return tm;
}

/* The tone-mapped rows into the preview's output when due; whether it holds any. */
static bool preview_render(viewer *v)
{
    viewer_preview *g = &v->rnd.preview;
    char err[HT_ERR_MAX];
    if (!render_due(g))
        return g->drawn > 0 && !g->failed;
    tonemap_params tm = preview_params(v);
    ht_source src = {g->tex.id, g->tex.width, g->rows, 1};   /* the rows landed alone */
    /* A driver where it cannot run: the text alone, as before (the image's own frame says
     * why, if it fails too), not tried again every frame. */
    if (!g->pipe && !(g->pipe = pipeline_create(err, sizeof err))) {
        g->failed = true;
        return false;
    }
    pipeline_set_output(g->pipe, g->out.id);
    g->failed = !pipeline_frame(g->pipe, src, src, &tm, err, sizeof err);
    pipeline_set_output(g->pipe, 0);
    g->drawn = g->rows;
    g->drawn_at = platform_time();
    return !g->failed;
}

void viewer_preview_warm(viewer *v)
{
    viewer_preview *g = &v->rnd.preview;
    enum { N = 8 };
    uint16_t px[N * N * 4];
    if (g->pipe || g->failed || g->rows)
        return;
    for (int i = 0; i < N * N * 4; i++)   /* 1, 0.5 and 0.25: a range for the curve */
        px[i] = (uint16_t)(0x3c00 - (i % 3) * 0x400);
    gpu_tex_recreate(&g->tex, N, N, GL_RGBA16F, 1);
    gpu_tex_recreate(&g->out, N, N, GL_RGBA8, 1);
    upload_rows(g, 0, N, px);
    g->rows = N;
    preview_render(v);
    preview_clear(g);
}

bool viewer_preview_place(const viewer *v, int rect[4], int *rows)
{
    const viewer_preview *g = &v->rnd.preview;
    if (!g->drawn || g->failed || v->rnd.ntiles > 1 || v->vp.w <= 0 || v->vp.h <= 0)
        return false;
    view_place pl = first_place(g->width, g->height, v->vp.w, v->vp.h);
    rect[0] = v->vp.x + (int)pl.x;
    rect[1] = v->vp.y + (int)pl.y;
    rect[2] = (int)lround(g->width * pl.zoom);
    rect[3] = (int)lround(g->height * pl.zoom);
    *rows = g->drawn * g->k < g->height ? g->drawn * g->k : g->height;
    return true;
}

bool viewer_preview_draw(viewer *v)
{
    viewer_preview *g = &v->rnd.preview;
    int r[4], rows;
    if (v->rnd.ntiles > 1 || !preview_render(v) || !viewer_preview_place(v, r, &rows))
        return false;
    double s = (double)r[2] / g->width * g->k;   /* window pixels per preview pixel */
    /* Within the rows landed and the viewport (the copy's last column and row may reach past
     * the image by less than K pixels). */
    int x0 = r[0] > v->vp.x ? r[0] : v->vp.x, y0 = r[1] > v->vp.y ? r[1] : v->vp.y;
    int x1 = r[0] + r[2] < v->vp.x + v->vp.w ? r[0] + r[2] : v->vp.x + v->vp.w;
    int y1 = r[1] + (int)lround((double)r[3] * rows / g->height);
    y1 = y1 < v->vp.y + v->vp.h ? y1 : v->vp.y + v->vp.h;
    if (x1 <= x0 || y1 <= y0)
        return true;
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, v->fb_h - y1, x1 - x0, y1 - y0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, v->rnd.present_fbo);
    glFramebufferTexture(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, g->out.id, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    /* The output's row 0 is the image's top: flipped into the window's bottom-up rows. */
    glBlitFramebuffer(0, 0, g->tex.width, g->drawn, r[0], v->fb_h - r[1],
                      r[0] + (int)lround(g->tex.width * s),
                      v->fb_h - r[1] - (int)lround(g->drawn * s), GL_COLOR_BUFFER_BIT, GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDisable(GL_SCISSOR_TEST);
    return true;
}
