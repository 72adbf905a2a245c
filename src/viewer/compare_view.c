/* The reference image and the views that compare with it (tev's reference, mrv2's wipe):
 * the reference loaded into a pipeline of its own, drawn with the current image's view,
 * settings and curve (so a difference in the pictures is a difference in the images), and
 * composed with the current image: held (Z), or split by a divider the mouse drags. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "viewer_internal.h"

bool viewer_read_other(viewer *v, const char *path, hdr_image *img, char *err, size_t errlen)
{
    const char *net = viewer_net_name(v, path);
    if (net)
        return viewer_net_load(v, net, img, err, errlen);
    char part[64], layer[64];
    image_load_options lo = viewer_load_options(v, false, part, sizeof part, layer,
                                                sizeof layer);
    return image_load(path, &lo, img, err, errlen);
}

/* The reference's image in the document, loaded when the entry changed, and in its pipeline
 * (the renderer's upload). False with the reason in v->doc.ref_err. */
static bool ref_load(viewer *v)
{
    if (v->s.ref < 0 || v->s.ref >= v->doc.list.nfiles) {
        v->s.ref = -1;
        return false;
    }
    const char *path = v->doc.list.files[v->s.ref];
    if (strcmp(path, v->doc.ref_path) != 0) {   /* loaded, or failed: not again every frame */
        v->doc.ref_loaded = false;
        image_free(&v->doc.ref_img);
        snprintf(v->doc.ref_path, sizeof v->doc.ref_path, "%s", path);
        char err[HT_ERR_MAX];
        if (!viewer_read_other(v, path, &v->doc.ref_img, err, sizeof err)) {
            snprintf(v->doc.ref_err, sizeof v->doc.ref_err, "reference %.200s", err);
            return false;
        }
        v->doc.ref_loaded = true;
        v->doc.ref_gen++;
        v->doc.ref_err[0] = '\0';
    }
    char err[HT_ERR_MAX];
    if (!renderer_ref_upload(&v->rnd, &v->doc, err, sizeof err)) {
        snprintf(v->doc.ref_err, sizeof v->doc.ref_err, "reference %.200s", err);
        v->doc.ref_loaded = false;
        image_free(&v->doc.ref_img);
    }
    return v->doc.ref_loaded;
}

bool viewer_ref_shown(viewer *v)
{
    if (v->s.ref < 0 || !v->doc.have_image || (v->s.compare == COMPARE_OFF && !v->s.flip_held) ||
        v->rnd.ntiles > 1)
        return false;
    if (!ref_load(v))
        return false;
    const int *a = v->doc.img.data_window, *b = v->doc.ref_img.data_window;
    if (a[2] - a[0] != b[2] - b[0] || a[3] - a[1] != b[3] - b[1]) {
        snprintf(v->doc.ref_err, sizeof v->doc.ref_err,
                 "the reference is %dx%d, the image %dx%d: only images of one size compare",
                 b[2] - b[0] + 1, b[3] - b[1] + 1, a[2] - a[0] + 1, a[3] - a[1] + 1);
        return false;
    }
    v->doc.ref_err[0] = '\0';
    return true;
}

bool viewer_ref_render(viewer_render *r, const viewer_document *d, const session *s,
                       const viewer_frame_key *key, char *err, size_t errlen)
{
    tonemap_params tm = s->tm;
    tm.veil = tm.acuity = tm.color_loss = false;   /* the stage runs on the current image only */
    char why[HT_ERR_MAX];
    if (!tonemap_set_colour(&tm, &d->ref_img.colour, why, sizeof why)) {   /* its own space */
        snprintf(err, errlen, "reference: %.200s", why);
        return false;
    }
    if (!r->ref_scene && !(r->ref_scene = pass_scene_create(why, sizeof why))) {
        snprintf(err, errlen, "reference: %.200s", why);
        return false;
    }
    ht_source scene = pass_scene_run_image(r->ref_scene, r->ref_pipe, !d->ref_img.half_exact,
                                           key->w, key->h, key->samples,
                                           viewer_scene_view_at(s, d, key->w, key->h));
    r->ref_src = scene;
    pipeline_copy_result(r->ref_pipe, r->pipe);   /* this frame's curve, on the GPU */
    pipeline_set_display(r->ref_pipe, viewer_display_in(r, s));
    if (!pipeline_run_pass(r->ref_pipe, HT_PASS_apply, scene, &tm, why, sizeof why)) {
        snprintf(err, errlen, "reference: %.200s", why);
        return false;
    }
    return true;
}

void viewer_blit(const viewer_render *r, int fb_h, unsigned tex, viewport at, int x0, int y0,
                 int x1, int y1)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->present_fbo);
    glFramebufferTexture(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    /* The output's rows are the viewport's, bottom-up; the window's too. */
    int sy0 = at.h - y1, sy1 = at.h - y0, dy = fb_h - (at.y + at.h);
    glBlitFramebuffer(x0, sy0, x1, sy1, at.x + x0, dy + sy0, at.x + x1, dy + sy1,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void viewer_present(const viewer_render *r, const session *s, viewport vp, int fb_h, bool ref)
{
    if (ref && r->cmp_shown && !s->flip_held) {   /* the error map */
        viewer_blit(r, fb_h, compare_gpu_texture(r->cmp), vp, 0, 0, vp.w, vp.h);
        return;
    }
    viewer_blit(r, fb_h, pipeline_output_texture(r->pipe), vp, 0, 0, vp.w, vp.h);
    if (!ref)
        return;
    unsigned tex = pipeline_output_texture(r->ref_pipe);
    int at = viewer_wipe_pos_at(s, vp);
    if (s->flip_held)
        viewer_blit(r, fb_h, tex, vp, 0, 0, vp.w, vp.h);
    else if (s->compare == COMPARE_WIPE && s->wipe_horizontal)
        viewer_blit(r, fb_h, tex, vp, 0, at, vp.w, vp.h);
    else if (s->compare == COMPARE_WIPE)
        viewer_blit(r, fb_h, tex, vp, at, 0, vp.w, vp.h);
}

/* ---------------------------------------------------------------------------------------
 * Error maps (compare_gpu.h) */

/* HDR-FLIP's exposures, from the reference's pixels (as FLIP's tool derives them): once a
 * reference. */
static bool ref_exposures(viewer_render *r, const viewer_document *d, const flip_params *fp,
                          char *err, size_t errlen)
{
    if (r->ref_exposures_ok)
        return true;
    if (!d->ref_img.rgba) {
        snprintf(err, errlen, "HDR-FLIP needs the reference's floats");
        return false;
    }
    r->ref_exposures_ok = flip_exposures_for(d->ref_img.rgba, d->ref_img.width, d->ref_img.height,
                                             4, fp, &r->ref_exposures, err, errlen);
    return r->ref_exposures_ok;
}

/* Where the numbers are taken, in viewport pixels: the region when there is one, else the
 * image as it is shown (the viewport's pixels outside it, black in both, would dilute the
 * means); clipped to the viewport. */
static flip_rect numbers_rect(const viewer_document *d, const session *s, int w, int h)
{
    flip_rect r = {0, 0, 0, 0};
    const int whole[4] = {0, 0, d->img.width - 1, d->img.height - 1};
    const int *q = d->region_valid ? d->region.rect : whole;
    view_place p = viewer_place_at(s, d, w, h);
    view_point a = view_to_window(p, (view_point){q[0], q[1]});
    view_point b = view_to_window(p, (view_point){q[2] + 1, q[3] + 1});
    int x0 = (int)fmax(0, floor(a.x)), y0 = (int)fmax(0, floor(a.y));
    int x1 = (int)fmin(w, ceil(b.x)), y1 = (int)fmin(h, ceil(b.y));
    if (x1 > x0 && y1 > y0)
        r = (flip_rect){x0, y0, x1 - x0, y1 - y0};
    return r;
}

bool viewer_compare_run(viewer_render *r, const viewer_document *dc, const session *s, bool sync,
                        char *err, size_t errlen)
{
    static const metrics_map MAPS[COMPARE_COUNT] = {
        [COMPARE_DIFF] = METRICS_MAP_DIFF, [COMPARE_ABS] = METRICS_MAP_ABS,
        [COMPARE_SQUARED] = METRICS_MAP_SQUARED, [COMPARE_RELATIVE] = METRICS_MAP_RELATIVE,
        [COMPARE_FLIP] = METRICS_MAP_FLIP, [COMPARE_HDR_FLIP] = METRICS_MAP_FLIP};
    char why[HT_ERR_MAX];
    r->cmp_shown = false;
    if (!r->cmp && !(r->cmp = compare_gpu_create(why, sizeof why))) {
        snprintf(err, errlen, "comparison: %.200s", why);
        return false;
    }
    compare_gpu_desc d = {0};
    bool ldr = s->compare == COMPARE_FLIP;
    d.ref = (compare_gpu_image){
        ldr ? pipeline_output_texture(r->ref_pipe) : r->ref_src.texture, r->last.w, r->last.h};
    d.test = (compare_gpu_image){
        ldr ? pipeline_output_texture(r->pipe) : r->scene_src.texture, r->last.w, r->last.h};
    d.source = ldr ? FLIP_SRC_SRGB : s->compare == COMPARE_HDR_FLIP ? FLIP_SRC_HDR
                                                                    : FLIP_SRC_LINEAR;
    d.mode = MAPS[s->compare];
    d.rect = numbers_rect(dc, s, r->last.w, r->last.h);
    d.flip.ppd = (float)s->ppd;
    d.flip.tonemapper = (flip_tonemapper)s->flip_tonemapper;
    d.skip_flip = s->compare < COMPARE_FLIP;
    if (s->compare == COMPARE_HDR_FLIP && !ref_exposures(r, dc, &d.flip, why, sizeof why)) {
        snprintf(err, errlen, "HDR-FLIP: %.200s", why);
        return false;
    }
    d.exposures = r->ref_exposures;
    /* Only the rectangle changed since the last run with FLIP: its map is kept
     * (compare_gpu.h's flip_unchanged; HDR-FLIP is an LDR-FLIP per exposure). */
    viewer_frame_key key = r->last;
    memset(key.region, 0, sizeof key.region);
    d.flip_unchanged =
        !d.skip_flip && r->cmp_key_valid && renderer_key_equal(&key, &r->cmp_key);
    /* The linear maps read the scene pictures with texelFetch: one sample a pixel (viewer.c
     * asks for it; a staged human-vision picture may still have several). */
    if (s->compare != COMPARE_FLIP && (r->ref_src.samples != 1 || r->scene_src.samples != 1))
        snprintf(why, sizeof why, "the pictures have several samples a pixel (MSAA)");
    else
        r->cmp_shown = compare_gpu_run(r->cmp, &d, why, sizeof why);
    if (r->cmp_shown)
        r->cmp_runs++;   /* as compare_gpu counts its runs: the numbers' run */
    if (r->cmp_shown && sync && compare_gpu_wait(r->cmp, &r->cmp_numbers))
        r->cmp_have = true;   /* the hooks' screenshots: this frame's numbers, waited for */
    r->cmp_key = key;
    r->cmp_key_valid = r->cmp_shown && !d.skip_flip;
    if (!r->cmp_shown)
        snprintf(err, errlen, "comparison: %.200s", why);
    return r->cmp_shown;
}

bool viewer_compare_ready(const viewer *v)
{
    return v->rnd.cmp_shown && v->rnd.cmp_have && v->rnd.cmp_numbers.run == v->rnd.cmp_runs;
}

void viewer_compare_poll(viewer *v)
{
    if (v->rnd.cmp && compare_gpu_poll(v->rnd.cmp, &v->rnd.cmp_numbers)) {
        v->rnd.cmp_have = true;
        v->dirty = true;   /* the panel shows them */
    }
}

void viewer_compare_free(viewer *v)
{
    compare_gpu_destroy(&v->rnd.cmp);
    pass_scene_destroy(&v->rnd.ref_scene);
}
