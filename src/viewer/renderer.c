/* The renderer: a frame's passes (scene, the human-vision stage, analysis, apply) into the
 * pipelines' outputs, the statistics on demand, and the frame record it publishes (v->rnd.frame:
 * the analysis read back a frame or so later through the GPU layer's fenced read-back).
 * Nothing here waits for the GPU but the test hooks' exact reads. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "human.h"
#include "human_gpu.h"
#include "viewer_internal.h"

bool renderer_create(viewer_render *r, char *err, size_t errlen)
{
    if (!(r->pipe = pipeline_create(err, errlen)) || !(r->scene = pass_scene_create(err, errlen)))
        return false;
    pipeline_set_latency(r->pipe, r->latency);
    glGenFramebuffers(1, &r->present_fbo);
    return true;
}

/* ---------------------------------------------------------------------------------------
 * The read-back of the analysis */

/* What a frame's analysis depends on (its key, from the frame's): the image and the
 * operator's settings, and the view, its size and samples only when the analysis reads the
 * view (V); the display mode, the reference and the comparison change the picture only. */
static viewer_frame_key analysis_key(const viewer_frame_key *frame)
{
    viewer_frame_key k = {0};
    k.image = frame->image;
    k.tm = frame->tm;
    k.adapt_view = frame->adapt_view;
    if (k.adapt_view) {
        k.view = frame->view;
        k.w = frame->w;
        k.h = frame->h;
        k.samples = frame->samples;
    }
    return k;
}

/* Starts the copy of the analysis of the frame of KEY (gpu_readback: fenced, no stall),
 * unless one is in flight: then the latest frame's is read when it lands. */
static void readback_start(viewer_render *r, const viewer_frame_key *key)
{
    char err[HT_ERR_MAX];
    if (r->rb_slot >= 0) {   /* one in flight: this frame's is read when it lands */
        r->rb_wanted = true;
        return;
    }
    r->rb_wanted = false;
    if (!r->rb && !(r->rb = gpu_readback_create(1)))
        return;
    r->rb_key = analysis_key(key);
    r->rb_slot = gpu_readback_start_buffer(r->rb, pipeline_frame_buffer(r->pipe),
                                           sizeof(ht_frame), err, sizeof err);
}

/* Differs enough to show in the text? */
static bool result_changed(const tonemap_result *a, const tonemap_result *b)
{
    if (a->mapping != b->mapping || a->bins != b->bins || a->n_valid != b->n_valid ||
        a->n_counted != b->n_counted || a->iterations != b->iterations)
        return true;
    const float fa[] = {a->bw_min, a->bw_max, a->lw_min, a->lw_max, a->linear_scale,
                        a->cumf[a->bins / 2]};
    const float fb[] = {b->bw_min, b->bw_max, b->lw_min, b->lw_max, b->linear_scale,
                        b->cumf[b->bins / 2]};
    for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++)
        if (fabsf(fa[i] - fb[i]) > 1e-4f * fmaxf(1.0f, fabsf(fa[i])))
            return true;
    return false;
}

/* Fetches a finished copy into the record with the key of the frame it was read from
 * (renderer_result gives it while that is what is shown). A result that changes the text
 * asks for one more frame; that frame's copy then matches and the window goes idle again. */
bool renderer_poll(viewer_render *rd)
{
    tonemap_result r;
    char err[HT_ERR_MAX];
    if (rd->rb_slot < 0 || !gpu_readback_ready(rd->rb, rd->rb_slot))
        return false;
    bool ok = gpu_readback_finish(rd->rb, rd->rb_slot, &r, err, sizeof err);
    rd->rb_slot = -1;
    viewer_frame_key key = rd->rb_key;
    if (rd->rb_wanted)   /* a later frame was drawn meanwhile: its analysis too */
        readback_start(rd, &rd->last);
    if (!ok)
        return false;
    bool changed = !rd->frame.valid || !renderer_key_equal(&key, &rd->frame.key) ||
                   result_changed(&r, &rd->frame.r);
    rd->frame.r = r;
    rd->frame.key = key;
    rd->frame.valid = true;
    return changed;
}

const tonemap_result *renderer_result(const viewer_render *r, const viewer_document *d,
                                      const session *s, viewport vp)
{
    if (!r->frame.valid || !r->pipe || !d->have_image)
        return NULL;
    viewer_frame_key now = renderer_frame_key(r, d, s, vp.w, vp.h, r->samples, false);
    now = analysis_key(&now);
    if (r->playing)   /* every frame a new image: the record of the one before is shown */
        now.image = r->frame.key.image;
    return renderer_key_equal(&now, &r->frame.key) ? &r->frame.r : NULL;
}

const imgstats *renderer_stats(const viewer_render *r, const viewer_document *d,
                              const session *s)
{
    return r->stats_ok && r->stats_gen == d->image_gen && tonemap_params_equal(&r->stats_tm, &s->tm)
               ? &r->stats
               : NULL;
}

/* ---------------------------------------------------------------------------------------
 * Statistics on demand */

/* A pass that cannot run (its program does not build on this driver): kept for the loop,
 * which says it on screen and on stderr once, not every frame (viewer_draw_frame). */
static void gpu_error(viewer_render *r, const char *err)
{
    if (r->nerrs < (int)(sizeof r->errs / sizeof r->errs[0]))
        snprintf(r->errs[r->nerrs++], sizeof r->errs[0], "%s", err);
}

static bool stats_wanted(const viewer_document *d, const session *s)
{
    return d->have_image && (s->show_marks || (s->show_panels && s->hist_mode != HIST_LOG));
}

/* renderer_stats_update's work: the statistics of D's image with S's settings; false with
 * the reason in ERR. */
static bool stats_compute(viewer_render *r, const viewer_document *d, const session *s,
                          char *err, size_t errlen)
{
    r->stats_tried = true;
    r->stats_ok = false;
    r->stats_gen = d->image_gen;
    r->stats_tm = s->tm;
    imgstats_free(&r->stats);
    if (!r->stats_ctx && !(r->stats_ctx = imgstats_gpu_create(err, errlen)))
        return false;
    ht_source img = pipeline_image_source(r->pipe);
    if (pipeline_image_pieces(r->pipe) != 1 || img.width != d->img.width ||
        img.height != d->img.height) {
        /* An image in several textures: imgstats' GPU passes take one texture of the whole
         * image. The brightest pixel and the peaks come from the CPU reference then (the
         * same answer); the histograms of the output are not available. */
        if (!imgstats_cpu(&d->img, NULL, r->peaks, r->min_distance, &r->stats)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        return r->stats_ok = true;
    }
    /* The output of this image's own curve, never the frame before's. */
    pipeline_set_latency(r->pipe, 0);
    bool ok = pipeline_tonemap_uploaded(r->pipe, &s->tm, NULL, NULL, err, errlen);
    pipeline_set_latency(r->pipe, r->latency);
    if (!ok)
        return false;
    ht_source out = {pipeline_output_texture(r->pipe), img.width, img.height, 1};
    if (!imgstats_gpu_prepare(r->stats_ctx, img, out, err, errlen) ||
        !imgstats_gpu_run(r->stats_ctx, &d->img, r->grey_kernel, r->peaks, r->min_distance,
                          &r->stats, err, errlen))
        return false;
    return r->stats_ok = true;
}

/* The statistics for the histogram panel's RGBA and grey modes and for the markers, computed
 * on demand (a mode turned on, another image, other parameters) and cached: the whole image
 * tone-mapped as `export` does it (pipeline_tonemap_uploaded: the image source, an output of
 * the image's size), then imgstats' GPU passes on it (brightest/darkest, the peaks, the RGBA
 * and grey histograms). The brightest and peaks need a read-back, once per change; the panel
 * then draws the histograms straight from imgstats' SSBO on every frame. Runs before the
 * frame's own passes, which overwrite the pipeline's frame and output again. True when it
 * ran them. */
bool renderer_stats_update(viewer_render *r, const viewer_document *d, const session *s,
                           char *err, size_t errlen)
{
    err[0] = '\0';
    if (!stats_wanted(d, s))
        return false;
    if (r->stats_tried && r->stats_gen == d->image_gen &&
        tonemap_params_equal(&r->stats_tm, &s->tm))
        return false;
    stats_compute(r, d, s, err, errlen);
    return true;
}

/* ---------------------------------------------------------------------------------------
 * The document's images in the pipelines */

bool renderer_upload(viewer_render *r, const viewer_document *d, char *err, size_t errlen)
{
    if (!d->have_image || r->uploaded_gen == d->image_gen)
        return true;
    r->uploaded_gen = d->image_gen;   /* failed or not: once per image, not every frame */
    return pipeline_upload(r->pipe, &d->img, err, errlen);
}

bool renderer_ref_upload(viewer_render *r, const viewer_document *d, char *err, size_t errlen)
{
    if (!d->ref_loaded || r->ref_uploaded_gen == d->ref_gen)
        return true;
    r->ref_uploaded_gen = d->ref_gen;
    if (!r->ref_pipe && !(r->ref_pipe = pipeline_create(err, errlen)))
        return false;
    r->ref_exposures_ok = false;
    return pipeline_upload(r->ref_pipe, &d->ref_img, err, errlen);
}

/* ---------------------------------------------------------------------------------------
 * The frame */

/* What a frame's picture depends on: with the same key the last output is presented again
 * (a cursor move, a help or panel change redraws only the panels). */
viewer_frame_key renderer_frame_key(const viewer_render *r, const viewer_document *d,
                                    const session *s, int w, int h, int samples, bool ref)
{
    viewer_frame_key k = {pipeline_image_generation(r->pipe), s->view, s->tm, samples,
                          s->adapt_view, w, h, r->disp_res, ref,
                          r->ref_pipe ? pipeline_image_generation(r->ref_pipe) : 0,
                          s->compare, {0}, s->ppd, s->flip_tonemapper};
    if (d->region_valid)
        memcpy(k.region, d->region.rect, sizeof k.region);
    return k;
}

bool renderer_key_equal(const viewer_frame_key *a, const viewer_frame_key *b)
{
    return a->image == b->image && a->view.cx == b->view.cx && a->view.cy == b->view.cy &&
           a->view.zoom == b->view.zoom && tonemap_params_equal(&a->tm, &b->tm) &&
           a->samples == b->samples && a->adapt_view == b->adapt_view && a->w == b->w &&
           a->h == b->h && a->ref == b->ref && a->ref_image == b->ref_image &&
           memcmp(&a->disp, &b->disp, sizeof a->disp) == 0 && a->compare == b->compare &&
           memcmp(a->region, b->region, sizeof a->region) == 0 && a->ppd == b->ppd &&
           a->flip_tonemapper == b->flip_tonemapper;
}

/* The analysis of the image comes first (the stage's grids are in its pixels, so V's
 * analysis of the view does not apply; a sequence does not adapt with the options:
 * viewer_seq_adapted); the kept picture's analysis is still the pipeline's (the statistics'
 * passes, the only other ones, run with the same settings). */
bool renderer_human_picture(pipeline *pipe, human_cache *c, const tonemap_params *tm,
                            ht_source *pic, char *err, size_t errlen)
{
    unsigned long gen = pipeline_image_generation(pipe);
    if (c->cached && c->gen == gen && tonemap_params_equal(&c->tm, tm)) {
        *pic = c->pic;
        return true;
    }
    tonemap_result r;
    c->cached = false;
    if (!pipeline_analyze_uploaded(pipe, tm, &r, err, errlen))
        return false;
    ht_human_grids g = pipeline_human_grids(pipe);
    if (!pipeline_human_prepare(pipe, &g, tm, pic, err, errlen))
        return false;
    *c = (human_cache){true, gen, *tm, *pic};
    return true;
}

/* Scene pass, analysis and apply into the pipeline's output; the status read-back. With the
 * human-vision stage the scene is drawn from the staged picture and only the apply pass runs
 * on it (the pipeline leaves its own stage out there: pipeline_human_for_apply). */
void renderer_render(viewer_render *r, const viewer_document *d, const session *s,
                     const viewer_frame_key *key, bool f32, const tonemap_result *adapted,
                     bool sync)
{
    int samples = key->samples;
    ht_source img = pipeline_image_source(r->pipe), pic;
    char err[HT_ERR_MAX];
    r->nerrs = 0;
    bool human = viewer_human_shown_in(r, s);
    bool staged = human && renderer_human_picture(r->pipe, &r->human, &s->tm, &pic, err,
                                                  sizeof err);
    if (human && !staged)
        gpu_error(r, err);
    if (!staged)   /* the analysis below replaces the one the kept picture goes with */
        r->human.cached = false;
    /* An image in pieces: the picture without the options (the status says so). */
    tonemap_params tm = s->tm;
    if (!human)
        tm.veil = tm.acuity = tm.color_loss = false;
    viewer_ocio_params(r, s, &tm);
    /* Every piece of an image larger than one texture (pipeline_upload), downsampled on the
     * GPU when zoomed out. */
    scene_view sv = viewer_scene_view_at(s, d, key->w, key->h);
    ht_source scene = staged ? pass_scene_run(r->scene, pic, true, key->w, key->h, samples, sv)
                             : pass_scene_run_image(r->scene, r->pipe, f32, key->w, key->h,
                                                    samples, sv);
    r->scene_src = scene;
    if (pass_scene_error(r->scene)[0])
        gpu_error(r, pass_scene_error(r->scene));
    if (staged) {
        if (!pipeline_run_pass(r->pipe, HT_PASS_apply, scene, &tm, err, sizeof err))
            gpu_error(r, err);
    } else if (adapted) {
        if (!pipeline_apply_result(r->pipe, &tm, adapted, NULL, 8, err, sizeof err) ||
            !pipeline_run_pass(r->pipe, HT_PASS_apply, scene, &tm, err, sizeof err))
            gpu_error(r, err);
    } else if (!pipeline_frame(r->pipe, s->adapt_view ? scene : img, scene, &tm, err,
                               sizeof err)) {
        gpu_error(r, err);
    }
    if (sync) {
        pipeline_read_result(r->pipe, &r->frame.r);   /* hooks: exact text, no hurry */
        r->frame.key = analysis_key(key);
        r->frame.valid = true;
    } else {
        readback_start(r, key);
    }
}

