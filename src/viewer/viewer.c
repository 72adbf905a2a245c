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
#include "ocio.h"
#include "png_export.h"
#include "seq_cmd.h"
#include "viewer_internal.h"

enum { VIEW_PEAKS = 8 };   /* peaks marked by X when --peaks does not say */
/* How long an idle frame waits for window events while clients or files may change the
 * picture (the server and inotify are polled between waits). */
static const double LIVE_POLL_S = 0.02;

/* ---------------------------------------------------------------------------------------
 * The view */

/* The view when the viewport is known: a new image's first view, a fitted view refitted
 * when the viewport changed (a resize, a panel shown or hidden). */
static void update_view(viewer *v)
{
    if (v->view_fresh && v->session_view) {
        v->s.view = v->session_view->view;
        v->s.fitted = v->session_view->fitted;
        viewer_session_image(v, v->session_view);
        if (v->session_view->missing[0]) {   /* after the load, which clears the message */
            snprintf(v->message, sizeof v->message, "%.500s", v->session_view->missing);
            v->message_error = true;
        }
        v->session_view = NULL;
        v->view_fresh = false;
        if (v->s.fitted)
            viewer_fit(v);
    } else if (v->view_fresh) {
        v->s.view = viewer_fit_view(v, true);
        v->s.fitted = v->s.view.zoom < 1;   /* shown whole, smaller than 1:1: keep it whole */
        v->view_fresh = false;
    } else if (v->s.fitted && (v->vp.w != v->rnd.last.w || v->vp.h != v->rnd.last.h)) {
        viewer_fit(v);
    }
}

/* The renderer's errors of the frame on the message line, each said once (a pass that
 * cannot run fails every frame). */
static void say_gpu_errors(viewer *v)
{
    for (int i = 0; i < v->rnd.nerrs; i++)
        if (!strstr(v->message, v->rnd.errs[i]))
            viewer_set_message(v, true, "GPU pipeline: %s", v->rnd.errs[i]);
}

/* The frame's passes for KEY (F32: the scene pass keeps float; CHANGED: the key is new, not
 * the one-frame-latency form's second render), the reference's and the error map; their
 * errors said or put in the document's ref_err. */
static void render(viewer *v, const viewer_frame_key *key, bool f32, bool changed)
{
    /* A sequence's frame adapted in time: its result is the frame's curve. */
    v->rnd.playing = viewer_seq_playing(v);
    renderer_render(&v->rnd, &v->doc, &v->s, key, f32, viewer_seq_adapted(v), v->testing);
    say_gpu_errors(v);
    char rerr[HT_ERR_MAX];
    if (key->ref && !viewer_ref_render(&v->rnd, &v->doc, &v->s, key, rerr, sizeof rerr))
        snprintf(v->doc.ref_err, sizeof v->doc.ref_err, "%.250s", rerr);
    /* In the one-frame-latency form a changed picture shows the curve of the frame before
     * (pipeline_set_latency); run_loop renders it again when it stays. */
    v->rnd.latency_due = changed && v->rnd.latency == 1;
    v->rnd.last = *key;
    v->rnd.have_last = true;
    v->rnd.cmp_shown = false;
    /* The error map of this frame's pictures (v->rnd.last). */
    if (key->ref && viewer_compare_map(v) &&
        !viewer_compare_run(&v->rnd, &v->doc, &v->s, v->testing, rerr, sizeof rerr))
        snprintf(v->doc.ref_err, sizeof v->doc.ref_err, "%.250s", rerr);
    v->rnd.renders++;
}

void viewer_clear(const viewer *v)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, v->fb_w, v->fb_h);
    glClearColor(0.12f, 0.12f, 0.13f, 1);
    glDisable(GL_SCISSOR_TEST);
    if (!v->doc.have_image || v->rnd.ntiles > 1) {
        glClear(GL_COLOR_BUFFER_BIT);
        return;
    }
    /* The bands around the picture, in GL's bottom-up rows: left, right, above, below. */
    int x0 = v->vp.x, x1 = v->vp.x + v->vp.w, y0 = v->fb_h - (v->vp.y + v->vp.h);
    int y1 = v->fb_h - v->vp.y;
    const int band[4][4] = {{0, 0, x0, v->fb_h},
                            {x1, 0, v->fb_w - x1, v->fb_h},
                            {x0, y1, v->vp.w, v->fb_h - y1},
                            {x0, 0, v->vp.w, y0}};
    glEnable(GL_SCISSOR_TEST);
    for (int i = 0; i < 4; i++)
        if (band[i][2] > 0 && band[i][3] > 0) {
            glScissor(band[i][0], band[i][1], band[i][2], band[i][3]);
            glClear(GL_COLOR_BUFFER_BIT);
        }
    glDisable(GL_SCISSOR_TEST);
}

/* One frame: the panels' layout and widgets, then the scene pass, analysis, apply (unless
 * nothing they depend on changed), present, and the panels over it. */
int viewer_draw_frame(viewer *v)
{
    platform_framebuffer_size(v);   /* without a window bench's stand-in set it */
    if (v->fb_w <= 0 || v->fb_h <= 0)
        return 0;   /* minimised */
    panels_layout(v, &v->pnl, &v->vp);
    viewer_tiles_layout(v);
    int samples = 1;
    char uerr[HT_ERR_MAX];
    if (!renderer_upload(&v->rnd, &v->doc, uerr, sizeof uerr))
        viewer_upload_failed(v, uerr);
    if (v->doc.region_valid && v->doc.region_gen != v->doc.image_gen)
        v->doc.region_valid = false;   /* another image, part or layer: its region is gone */
    /* The image's units first: a session's region needs them. */
    viewer_display_update(&v->rnd, &v->doc, &v->s.disp, v->s.tm.white, uerr, sizeof uerr);
    if (uerr[0])
        viewer_set_message(v, true, "%s", uerr);
    viewer_clear(v);
    if (v->doc.have_image) {
        update_view(v);
        /* The statistics' passes overwrite the output: render again when they ran. */
        bool stats_ran = renderer_stats_update(&v->rnd, &v->doc, &v->s, uerr, sizeof uerr);
        if (uerr[0])
            viewer_set_message(v, true, "statistics: %s", uerr);
        /* The staged picture is float (pipeline_human_prepare): the scene keeps its bits. */
        bool f32 = !v->doc.img.half_exact || viewer_human_shown_in(&v->rnd, &v->s);
        /* An error map of the linear pictures compares pixels: one sample each. */
        samples = viewer_compare_linear(v) ? 1 : pass_scene_samples(v->rnd.scene, v->s.msaa, f32);
        viewer_frame_key key = renderer_frame_key(&v->rnd, &v->doc, &v->s, v->vp.w, v->vp.h,
                                                  samples, viewer_ref_shown(v));
        bool changed = stats_ran || !v->rnd.have_last || !renderer_key_equal(&key, &v->rnd.last);
        if (changed || v->rnd.latency_due)
            render(v, &key, f32, changed);
        viewer_present(&v->rnd, &v->s, v->vp, v->fb_h, key.ref);
        viewer_tiles_load(v);
        viewer_tiles_render(&v->rnd, &v->s, &v->in, samples);
        viewer_tiles_present(&v->rnd, v->fb_h);
    } else {
        viewer_preview_draw(v);   /* a file loading: the rows landed */
    }
    v->rnd.samples = samples;
    /* The panels after the frame, so that they show its record; a click in them runs an
     * action whose picture the next frame draws (platform.c asks for it). */
    panels_build(v);
    ui_render(v->pnl.gui, v->fb_w, v->fb_h);
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
        view_place sv = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
        printf("screenshot %s %dx%d image %dx%d at %d,%d zoom %g\n", path, v->fb_w, v->fb_h,
               v->doc.img.width, v->doc.img.height, v->vp.x + (int)sv.x, v->vp.y + (int)sv.y,
               sv.zoom);
        printf("viewport %d,%d %dx%d text %.1f\n", v->vp.x, v->vp.y, v->vp.w, v->vp.h,
               v->pnl.gui ? ui_text_px(v->pnl.gui) : 0.0);
        const float *hr = v->pnl.hist_rect;
        printf("histogram %d,%d %dx%d\n", (int)hr[0], (int)hr[1], (int)hr[2], (int)hr[3]);
        printf("frames %ld rendered %ld\n", v->frames, v->rnd.renders);
        /* And the status, shown or not, line by line: tests check what it says. */
        viewer_status_print(v, stdout);
        /* The marked peaks (X), data-window coordinates, by rank. */
        const imgstats *st = renderer_stats(&v->rnd, &v->doc, &v->s);
        for (int i = 0; v->s.show_marks && st && i < st->n_peaks; i++)
            printf("peak: %d %d,%d\n", i + 1, st->peaks[i].x, st->peaks[i].y);
        fflush(stdout);
    }
    free(px);
    free(tmp);
    return ok;
}

/* ---------------------------------------------------------------------------------------
 * Setup */

void viewer_cleanup(viewer *v)
{
    viewer_seq_stop(v);   /* first: its decoders write into the pipeline's upload buffers */
    if (v->win || v->rnd.pipe) {   /* GL objects: the window's context, or bench's */
        platform_make_current(v);
        gpu_readback_destroy(&v->rnd.rb);
        viewer_preview_destroy(v);
        glDeleteFramebuffers(1, &v->rnd.present_fbo);
        ui_destroy(&v->pnl.gui);
        imgstats_gpu_destroy(&v->rnd.stats_ctx);
        pass_scene_destroy(&v->rnd.scene);
        pipeline_destroy(&v->rnd.pipe);
        pipeline_destroy(&v->rnd.ref_pipe);
        viewer_compare_free(v);
        viewer_tiles_free(v);
        platform_close_window(v);
        ocio_config_free(&v->rnd.ocio);
    }
    viewer_load_stop(v);
    viewer_pins_stop(v);
    viewer_whole_stop(v);
    viewer_net_stop(v);
    viewer_watch_stop(v);
    image_free(&v->doc.img);
    image_free(&v->doc.ref_img);
    imgstats_free(&v->rnd.stats);
    viewer_files_free(v);
    free(v->in.replay);
    platform_end();
}

/* The viewer's state from the command line's options. */
void viewer_init(viewer *v, const ht_options *o)
{
    v->s.tm = o->tm;
    v->s.msaa = o->msaa < 1 ? 1 : o->msaa;
    v->s.show_panels = !o->no_panels;
    v->pnl.ui_scale = o->ui_scale > 0 ? (float)o->ui_scale : 1;
    v->rnd.latency = o->latency;
    v->s.view.zoom = 1;
    v->dirty = true;
    v->testing = o->keys || o->screenshot;
    v->doc.opt_part = o->part;
    v->doc.opt_layer = o->layer;
    v->doc.max_pixels = o->max_pixels;
    v->doc.opt_colour = o->colour;
    v->rnd.grey_kernel = o->histogram_kernel;
    v->rnd.peaks = o->peaks > 0 ? o->peaks : VIEW_PEAKS;
    v->rnd.min_distance = o->min_distance;
    v->watch_fd = v->watch_wd = -1;
    v->s.ref = -1;
    v->rnd.rb_slot = -1;
    v->s.wipe = 0.5;
    v->s.disp = o->display;
    v->s.layout = o->layout;
    v->doc.user_scale = o->scale_given ? o->tm.scale : 0;
}

/* Draws frames until the user quits, or until o->screenshot is written (its exit status). */
static int run_loop(viewer *v, const ht_options *o)
{
    /* The screenshot comes after --frames frames and after every replayed key has had a
     * frame drawn with its effect. */
    long shot_at = o->frames > v->in.nreplay + 1 ? o->frames : v->in.nreplay + 1;
    while (!v->quit && !platform_should_close(v)) {
        ui_input_begin(v->pnl.gui);
        if (v->testing || o->continuous || v->dirty || v->pnl.ui_frames > 0)
            platform_wait(0);
        else if (viewer_seq_playing(v))
            platform_wait(0.001);   /* the clock decides when the next frame shows */
        else if (v->rnd.rb_slot >= 0 || viewer_loading(v) || viewer_tiles_loading(v) ||
                 viewer_pins_busy(v) || viewer_whole_busy(v))
            platform_wait(0.005);   /* a read-back, a load or a worker's result is on its way */
        else if (v->net || v->watching || v->rnd.latency_due)
            platform_wait(LIVE_POLL_S);
        else {
            viewer_preview_warm(v);   /* once: the next load's first rows show sooner */
            platform_wait(-1);        /* idle costs nothing */
        }
        if (v->pnl.ui_frames > 0) {   /* the GUI settles a frame after a click or a key */
            v->pnl.ui_frames--;
            v->dirty = true;
        }
        if (renderer_poll(&v->rnd))
            v->dirty = true;
        viewer_load_poll(v);
        viewer_compare_poll(v);
        viewer_pins_poll(v);
        viewer_whole_poll(v);
        viewer_tiles_poll(v);
        if (v->testing)   /* the hooks' screenshots show the whole image's numbers */
            viewer_whole_wait(v);
        viewer_net_poll(v);
        viewer_watch_poll(v);
        for (int k = 0; k < v->in.nseq_keys; k++)   /* in order, outside the keys' handlers */
            viewer_seq_key(v, v->in.seq_keys[k]);
        v->in.nseq_keys = 0;
        viewer_seq_poll(v);
        /* A picture that stays (a still, a paused sequence, a pause in a stream) gets its own
         * curve; while the picture changes every frame is one frame late. */
        if (v->rnd.latency_due && !v->dirty && !viewer_seq_playing(v))
            v->dirty = true;
        if (!(v->dirty || v->testing || o->continuous) || v->quit)
            continue;
        v->dirty = false;
        viewer_draw_frame(v);
        v->frames++;
        if (o->screenshot && v->frames >= shot_at)
            return screenshot(v, o->screenshot) ? 0 : 1;
        platform_swap(v);
        if (v->export_due) {   /* S: after the frame, never inside the key's handler */
            v->export_due = false;
            viewer_export(v, o);
            v->dirty = true;
        }
        /* --keys: one key per frame, after the first, through the real dispatch. */
        if (v->in.replayed < v->in.nreplay) {
            viewer_key(v, v->in.replay[v->in.replayed][0], v->in.replay[v->in.replayed][1]);
            v->in.replayed++;
            if (v->in.replayed == v->in.nreplay && !o->screenshot)
                v->testing = false;   /* back to redrawing on events */
        }
    }
    return 0;
}

static int viewer_run(viewer *v, const ht_options *o, char **files, int nfiles,
                      viewer_session_file *sess);

/* --session: the session's settings over the command line's, its readable files before the
 * command line's; the missing ones listed in MISSING. False (said) for a bad session. */
static bool session_start(const ht_options *o, ht_options *so, viewer_session_file *s,
                          char ***paths, int *n)
{
    *so = *o;
    if (!o->session)
        return true;
    if (!viewer_session_open(o->session, so, s))
        return false;
    const json_value *f = json_get(&s->root, "files");
    char **all = calloc((size_t)(f->n + *n) + 1, sizeof *all);
    if (!all) {
        fprintf(stderr, "hdrtone: %s: out of memory\n", o->session);
        return false;
    }
    char missing[sizeof s->missing - 64];
    int k = viewer_session_files(s, all, f->n, missing, sizeof missing);
    if (missing[0]) {
        snprintf(s->missing, sizeof s->missing, "%s: missing: %s", o->session, missing);
        fprintf(stderr, "hdrtone: %s\n", s->missing);
    }
    for (int i = 0; i < *n; i++)
        all[k++] = (*paths)[i];
    *paths = all;
    *n = k;
    return true;
}

int viewer_main(const ht_options *o_cli, char **files, int nfiles)
{
    viewer vs = {0}, *v = &vs;
    ht_options so;
    viewer_session_file sess = {0};
    char **cli_files = files;
    if (!session_start(o_cli, &so, &sess, &files, &nfiles)) {
        viewer_session_free(&sess);
        return 1;
    }
    const ht_options *o = &so;
    int status = viewer_run(v, o, files, nfiles, o->session ? &sess : NULL);
    if (files != cli_files)
        free(files);
    viewer_session_free(&sess);
    return status;
}

static int viewer_run(viewer *v, const ht_options *o, char **files, int nfiles,
                      viewer_session_file *sess)
{
    viewer_init(v, o);
    snprintf(v->session_path, sizeof v->session_path, "%s",
             o->session ? o->session : "hdrtone-session.json");
    if (o->keys && !viewer_parse_replay(v, o->keys)) {
        free(v->in.replay);
        return 2;
    }
    platform_set_error_callback();
    if (!platform_start()) {
        const char *why = platform_glfw_error();
        fprintf(stderr,
                "hdrtone: cannot open a window: %s\n"
                "hdrtone: no display? `hdrtone export FILE -o OUT.png` tone-maps without one.\n",
                why[0] ? why : "GLFW cannot start");
        free(v->in.replay);
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
    char err[HT_ERR_MAX];
    if (!platform_open_window(v, o, &input_events)) {
        viewer_cleanup(v);
        return 1;
    }
    if (!renderer_create(&v->rnd, err, sizeof err)) {
        fprintf(stderr, "hdrtone: GPU setup failed: %s\n", err);
        viewer_cleanup(v);
        return 1;
    }
    /* The GUI at the monitor's content scale times --ui-scale. */
    if (!(v->pnl.gui = ui_create(platform_content_scale(v) * v->pnl.ui_scale, err, sizeof err))) {
        fprintf(stderr, "hdrtone: the GUI cannot start: %s\n", err);
        viewer_cleanup(v);
        return 1;
    }
    if (o->reference && (v->s.ref = file_list_add(&v->doc.list, o->reference)) >= 0)
        v->s.compare = COMPARE_WIPE;
    if (sess)
        viewer_session_apply(v, sess);
    if (seq)
        viewer_seq_start(v);
    else
        viewer_load_begin(v);
    if (o->watch)
        viewer_watch_key(v, 1);
    int status = run_loop(v, o);
    viewer_cleanup(v);
    return status;
}
