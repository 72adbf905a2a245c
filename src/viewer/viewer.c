/* The interactive viewer's loop and frame: it draws a frame (scene pass -> analyse -> apply
 * -> present into the viewport -> panels) when something changed, computes the statistics
 * on demand, and writes the --screenshot test hook. viewer_internal.h lists the other files
 * of the viewer. */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "panels.h"
#include "human.h"
#include "human_gpu.h"
#include "png_export.h"
#include "seq_cmd.h"
#include "viewer_internal.h"

enum { VIEW_PEAKS = 8 };   /* peaks marked by X when --peaks does not say */
/* How long an idle frame waits for window events while clients or files may change the
 * picture (the server and inotify are polled between waits). */
static const double LIVE_POLL_S = 0.02;

/* ---------------------------------------------------------------------------------------
 * The view */

view_place viewer_place(const viewer *v)
{
    return view_placement(v->view, v->img.data_window[0], v->img.data_window[1], v->vp.w,
                          v->vp.h);
}

static scene_view scene_view_of(const viewer *v)
{
    view_place p = viewer_place(v);
    return (scene_view){p.x, p.y, p.zoom};
}

/* What the view frames: both windows of the image. */
static view_rect image_frame(const hdr_image *img)
{
    return view_frame(img->data_window, img->width, img->height, img->display_window);
}

/* A margin for the display window's frame when there is one. */
static double frame_margin(const hdr_image *img)
{
    return memcmp(img->data_window, img->display_window, sizeof img->data_window) != 0 ? 16 : 0;
}

void viewer_fit(viewer *v)
{
    if (!v->have_image || v->vp.w <= 0 || v->vp.h <= 0)
        return;
    v->view = view_fit(image_frame(&v->img), frame_margin(&v->img), v->vp.w, v->vp.h);
    v->fitted = true;
}

bool viewer_human_shown(const viewer *v)
{
    return human_requested(&v->tm) && pipeline_image_pieces(v->pipe) == 1;
}

/* ---------------------------------------------------------------------------------------
 * The read-back of the analysis */

/* Starts the copy of the frame buffer for the text (no stall), unless one is in flight. */
static void readback_start(viewer *v)
{
    if (v->rb.fence)
        return;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, pipeline_frame_buffer(v->pipe));
    glBindBuffer(GL_COPY_WRITE_BUFFER, v->rb.buf);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, sizeof(ht_frame));
    v->rb.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();   /* polls pass no flush flag: the fence must reach the GPU by itself */
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

/* Fetches a finished copy. A result that changes the text asks for one more frame; that
 * frame's copy then matches and the window goes idle again. */
static void readback_poll(viewer *v)
{
    if (!v->rb.fence)
        return;
    GLenum s = glClientWaitSync(v->rb.fence, 0, 0);
    if (s != GL_ALREADY_SIGNALED && s != GL_CONDITION_SATISFIED)
        return;
    glDeleteSync(v->rb.fence);
    v->rb.fence = NULL;
    tonemap_result r;
    glBindBuffer(GL_COPY_READ_BUFFER, v->rb.buf);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof r, &r);
    if (!v->rb.valid || result_changed(&r, &v->rb.r))
        v->dirty = true;
    v->rb.r = r;
    v->rb.valid = true;
}

/* ---------------------------------------------------------------------------------------
 * Statistics on demand */

/* A pass that cannot run (its program does not build on this driver): said on screen and on
 * stderr once, not every frame. */
static void gpu_error(viewer *v, const char *err)
{
    if (!strstr(v->message, err))
        viewer_set_message(v, true, "GPU pipeline: %s", err);
}

static bool stats_wanted(const viewer *v)
{
    return v->have_image && (v->show_marks || (v->show_panels && v->hist_mode != HIST_LOG));
}

/* stats_update's work: the statistics of the image with the current settings. */
static void stats_compute(viewer *v)
{
    v->stats_tried = true;
    v->stats_ok = false;
    v->stats_gen = v->image_gen;
    v->stats_tm = v->tm;
    imgstats_free(&v->stats);
    char err[HT_ERR_MAX];
    if (!v->stats_ctx && !(v->stats_ctx = imgstats_gpu_create(err, sizeof err))) {
        viewer_set_message(v, true, "statistics: %s", err);
        return;
    }
    ht_source img = pipeline_image_source(v->pipe);
    if (pipeline_image_pieces(v->pipe) != 1 || img.width != v->img.width ||
        img.height != v->img.height) {
        /* An image in several textures: imgstats' GPU passes take one texture of the whole
         * image. The brightest pixel and the peaks come from the CPU reference then (the
         * same answer); the histograms of the output are not available. */
        if (!imgstats_cpu(&v->img, NULL, v->peaks, v->min_distance, &v->stats)) {
            viewer_set_message(v, true, "statistics: out of memory");
            return;
        }
        v->stats_ok = true;
        return;
    }
    /* The output of this image's own curve, never the frame before's. */
    pipeline_set_latency(v->pipe, 0);
    bool ok = pipeline_tonemap_uploaded(v->pipe, &v->tm, NULL, NULL, err, sizeof err);
    pipeline_set_latency(v->pipe, v->latency);
    if (!ok) {
        viewer_set_message(v, true, "statistics: %s", err);
        return;
    }
    ht_source out = {pipeline_output_texture(v->pipe), img.width, img.height, 1};
    if (!imgstats_gpu_prepare(v->stats_ctx, img, out, err, sizeof err) ||
        !imgstats_gpu_run(v->stats_ctx, &v->img, v->grey_kernel, v->peaks, v->min_distance,
                          &v->stats, err, sizeof err)) {
        viewer_set_message(v, true, "statistics: %s", err);
        return;
    }
    v->stats_ok = true;
}

/* The statistics for the histogram panel's RGBA and grey modes and for the markers, computed
 * on demand (a mode turned on, another image, other parameters) and cached: the whole image
 * tone-mapped as `export` does it (pipeline_tonemap_uploaded: the image source, an output of
 * the image's size), then imgstats' GPU passes on it (brightest/darkest, the peaks, the RGBA
 * and grey histograms). The brightest and peaks need a read-back, once per change; the panel
 * then draws the histograms straight from imgstats' SSBO on every frame. Runs before the
 * frame's own passes, which overwrite the pipeline's frame and output again. True when it
 * ran them. */
static bool stats_update(viewer *v)
{
    if (!stats_wanted(v))
        return false;
    if (v->stats_tried && v->stats_gen == v->image_gen && tonemap_params_equal(&v->stats_tm, &v->tm))
        return false;
    stats_compute(v);
    return true;
}

/* ---------------------------------------------------------------------------------------
 * The frame */

/* What a frame's picture depends on: with the same key the last output is presented again
 * (a cursor move, a help or panel change redraws only the overlay). */
static viewer_frame_key frame_key(viewer *v, int samples)
{
    viewer_frame_key k = {pipeline_image_generation(v->pipe), v->view, v->tm, samples,
                          v->adapt_view, v->vp.w, v->vp.h, v->disp_res, viewer_ref_shown(v),
                          v->ref_pipe ? pipeline_image_generation(v->ref_pipe) : 0};
    return k;
}

static bool frame_key_equal(const viewer_frame_key *a, const viewer_frame_key *b)
{
    return a->image == b->image && a->view.cx == b->view.cx && a->view.cy == b->view.cy &&
           a->view.zoom == b->view.zoom && tonemap_params_equal(&a->tm, &b->tm) &&
           a->samples == b->samples && a->adapt_view == b->adapt_view && a->w == b->w &&
           a->h == b->h && a->ref == b->ref && a->ref_image == b->ref_image &&
           memcmp(&a->disp, &b->disp, sizeof a->disp) == 0;
}

/* The human-vision stage's picture (viewer_human_shown) in *PIC: the analysis of the image
 * (the stage's grids are in its pixels, so V's analysis of the view does not apply; a
 * sequence does not adapt with the options: viewer_seq_adapted), then the stage over the
 * image into the pipeline's float picture; the one made last while the image and settings
 * are the same (its analysis is still the frame's: the statistics' passes, the only other
 * ones, run with the same settings). */
static bool human_picture(viewer *v, ht_source *pic, char *err, size_t errlen)
{
    unsigned long gen = pipeline_image_generation(v->pipe);
    if (v->human_cached && v->human_gen == gen && tonemap_params_equal(&v->human_tm, &v->tm)) {
        *pic = v->human_pic;
        return true;
    }
    tonemap_result r;
    v->human_cached = false;
    if (!pipeline_analyze_uploaded(v->pipe, &v->tm, &r, err, errlen))
        return false;
    ht_human_grids g = pipeline_human_grids(v->pipe);
    if (!pipeline_human_prepare(v->pipe, &g, &v->tm, pic, err, errlen))
        return false;
    v->human_cached = true;
    v->human_gen = gen;
    v->human_tm = v->tm;
    v->human_pic = *pic;
    return true;
}

/* Scene pass, analysis and apply into the pipeline's output; the status read-back. With the
 * human-vision stage the scene is drawn from the staged picture and only the apply pass runs
 * on it (the pipeline leaves its own stage out there: pipeline_human_for_apply). */
static void render(viewer *v, bool f32, int samples)
{
    ht_source img = pipeline_image_source(v->pipe), pic;
    char err[HT_ERR_MAX];
    /* A sequence's frame adapted in time: its result is the frame, only the apply runs. */
    const tonemap_result *adapted = viewer_seq_adapted(v);
    bool human = viewer_human_shown(v), staged = human && human_picture(v, &pic, err,
                                                                        sizeof err);
    if (human && !staged)
        gpu_error(v, err);
    if (!staged)   /* the analysis below replaces the one the kept picture goes with */
        v->human_cached = false;
    /* An image in pieces: the picture without the options (the status says so). */
    tonemap_params tm = v->tm;
    if (!human)
        tm.veil = tm.acuity = tm.color_loss = false;
    /* Every piece of an image larger than one texture (pipeline_upload), downsampled on the
     * GPU when zoomed out. */
    ht_source scene = staged ? pass_scene_run(v->scene, pic, true, v->vp.w, v->vp.h, samples,
                                              scene_view_of(v))
                             : pass_scene_run_image(v->scene, v->pipe, f32, v->vp.w, v->vp.h,
                                                    samples, scene_view_of(v));
    if (pass_scene_error(v->scene)[0])
        gpu_error(v, pass_scene_error(v->scene));
    if (staged) {
        if (!pipeline_run_pass(v->pipe, HT_PASS_apply, scene, &tm, err, sizeof err))
            gpu_error(v, err);
    } else if (adapted) {
        if (!pipeline_apply_result(v->pipe, &tm, adapted, NULL, 8, err, sizeof err) ||
            !pipeline_run_pass(v->pipe, HT_PASS_apply, scene, &tm, err, sizeof err))
            gpu_error(v, err);
    } else if (!pipeline_frame(v->pipe, v->adapt_view ? scene : img, scene, &tm, err,
                               sizeof err)) {
        gpu_error(v, err);
    }
    if (v->testing) {
        pipeline_read_result(v->pipe, &v->rb.r);   /* hooks: exact text, no hurry */
        v->rb.valid = true;
    } else {
        readback_start(v);
    }
}

/* The view when the viewport is known: a new image's first view, a fitted view refitted
 * when the viewport changed (a resize, a panel shown or hidden). */
static void update_view(viewer *v)
{
    if (v->view_fresh) {
        v->view = view_first(image_frame(&v->img), frame_margin(&v->img), v->vp.w, v->vp.h);
        v->fitted = v->view.zoom < 1;   /* shown whole, smaller than 1:1: keep it whole */
        v->view_fresh = false;
    } else if (v->fitted && (v->vp.w != v->last.w || v->vp.h != v->last.h)) {
        viewer_fit(v);
    }
}

/* One frame: the panels' layout and widgets, then the scene pass, analysis, apply (unless
 * nothing they depend on changed), present, and the panels over it. */
static int draw_frame(viewer *v)
{
    glfwGetFramebufferSize(v->win, &v->fb_w, &v->fb_h);
    if (v->fb_w <= 0 || v->fb_h <= 0)
        return 0;   /* minimised */
    panels_layout(v);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, v->fb_w, v->fb_h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0.12f, 0.12f, 0.13f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    int samples = 1;
    if (v->have_image) {
        update_view(v);
        viewer_display_update(v);
        bool stats_ran = stats_update(v);   /* it overwrites the output: render again */
        /* The staged picture is float (pipeline_human_prepare): the scene keeps its bits. */
        bool f32 = !v->img.half_exact || viewer_human_shown(v);
        samples = pass_scene_samples(v->scene, v->msaa, f32);
        viewer_frame_key key = frame_key(v, samples);
        bool changed = stats_ran || !v->have_last || !frame_key_equal(&key, &v->last);
        if (changed || v->latency_due) {
            render(v, f32, samples);
            scene_view sv = scene_view_of(v);
            if (key.ref)
                viewer_ref_render(v, &sv, samples);
            /* In the one-frame-latency form a changed picture shows the curve of the frame
             * before (pipeline_set_latency); run_loop renders it again when it stays. */
            v->latency_due = changed && v->latency == 1;
            v->last = key;
            v->have_last = true;
            v->renders++;
        }
        viewer_present(v, key.ref);
    }
    v->samples = samples;
    /* The panels after the frame, so that they show its record; a click in them runs an
     * action whose picture the next frame draws (platform.c asks for it). */
    panels_build(v);
    panels_draw_canvas(v);
    ui_render(v->gui, v->fb_w, v->fb_h);
    return samples;
}

/* --screenshot: the back buffer, top row first, as RGB8 PNG. */
static bool screenshot(viewer *v, const char *path)
{
    size_t row = (size_t)v->fb_w * 3;
    uint8_t *px = malloc(row * v->fb_h), *tmp = malloc(row);
    if (!px || !tmp) {
        free(px);
        free(tmp);
        fprintf(stderr, "hdrtone: screenshot: out of memory\n");
        return false;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, v->fb_w, v->fb_h, GL_RGB, GL_UNSIGNED_BYTE, px);
    for (int y = 0; y < v->fb_h / 2; y++) {   /* GL's rows go bottom-up */
        memcpy(tmp, px + y * row, row);
        memcpy(px + y * row, px + (size_t)(v->fb_h - 1 - y) * row, row);
        memcpy(px + (size_t)(v->fb_h - 1 - y) * row, tmp, row);
    }
    char err[HT_ERR_MAX];
    bool ok = png_write_atomic(path, px, v->fb_w, v->fb_h, err, sizeof err);
    if (!ok)
        fprintf(stderr, "hdrtone: screenshot: %s\n", err);
    else {
        /* Where the image is, for tests that compare its pixels. */
        view_place sv = viewer_place(v);
        printf("screenshot %s %dx%d image %dx%d at %d,%d zoom %g\n", path, v->fb_w, v->fb_h,
               v->img.width, v->img.height, v->vp.x + (int)sv.x, v->vp.y + (int)sv.y, sv.zoom);
        printf("viewport %d,%d %dx%d text %.1f\n", v->vp.x, v->vp.y, v->vp.w, v->vp.h,
               v->gui ? ui_text_px(v->gui) : 0.0);
        const float *hr = v->hist_rect;
        printf("histogram %d,%d %dx%d\n", (int)hr[0], (int)hr[1], (int)hr[2], (int)hr[3]);
        printf("frames %ld rendered %ld\n", v->frames, v->renders);
        /* And the status text, shown or not, line by line: tests check what it says. */
        if (v->have_image) {
            char text[2048];
            viewer_status_text(v, v->samples, text, sizeof text);
            for (char *line = text, *end; line; line = end ? end + 1 : NULL) {
                end = strchr(line, '\n');
                printf("status: %.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
            }
        }
        if (v->message[0])
            printf("message: %s\n", v->message);
        /* The marked peaks (X), data-window coordinates, by rank. */
        for (int i = 0; v->show_marks && v->stats_ok && i < v->stats.n_peaks; i++)
            printf("peak: %d %d,%d\n", i + 1, v->stats.peaks[i].x, v->stats.peaks[i].y);
        fflush(stdout);
    }
    free(px);
    free(tmp);
    return ok;
}

/* ---------------------------------------------------------------------------------------
 * Setup */

static void viewer_cleanup(viewer *v)
{
    if (v->win) {
        glfwMakeContextCurrent(v->win);
        if (v->rb.fence)
            glDeleteSync(v->rb.fence);
        glDeleteBuffers(1, &v->rb.buf);
        glDeleteFramebuffers(1, &v->present_fbo);
        ui_destroy(&v->gui);
        imgstats_gpu_destroy(&v->stats_ctx);
        pass_scene_destroy(&v->scene);
        pipeline_destroy(&v->pipe);
        pipeline_destroy(&v->ref_pipe);
        glfwDestroyWindow(v->win);
    }
    viewer_net_stop(v);
    viewer_watch_stop(v);
    viewer_seq_stop(v);
    image_free(&v->img);
    image_free(&v->ref_img);
    imgstats_free(&v->stats);
    viewer_files_free(v);
    free(v->replay);
    glfwTerminate();
}

/* The viewer's state from the command line's options. */
static void viewer_init(viewer *v, const ht_options *o)
{
    v->tm = o->tm;
    v->msaa = o->msaa < 1 ? 1 : o->msaa;
    v->show_panels = !o->no_panels;
    v->ui_scale = o->ui_scale > 0 ? (float)o->ui_scale : 1;
    v->latency = o->latency;
    v->view.zoom = 1;
    v->dirty = true;
    v->testing = o->keys || o->screenshot;
    v->opt_part = o->part;
    v->opt_layer = o->layer;
    v->max_pixels = o->max_pixels;
    v->grey_kernel = o->histogram_kernel;
    v->peaks = o->peaks > 0 ? o->peaks : VIEW_PEAKS;
    v->min_distance = o->min_distance;
    v->watch_fd = v->watch_wd = -1;
    v->ref = -1;
    v->wipe = 0.5;
    v->disp = o->display;
    v->user_scale = o->scale_given ? o->tm.scale : 0;
}

/* Draws frames until the user quits, or until o->screenshot is written (its exit status). */
static int run_loop(viewer *v, const ht_options *o)
{
    /* The screenshot comes after --frames frames and after every replayed key has had a
     * frame drawn with its effect. */
    long shot_at = o->frames > v->nreplay + 1 ? o->frames : v->nreplay + 1;
    while (!v->quit && !glfwWindowShouldClose(v->win)) {
        ui_input_begin(v->gui);
        if (v->testing || o->continuous || v->dirty || v->ui_frames > 0)
            glfwPollEvents();
        else if (viewer_seq_playing(v))
            glfwWaitEventsTimeout(0.001);   /* the clock decides when the next frame shows */
        else if (v->rb.fence)
            glfwWaitEventsTimeout(0.005);   /* a read-back is on its way */
        else if (v->net || v->watching || v->latency_due)
            glfwWaitEventsTimeout(LIVE_POLL_S);
        else
            glfwWaitEvents();               /* idle costs nothing */
        ui_input_end(v->gui);
        if (v->ui_frames > 0) {   /* the GUI settles a frame after a click or a key */
            v->ui_frames--;
            v->dirty = true;
        }
        readback_poll(v);
        viewer_net_poll(v);
        viewer_watch_poll(v);
        viewer_seq_poll(v);
        /* A picture that stays (a still, a paused sequence, a pause in a stream) gets its own
         * curve; while the picture changes every frame is one frame late. */
        if (v->latency_due && !v->dirty && !viewer_seq_playing(v))
            v->dirty = true;
        if (!(v->dirty || v->testing || o->continuous) || v->quit)
            continue;
        v->dirty = false;
        draw_frame(v);
        v->frames++;
        if (o->screenshot && v->frames >= shot_at)
            return screenshot(v, o->screenshot) ? 0 : 1;
        glfwSwapBuffers(v->win);
        if (v->export_due) {   /* S: after the frame, never inside the key's handler */
            v->export_due = false;
            viewer_export(v);
            v->dirty = true;
        }
        /* --keys: one key per frame, after the first, through the real dispatch. */
        if (v->replayed < v->nreplay) {
            viewer_key(v, v->replay[v->replayed][0], v->replay[v->replayed][1]);
            v->replayed++;
            if (v->replayed == v->nreplay && !o->screenshot)
                v->testing = false;   /* back to redrawing on events */
        }
    }
    return 0;
}

int viewer_main(const ht_options *o, char **files, int nfiles)
{
    viewer vs = {0}, *v = &vs;
    viewer_init(v, o);
    if (o->keys && !viewer_parse_replay(v, o->keys)) {
        free(v->replay);
        return 2;
    }
    platform_set_error_callback();
    if (!glfwInit()) {
        const char *why = platform_glfw_error();
        fprintf(stderr,
                "hdrtone: cannot open a window: %s\n"
                "hdrtone: no display? `hdrtone export FILE -o OUT.png` tone-maps without one.\n",
                why[0] ? why : "GLFW cannot start");
        free(v->replay);
        return 1;
    }
    if (o->listen && !viewer_net_start(v, o->listen, o->layer, o->max_pixels)) {
        viewer_cleanup(v);
        return 1;
    }
    bool seq = nfiles == 1 && seq_cmd_is_sequence(files[0]);
    if (seq && !viewer_seq_open(v, o, files[0])) {
        viewer_cleanup(v);
        return 1;
    }
    if (!seq && !(o->listen && nfiles == 0) &&
        (nfiles < 1 || !viewer_files_set(v, files, nfiles))) {
        fprintf(stderr, "hdrtone: no file to open\n");
        viewer_cleanup(v);
        return 1;
    }
    if (!platform_open_window(v, o)) {
        viewer_cleanup(v);
        return 1;
    }
    glGenFramebuffers(1, &v->present_fbo);
    glGenBuffers(1, &v->rb.buf);
    glBindBuffer(GL_COPY_WRITE_BUFFER, v->rb.buf);
    glBufferData(GL_COPY_WRITE_BUFFER, sizeof(ht_frame), NULL, GL_STREAM_READ);
    if (o->reference && (v->ref = viewer_files_add(v, o->reference)) >= 0)
        v->compare = COMPARE_WIPE;
    if (seq)
        viewer_seq_start(v);
    else
        viewer_load_current(v);
    if (o->watch)
        viewer_watch_key(v, 1);
    int status = run_loop(v, o);
    viewer_cleanup(v);
    return status;
}
