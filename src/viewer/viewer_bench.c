/* The viewer's frame with its GUI, timed headless (viewer_bench.h). */
#include "viewer_bench.h"

#include <EGL/egl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panels.h"
#include "png_export.h"
#include "synthetic.h"
#include "viewer_internal.h"

/* Frames drawn before each kind is timed: the first compiles programs, and the analysis' read
 * -back arrives a frame later (the histogram and the status show it from then on). */
enum { WARMUP = 5 };

/* The window's stand-in: a pbuffer of the window's size, the current context's framebuffer 0. */
typedef struct standin {
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface surf;
    unsigned buffer;   /* GL_BACK (a pbuffer's, as EGL gives them) or GL_FRONT */
} standin;

static bool standin_make(standin *s, int w, int h, char *err, size_t errlen)
{
    static const EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                  EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                  EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    const EGLint size[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    s->dpy = eglGetCurrentDisplay();
    s->ctx = eglGetCurrentContext();
    if (s->dpy == EGL_NO_DISPLAY || s->ctx == EGL_NO_CONTEXT) {
        snprintf(err, errlen, "no current EGL context");
        return false;
    }
    if (!eglChooseConfig(s->dpy, want, &cfg, 1, &n) || n < 1) {
        snprintf(err, errlen, "EGL offers no RGBA8 pbuffer (error 0x%x)", eglGetError());
        return false;
    }
    s->surf = eglCreatePbufferSurface(s->dpy, cfg, size);
    if (s->surf == EGL_NO_SURFACE || !eglMakeCurrent(s->dpy, s->surf, s->surf, s->ctx)) {
        snprintf(err, errlen, "no %dx%d pbuffer for the window (EGL error 0x%x)", w, h,
                 eglGetError());
        if (s->surf != EGL_NO_SURFACE)
            eglDestroySurface(s->dpy, s->surf);
        s->surf = EGL_NO_SURFACE;
        return false;
    }
    /* A context first made current with no surface keeps framebuffer 0's draw and read
     * buffers at GL_NONE on NVIDIA (Mesa resets them): the pbuffer's own, as a window's. */
    EGLint rb = EGL_BACK_BUFFER;
    eglQuerySurface(s->dpy, s->surf, EGL_RENDER_BUFFER, &rb);
    s->buffer = rb == EGL_BACK_BUFFER ? GL_BACK : GL_FRONT;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDrawBuffer(s->buffer);
    glReadBuffer(s->buffer);
    return true;
}

/* Back to the surfaceless context bench made. */
static void standin_free(standin *s)
{
    if (s->surf == EGL_NO_SURFACE)
        return;
    eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, s->ctx);
    eglDestroySurface(s->dpy, s->surf);
}

/* V (viewer_init's) as viewer_run makes it, with a W x H framebuffer instead of a window, showing
 * FILE (or the synthetic image) as a load does. */
static bool viewer_open(viewer *v, const char *file, int img_w, int img_h, int w, int h,
                        char *err, size_t errlen)
{
    v->fb_w = w;
    v->fb_h = h;
    if (!renderer_create(&v->rnd, err, errlen) ||
        !(v->pnl.gui = ui_create(v->pnl.ui_scale, err, errlen)))
        return false;
    hdr_image img = {0};
    if ((v->doc.list.cur = file_list_add(&v->doc.list, file ? file : "synthetic")) < 0) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = file ? viewer_load_source(v, file, &img, err, errlen)
                   : synthetic_image(&img, img_w, img_h, 1);
    if (!file && !ok)
        snprintf(err, errlen, "out of memory for a %dx%d image", img_w, img_h);
    if (!ok || !viewer_show_image(v, &img, err, errlen) ||
        !renderer_upload(&v->rnd, &v->doc, err, errlen)) {   /* before the timed frames */
        image_free(&img);
        return false;
    }
    v->view_fresh = true;   /* fitted on the first frame, as a load leaves it */
    return true;
}

/* What is timed: a frame whose picture changed (the passes run again), one whose did not
 * (present and panels only), the panels' build and their drawing apart, the present. */
static void frame_still(viewer *v)
{
    renderer_poll(&v->rnd);   /* the loop's, before each frame: the analysis' read-back */
    viewer_draw_frame(v);
}

static void frame_changed(viewer *v)
{
    v->rnd.have_last = false;
    frame_still(v);
}

static void build_panels(viewer *v) { panels_build(v); }
static void draw_gui(viewer *v) { ui_render(v->pnl.gui, v->fb_w, v->fb_h); }
static void present(viewer *v) { viewer_present(&v->rnd, &v->s, v->vp, v->fb_h, false); }

static void clear_window(viewer *v) { viewer_clear(v); }

/* One timed step of a run: its GPU timer and, per run, CPU time until submitted and time
 * until the GPU finished (glFinish). */
typedef struct stage {
    void (*fn)(viewer *);
    gpu_timer *timer;
    double *cpu, *done, *gpu;
} stage;

/* RUNS rounds of the stages in order after the warm-up's, each waited for (a frame starts on
 * an idle GPU, as a frame of an interactive viewer does). */
static void run(viewer *v, stage *st, int nst, int runs)
{
    for (int i = -WARMUP; i < runs; i++)
        for (int k = 0; k < nst; k++) {
            stage *s = &st[k];
            gpu_timer_begin(i >= 0 ? s->timer : NULL);
            double t0 = gpu_timer_clock_ms();
            s->fn(v);
            double t1 = gpu_timer_clock_ms();
            gpu_timer_end(i >= 0 ? s->timer : NULL);
            glFinish();
            if (i >= 0) {
                s->cpu[i] = t1 - t0;
                s->done[i] = gpu_timer_clock_ms() - t0;
            }
        }
}

static bool stage_init(stage *s, void (*fn)(viewer *), int runs)
{
    *s = (stage){fn, gpu_timer_create(runs), calloc((size_t)runs * 3, sizeof(double)), NULL,
                 NULL};
    if (!s->timer || !s->cpu)
        return false;
    s->done = s->cpu + runs;
    s->gpu = s->done + runs;
    return true;
}

static void stage_free(stage *s)
{
    gpu_timer_destroy(&s->timer);
    free(s->cpu);
}

/* The stage's GPU time: the timer's, or the wall clock's where there is none (WALL_CLOCK, or
 * a driver that gave 0). Sorts the arrays (read CPU and "done" before or after, not between). */
static gpu_timing stage_gpu(stage *s, int runs, bool wall_clock)
{
    int n = gpu_timer_wait(s->timer, s->gpu, runs);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += s->gpu[i];
    if (wall_clock || n < runs || sum <= 0)
        memcpy(s->gpu, s->done, (size_t)runs * sizeof *s->gpu);
    return gpu_timing_of(s->gpu, runs);
}

/* Framebuffer 0's rows [Y0, Y0 + ROWS) (top first) as RGB8 into RGB. */
static void read_rows(const viewer *v, int y0, int rows, uint8_t *rgb)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);   /* its read buffer: standin_make's */
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    for (int y = 0; y < rows; y++)
        glReadPixels(0, v->fb_h - 1 - (y0 + y), v->fb_w, 1, GL_RGB, GL_UNSIGNED_BYTE,
                     rgb + (size_t)y * v->fb_w * 3);
}

/* HT_BENCH_GUI_PNG=PREFIX: the framebuffer as PREFIX-WxH[SUFFIX].png. */
static void test_png(const viewer *v, const char *suffix)
{
    const char *prefix = getenv("HT_BENCH_GUI_PNG");
    uint8_t *rgb = prefix ? malloc((size_t)v->fb_w * v->fb_h * 3) : NULL;
    char path[4096], err[HT_ERR_MAX];
    if (!rgb)
        return;
    read_rows(v, 0, v->fb_h, rgb);
    snprintf(path, sizeof path, "%s-%dx%d%s.png", prefix, v->fb_w, v->fb_h, suffix);
    if (!png_write_atomic(path, rgb, v->fb_w, v->fb_h, err, sizeof err))
        fprintf(stderr, "hdrtone bench: %s\n", err);
    free(rgb);
}

/* Whether the panels drew: of the rows above the picture (the menu bar's), more than half
 * the pixels differ from the same rows without the panels (the picture or the background). */
static bool gui_drawn(const uint8_t *with, const uint8_t *without, size_t pixels)
{
    size_t differ = 0;
    for (size_t i = 0; i < pixels; i++)
        for (int c = 0; c < 3; c++)
            if (abs(with[3 * i + c] - without[3 * i + c]) > 8) {
                differ++;
                break;
            }
    return pixels > 0 && differ * 2 > pixels;
}

/* The timed kinds of bench_gui_times, in the order measure runs them. */
enum { K_FRAME, K_STILL, K_PANELS, K_GUI, K_PRESENT, K_CLEAR, K_PLAIN, K_COUNT };

/* The timed runs of the opened viewer V; the menu bar's rows kept in BAND (RGB8, the width
 * times v->vp.y rows), and those rows without the panels in PLAIN. */
static void measure(viewer *v, stage *st, int runs, uint8_t **band, uint8_t **plain,
                    size_t *pixels, bench_gui_times *t)
{
    run(v, &st[K_FRAME], 1, runs);
    t->vp_w = v->vp.w;
    t->vp_h = v->vp.h;
    t->samples = v->rnd.samples;
    run(v, &st[K_STILL], 1, runs);
    run(v, &st[K_PANELS], 2, runs);   /* the panels' build, then their drawing */
    run(v, &st[K_PRESENT], 2, runs);   /* the present, then the clear */
    frame_still(v);   /* the whole frame again over the present's */
    int top = v->vp.y;
    *pixels = (size_t)v->fb_w * top;
    *band = malloc(*pixels * 3 + 1);
    *plain = malloc(*pixels * 3 + 1);
    if (*band)
        read_rows(v, 0, top, *band);
    test_png(v, "");
    v->s.show_panels = false;   /* Ctrl+H: the picture fills the window */
    run(v, &st[K_PLAIN], 1, runs);
    t->plain_w = v->vp.w;
    t->plain_h = v->vp.h;
    if (*plain)
        read_rows(v, 0, top, *plain);
    test_png(v, "-plain");
}

bool viewer_bench_frames(const ht_options *o, const char *file, int img_w, int img_h,
                         int win_w, int win_h, bool wall_clock, bench_gui_times *t, char *err,
                         size_t errlen)
{
    static void (*const fns[K_COUNT])(viewer *) = {frame_changed, frame_still, build_panels,
                                                   draw_gui, present, clear_window,
                                                   frame_changed};
    int runs = o->runs;
    standin s = {0};
    stage st[K_COUNT] = {0};
    uint8_t *band = NULL, *plain = NULL;
    size_t pixels = 0;
    viewer *v = calloc(1, sizeof *v);
    if (v)
        viewer_init(v, o);
    else
        snprintf(err, errlen, "out of memory");
    bool ok = v && standin_make(&s, win_w, win_h, err, errlen);
    for (int k = 0; ok && k < K_COUNT; k++)
        if (!(ok = stage_init(&st[k], fns[k], runs)))
            snprintf(err, errlen, "out of memory");
    if (ok && (ok = viewer_open(v, file, img_w, img_h, win_w, win_h, err, errlen)))
        measure(v, st, runs, &band, &plain, &pixels, t);
    if (ok && !(ok = band && plain && gui_drawn(band, plain, pixels))) {
        GLint draw = 0;
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glGetIntegerv(GL_DRAW_BUFFER, &draw);
        snprintf(err, errlen, "the panels drew nothing over the picture (the menu bar's rows "
                              "are those of the frame without them; framebuffer 0: status "
                              "0x%x, draw buffer 0x%x)",
                 glCheckFramebufferStatus(GL_FRAMEBUFFER), (unsigned)draw);
    }
    if (ok) {
        t->frame_cpu = gpu_timing_of(st[K_FRAME].cpu, runs);
        t->frame_done = gpu_timing_of(st[K_FRAME].done, runs);
        t->panels_cpu = gpu_timing_of(st[K_PANELS].cpu, runs);
        t->gui_cpu = gpu_timing_of(st[K_GUI].cpu, runs);
        gpu_timing *gpu[K_COUNT] = {&t->frame, &t->still,   NULL,     &t->gui,
                                    &t->present, &t->clear, &t->plain};
        for (int k = 0; k < K_COUNT; k++)
            if (gpu[k])
                *gpu[k] = stage_gpu(&st[k], runs, wall_clock);
    }
    free(band);
    free(plain);
    for (int k = 0; k < K_COUNT; k++)
        stage_free(&st[k]);
    if (v) {
        viewer_cleanup(v);
        free(v);
    }
    standin_free(&s);
    return ok;
}
