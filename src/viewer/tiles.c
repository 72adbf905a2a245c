/* The side-by-side and grid layouts (docs/viewer.md, Layouts): the picture's area split into
 * tiles of one size, the shown image in its own (the renderer's frame, v->vp) and each other
 * open file in a tile that owns its pipeline and scene pass, drawn with the shown image's
 * view, settings, human-vision stage and display mode, and tone-mapped with its own analysis
 * of the whole image (pipeline_frame on its image), so that each tile is what `hdrtone
 * export` makes of its file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human.h"
#include "viewer_internal.h"

enum { TILE_GAP = 4 };   /* framebuffer pixels between tiles */

/* Waits for T's job and takes its image into t->img (or its reason into t->err). */
static bool job_take(viewer_tile *t)
{
    load_job *j = t->job;
    t->job = NULL;
    bool ok = load_job_wait(j);
    if (ok) {
        t->img = *load_job_image(j);
        *load_job_image(j) = (hdr_image){0};
    } else {
        snprintf(t->err, sizeof t->err, "%.250s", load_job_err(j));
    }
    load_job_free(j);
    return ok;
}

/* Starts decoding PATH for T on a worker; false (nothing started) when it cannot. */
static bool job_start(viewer *v, viewer_tile *t, const char *path)
{
    return (t->job = load_job_start(v, path, false)) != NULL;
}

/* The entries the layout shows into E (at most HT_GRID_MAX), the shown one's place in *AT;
 * their count. Side by side: the shown image and the reference (else the next open image).
 * Grid: the page of HT_GRID_MAX entries of the list that holds the shown one. */
static int layout_entries(const viewer *v, int *e, int *at)
{
    *at = 0;
    e[0] = v->doc.list.cur;
    if (!v->doc.have_image || v->seq || v->doc.list.nfiles < 2 || v->s.layout == HT_LAYOUT_SINGLE)
        return 1;
    if (v->s.layout == HT_LAYOUT_SIDE) {
        e[1] = v->s.ref >= 0 && v->s.ref != v->doc.list.cur
                   ? v->s.ref
                   : (v->doc.list.cur + 1) % v->doc.list.nfiles;
        return 2;
    }
    int first = v->doc.list.cur - v->doc.list.cur % HT_GRID_MAX, n = v->doc.list.nfiles - first;
    n = n < HT_GRID_MAX ? n : HT_GRID_MAX;
    for (int i = 0; i < n; i++)
        e[i] = first + i;
    *at = v->doc.list.cur - first;
    return n;
}

/* T holds no file (its GPU objects are kept for the next). */
static void tile_reset(viewer_tile *t)
{
    if (t->job)
        job_take(t);   /* a decoded image nobody wants now: freed below */
    image_free(&t->img);
    t->path[0] = t->err[0] = '\0';
    t->ok = t->have_last = t->r_ok = t->human.cached = false;
}

static void tile_free(viewer_tile *t)
{
    tile_reset(t);
    pipeline_destroy(&t->pipe);
    pass_scene_destroy(&t->scene);
}

void viewer_tiles_layout(viewer *v)
{
    int e[HT_GRID_MAX], at;
    v->rnd.area = v->vp;
    v->rnd.ntiles = layout_entries(v, e, &at);
    v->rnd.tile_cur = at;
    for (int i = v->rnd.ntiles > 1 ? v->rnd.ntiles : 0; i < HT_GRID_MAX; i++)
        if (v->rnd.tiles[i].path[0])   /* a tile no longer shown gives its GPU objects back */
            tile_free(&v->rnd.tiles[i]);
    if (v->rnd.ntiles == 1)
        return;
    int cols = v->s.layout == HT_LAYOUT_SIDE ? 2 : (int)ceil(sqrt(v->rnd.ntiles));
    int rows = (v->rnd.ntiles + cols - 1) / cols;
    int w = (v->rnd.area.w - TILE_GAP * (cols - 1)) / cols;
    int h = (v->rnd.area.h - TILE_GAP * (rows - 1)) / rows;
    w = w < 1 ? 1 : w;
    h = h < 1 ? 1 : h;
    for (int i = 0; i < v->rnd.ntiles; i++) {
        v->rnd.tiles[i].entry = e[i];
        v->rnd.tiles[i].at = (viewport){v->rnd.area.x + (i % cols) * (w + TILE_GAP),
                                    v->rnd.area.y + (i / cols) * (h + TILE_GAP), w, h};
    }
    v->vp = v->rnd.tiles[at].at;
}

int viewer_tiles_point(const viewer *v, double *x, double *y)
{
    for (int i = 0; v->rnd.ntiles > 1 && i < v->rnd.ntiles; i++) {
        viewport t = v->rnd.tiles[i].at;
        if (*x >= t.x && *y >= t.y && *x < t.x + t.w && *y < t.y + t.h) {
            *x += v->vp.x - t.x;
            *y += v->vp.y - t.y;
            return i;
        }
    }
    return -1;
}

/* The other tile under the cursor that holds a picture, or -1. */
static int hovered(const viewer_render *r, const viewer_input *in)
{
    int i = in->mouse_tile;
    if (!in->mouse_in || r->ntiles < 2 || i < 0 || i >= r->ntiles || i == r->tile_cur)
        return -1;
    const viewer_tile *t = &r->tiles[i];
    return t->ok && t->have_last && t->img.rgba ? i : -1;
}

const viewer_tile *viewer_tile_hovered(const viewer *v)
{
    int i = hovered(&v->rnd, &v->in);
    return i >= 0 && v->rnd.tiles[i].r_ok ? &v->rnd.tiles[i] : NULL;
}

bool viewer_tile_params(const session *s, const viewer_tile *t, tonemap_params *tm, char *err,
                        size_t errlen)
{
    *tm = s->tm;
    tm->veil = tm->acuity = tm->color_loss = false;
    return tonemap_set_colour(tm, &t->img.colour, err, errlen);
}

/* T's decoded image uploaded into its pipeline. */
static bool tile_upload(viewer_tile *t)
{
    char err[HT_ERR_MAX];
    if ((!t->pipe && !(t->pipe = pipeline_create(err, sizeof err))) ||
        (!t->scene && !(t->scene = pass_scene_create(err, sizeof err))) ||
        !pipeline_upload(t->pipe, &t->img, err, sizeof err)) {
        snprintf(t->err, sizeof t->err, "%.250s", err);
        image_free(&t->img);
        return false;
    }
    t->err[0] = '\0';
    return true;
}

/* Tile T's file in its pipeline when its entry changed: decoded on a worker (under the test
 * hooks waited for, so that screenshots are exact), uploaded by the frame after it is done;
 * a network image copied at once. A failure is kept, not tried again every frame. */
static bool tile_load(viewer *v, viewer_tile *t)
{
    const char *path = v->doc.list.files[t->entry];
    if (strcmp(path, t->path) == 0 && !t->job)
        return t->ok;
    if (strcmp(path, t->path) != 0) {
        tile_reset(t);
        snprintf(t->path, sizeof t->path, "%s", path);
        char err[HT_ERR_MAX];
        if (viewer_net_name(v, path) || !job_start(v, t, path)) {
            if (!viewer_read_other(v, path, &t->img, err, sizeof err)) {
                snprintf(t->err, sizeof t->err, "%.250s", err);
                return false;
            }
            return t->ok = tile_upload(t);
        }
    }
    if (!v->testing && !load_job_done(t->job))
        return false;   /* still decoding: the tile says so */
    return t->ok = job_take(t) && tile_upload(t);
}

void viewer_tiles_poll(viewer *v)
{
    for (int i = 0; i < HT_GRID_MAX; i++)
        if (v->rnd.tiles[i].job && load_job_done(v->rnd.tiles[i].job))
            v->dirty = true;   /* the frame uploads it */
}

bool viewer_tiles_loading(const viewer *v)
{
    for (int i = 0; i < HT_GRID_MAX; i++)
        if (v->rnd.tiles[i].job)
            return true;
    return false;
}

/* T's picture after its scene pass: the human-vision stage when the shown image has it (as
 * the renderer's: the stage over the whole image, the scene drawn from its picture, then the
 * apply pass), else its own analysis of the whole image and the apply pass. */
static bool tile_passes(const session *s, viewer_tile *t, tonemap_params *tm, int samples,
                        scene_view view, char *err, size_t errlen)
{
    bool human = human_requested(&s->tm) && pipeline_image_pieces(t->pipe) == 1;
    ht_source pic;
    if (human) {
        tm->veil = s->tm.veil;   /* viewer_tile_params leaves them out */
        tm->acuity = s->tm.acuity;
        tm->color_loss = s->tm.color_loss;
        if (!renderer_human_picture(t->pipe, &t->human, tm, &pic, err, errlen))
            return false;
        ht_source scene = pass_scene_run(t->scene, pic, true, t->at.w, t->at.h, samples, view);
        return pipeline_run_pass(t->pipe, HT_PASS_apply, scene, tm, err, errlen);
    }
    t->human.cached = false;   /* the analysis below replaces the one the picture goes with */
    ht_source scene = pass_scene_run_image(t->scene, t->pipe, !t->img.half_exact, t->at.w,
                                           t->at.h, samples, view);
    return pipeline_frame(t->pipe, pipeline_image_source(t->pipe), scene, tm, err, errlen);
}

/* Tile T's picture: the scene pass with the shown image's view placed on its own data
 * window, then its passes (tile_passes) with the shown image's settings, human-vision stage
 * and display mode. The OCIO view takes the tile's pixels, converted to the working space by
 * their own colour transform (viewer_tile_params), from there: as `hdrtone export` of the
 * tile's file does (its file's own input space instead differs from export's picture). */
static void tile_render(const viewer_render *r, const session *s, viewer_tile *t, int samples)
{
    viewer_frame_key k = r->last;
    k.image = pipeline_image_generation(t->pipe);
    if (t->have_last && renderer_key_equal(&k, &t->last))
        return;
    tonemap_params tm;
    char err[HT_ERR_MAX];
    if (!viewer_tile_params(s, t, &tm, err, sizeof err)) {
        snprintf(t->err, sizeof t->err, "%.250s", err);
        return;
    }
    pipeline_set_display(t->pipe, viewer_display_in(r, s));
    view_place p = view_placement(s->view, t->img.data_window[0], t->img.data_window[1],
                                  t->at.w, t->at.h);
    if (!tile_passes(s, t, &tm, samples, (scene_view){p.x, p.y, p.zoom}, err, sizeof err)) {
        snprintf(t->err, sizeof t->err, "%.250s", err);
        return;
    }
    t->last = k;
    t->have_last = true;
    t->r_ok = false;
}

void viewer_tiles_load(viewer *v)
{
    for (int i = 0; v->rnd.ntiles > 1 && i < v->rnd.ntiles; i++)
        if (i != v->rnd.tile_cur)
            tile_load(v, &v->rnd.tiles[i]);
}

void viewer_tiles_render(viewer_render *r, const session *s, const viewer_input *in,
                         int samples)
{
    for (int i = 0; r->ntiles > 1 && i < r->ntiles; i++)
        if (i != r->tile_cur && r->tiles[i].ok)
            tile_render(r, s, &r->tiles[i], samples);
    int h = hovered(r, in);
    viewer_tile *t = h >= 0 ? &r->tiles[h] : NULL;
    if (t && !t->r_ok) {   /* the Pixel section's curve: one wait a render, while hovered */
        pipeline_read_result(t->pipe, &t->r);
        t->r_ok = true;
    }
}

void viewer_tiles_present(const viewer_render *r, int fb_h)
{
    for (int i = 0; r->ntiles > 1 && i < r->ntiles; i++) {
        const viewer_tile *t = &r->tiles[i];
        if (i != r->tile_cur && t->ok && t->have_last)
            viewer_blit(r, fb_h, pipeline_output_texture(t->pipe), t->at, 0, 0, t->at.w,
                        t->at.h);
    }
}

void viewer_tiles_free(viewer *v)
{
    for (int i = 0; i < HT_GRID_MAX; i++)
        tile_free(&v->rnd.tiles[i]);
}
