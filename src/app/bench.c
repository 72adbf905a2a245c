/* hdrtone bench: GPU time of every pass, bandwidth probes measured in the same run, and each
 * pass's ratio to the memory-bandwidth floor. A benchmark of a wrong answer is worthless, so
 * the GPU result is first checked against the CPU reference. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "bench_export.h"
#include "bench_gui.h"
#include "bench_decode.h"
#include "bench_flip.h"
#include "bench_dispatch.h"
#include "bench_open.h"
#include "bench_playback.h"
#include "bench_present.h"
#include "commands.h"
#include "compare.h"
#include "gl_context.h"
#include "gpu_timer.h"
#include "human.h"
#include "human_gpu.h"
#include "imgstats_gpu.h"
#include "ocio_view.h"
#include "pass_scene.h"
#include "pipeline.h"
#include "probe.h"
#include "synthetic.h"

typedef gpu_timing timing;

typedef struct bench {
    pipeline *pipe;
    tonemap_params params;
    image_colour colour;        /* the image's colour space (the OCIO view's input) */
    ht_source src;
    int pass;                   /* for run_pass */
    gpu_probe *probe;
    int probe_samples;          /* samples the read probe reads per pixel */
    bool wall_clock;            /* GL_TIME_ELAPSED reported 0: timed with glFinish instead */
    pass_scene *scene;          /* the viewer's scene pass, drawing image into a target */
    ht_source image;
    bool float32;
    imgstats_gpu_ctx *stats;
    int stats_pass;
    bench_present *present;     /* "viewer frame": the present into the window's stand-in */
    int present_by;             /* BENCH_PRESENT_*, for run_viewer_frame */
    const ht_options *o;        /* for the viewer frame with GUI (bench_gui.h) ... */
    const char *file;           /* ... of this file (NULL: the synthetic image) ... */
    int gui_samples;            /* ... in the table of the viewer's samples */
    char err[HT_ERR_MAX];       /* the first error of a timed run */
} bench;

/* The timed runs have no room for an error: the first one is kept in b->err. */
static void keep(bench *b, bool ok, const char *err)
{
    if (!ok && !b->err[0])
        snprintf(b->err, sizeof b->err, "%s", err);
}

typedef struct bench_call {
    bench *b;
    void (*fn)(bench *);
} bench_call;

static void call(void *arg)
{
    bench_call *c = arg;
    c->fn(c->b);
}

static timing measure(bench *b, void (*fn)(bench *), int runs)
{
    bench_call c = {b, fn};
    return gpu_timer_measure(call, &c, runs, &b->wall_clock);
}

static void run_pipeline(bench *b)
{
    char err[HT_ERR_MAX];
    for (int pass = 0; pass < HT_PASS_COUNT; pass++)
        keep(b, pipeline_run_pass(b->pipe, pass, b->src, &b->params, err, sizeof err), err);
}

/* Every pass inside whole-pipeline runs, each with its own timer: a pass repeated on its own
 * can run at another speed than in its place in the sequence (seen at 8K on an H100: apply
 * alone 2.8x slower than the whole pipeline). Fills t[HT_PASS_COUNT] (of the passes that
 * run with the parameters) and the merge+curve sum (merge .. curve); false where the driver's timer gives nothing (wall clock then times whole runs
 * only). */
static bool measure_passes(bench *b, int runs, timing *t, timing *merge_curve)
{
    if (b->wall_clock)
        return false;
    for (int i = 0; i < 5; i++)
        run_pipeline(b);
    gpu_timer *timer[HT_PASS_COUNT] = {0};
    double *ms = calloc((size_t)runs * (HT_PASS_COUNT + 1), sizeof *ms);
    bool ok = ms != NULL;
    for (int pass = 0; ok && pass < HT_PASS_COUNT; pass++)
        ok = (timer[pass] = gpu_timer_create(runs)) != NULL;
    if (!ok)
        abort();
    char err[HT_ERR_MAX];
    for (int r = 0; r < runs; r++)
        for (int pass = 0; pass < HT_PASS_COUNT; pass++) {
            bool runs_here = pipeline_pass_used(pass, &b->params);
            gpu_timer_begin(runs_here ? timer[pass] : NULL);
            keep(b, pipeline_run_pass(b->pipe, pass, b->src, &b->params, err, sizeof err), err);
            gpu_timer_end(runs_here ? timer[pass] : NULL);
        }
    double *sum = ms + (size_t)HT_PASS_COUNT * runs;
    for (int pass = 0; pass < HT_PASS_COUNT; pass++) {
        double *col = ms + (size_t)pass * runs;
        int n = gpu_timer_wait(timer[pass], col, runs);
        for (int r = n; r < runs; r++)
            col[r] = 0;
        for (int r = 0; r < runs; r++)
            if (pass >= HT_PASS_merge && pass <= HT_PASS_curve)
                sum[r] += col[r];
        gpu_timer_destroy(&timer[pass]);
    }
    for (int pass = 0; pass <= HT_PASS_COUNT; pass++) {
        timing tm = gpu_timing_of(ms + (size_t)pass * runs, runs);
        if (pass < HT_PASS_COUNT)
            t[pass] = tm;
        else
            *merge_curve = tm;
    }
    free(ms);
    return true;
}

static void run_pass(bench *b)
{
    char err[HT_ERR_MAX];
    keep(b, pipeline_run_pass(b->pipe, b->pass, b->src, &b->params, err, sizeof err), err);
}

/* A new image every run: the binning the frame holds is made stale first, so the range pass
 * orders the re-binning read. */
static void run_pipeline_cold(bench *b)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, pipeline_frame_buffer(b->pipe));
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, offsetof(ht_frame, bins),
                         sizeof(uint32_t), GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    run_pipeline(b);
}

static void run_scene(bench *b)
{
    pass_scene_run(b->scene, b->image, b->float32, b->image.width, b->image.height,
                   b->src.samples, (scene_view){0, 0, 1});
}

/* A viewer frame at 1:1 as the viewer runs it with whole-image adaptation: the scene pass,
 * the analysis of the image, the apply pass on the scene, and the present of the output into
 * the window (here an RGBA8 texture of its size) by b->present_by (the viewer's: blit). */
static void run_viewer_frame(bench *b)
{
    int w = b->image.width, h = b->image.height;
    ht_source scene = pass_scene_run(b->scene, b->image, b->float32, w, h, b->src.samples,
                                     (scene_view){0, 0, 1});
    if (b->present_by == BENCH_PRESENT_apply)
        pipeline_set_output(b->pipe, bench_present_window(b->present, w, h));
    char err[HT_ERR_MAX];
    for (int pass = 0; pass < HT_PASS_COUNT; pass++)
        keep(b, pipeline_run_pass(b->pipe, pass, pass == HT_PASS_apply ? scene : b->image,
                                  &b->params, err, sizeof err), err);
    pipeline_set_output(b->pipe, 0);
    bench_present_run(b->present, b->present_by, pipeline_output_texture(b->pipe), w, h);
}

/* Whether every way of presenting puts the same pixels into the window as the viewer's blit
 * (first error in b->err). */
static void check_presents(bench *b)
{
    int w = b->image.width, h = b->image.height;
    size_t bytes = (size_t)w * h * 4;
    uint8_t *blit = malloc(bytes), *other = malloc(bytes);
    for (int how = 0; blit && other && how < BENCH_PRESENT_COUNT; how++) {
        b->present_by = how;
        run_viewer_frame(b);
        glBindTexture(GL_TEXTURE_2D, bench_present_window(b->present, w, h));
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, how ? other : blit);
        char err[HT_ERR_MAX];
        snprintf(err, sizeof err, "viewer frame, present by %s: the window differs from the "
                 "blit's", bench_present_names[how]);
        keep(b, how == BENCH_PRESENT_blit || memcmp(blit, other, bytes) == 0, err);
    }
    free(blit);
    free(other);
}

/* The acuity pyramid built afresh (it is built once per image, then kept). */
static void run_pyramid(bench *b)
{
    char err[HT_ERR_MAX];
    ht_human_grids g = pipeline_human_grids(b->pipe);
    unsigned texture;
    int levels;
    pipeline_human_pyramid_stale(b->pipe);
    keep(b, pipeline_human_pyramid(b->pipe, &g, &texture, &levels, err, sizeof err), err);
}

static void run_stats_pass(bench *b)
{
    char err[HT_ERR_MAX];
    keep(b, imgstats_gpu_run_pass(b->stats, b->stats_pass, err, sizeof err), err);
}

static void run_merge_curve(bench *b)
{
    char err[HT_ERR_MAX];
    for (int pass = HT_PASS_merge; pass <= HT_PASS_curve; pass++)
        keep(b, pipeline_run_pass(b->pipe, pass, b->src, &b->params, err, sizeof err), err);
}

/* A frame as the viewer and export run it (pipeline_frame: timed, per pass or as a whole). */
static void run_frame(bench *b)
{
    char err[HT_ERR_MAX];
    keep(b, pipeline_frame(b->pipe, b->src, b->src, &b->params, err, sizeof err), err);
}

static void run_probe_read(bench *b)
{
    char err[HT_ERR_MAX];
    keep(b, gpu_probe_read(b->probe, b->src, b->probe_samples, err, sizeof err), err);
}

static void run_probe_copy(bench *b)
{
    char err[HT_ERR_MAX];
    keep(b, gpu_probe_copy(b->probe, b->src, err, sizeof err), err);
}

/* GPU against the CPU reference, with the tolerances of the tests (compare.h); with the
 * human-vision options, the reference of the GPU's analysis (human_cpu_analyze_exact in the
 * shaders' arithmetic) and its pixels through acuity, veil and colour (tonemap_cpu_apply). */
static bool verify(bench *b, const hdr_image *img, char *why, size_t len)
{
    size_t n = (size_t)img->width * img->height;
    tonemap_result *g = malloc(sizeof *g), *c = malloc(sizeof *c);
    uint8_t *grgb = malloc(n * 3), *crgb = malloc(n * 3);
    bool ok = g && c && grgb && crgb;
    if (ok)
        ok = pipeline_tonemap_image(b->pipe, img, &b->params, g, grgb, why, len);
    else
        snprintf(why, len, "out of memory for the check");
    if (ok && human_requested(&b->params) &&
        !human_cpu_analyze_exact(img, &b->params, false, c, NULL)) {
        snprintf(why, len, "out of memory for the check");
        ok = false;
    } else if (ok && !human_requested(&b->params)) {
        tonemap_cpu_analyze(img, &b->params, c);
    }
    if (ok) {
        tonemap_cpu_apply(img, &b->params, c, crgb);
        compare_report r;
        compare_tonemap(g, grgb, c, crgb, img->width, img->height, &b->params,
                        compare_tol_for(&b->params), &r);
        if (!r.ok) {
            char text[1024];
            snprintf(why, len, "GPU differs from the CPU reference: %s",
                     compare_report_text(&r, text, sizeof text));
            ok = false;
        }
    }
    free(g);
    free(c);
    free(grgb);
    free(crgb);
    return ok;
}

typedef bench_row row;
enum { ROWS_MAX = 96 };   /* rows of a table at most */

/* What the human-vision analysis decided (pipeline_human_report H, NULL: no option asked
 * for), after a table's header: JSON, the object "human" with each option's outcome
 * (human_outcome_name) and the acuity's numbers; text, a line that also says which rows the
 * outcomes leave out. */
static void print_human(FILE *f, bool json, const human_report *h, int samples)
{
    if (!h)
        return;
    bool blur = h->acuity == HUMAN_APPLIED;
    if (json) {
        const char *keys[3] = {"veil", "acuity", "colour"};
        int outcome[3] = {h->veil, h->acuity, h->color};
        for (int i = 0; i < 3; i++) {
            fprintf(f, "%s\"%s\": ", i ? ", " : "\"human\": {", keys[i]);
            commands_json_str(f, human_outcome_name(outcome[i]));
        }
        fprintf(f, ", \"max_sample_radius\": %.4g, \"pyramid_levels\": %d}, ",
                blur ? h->max_sr : 0, blur ? h->root_level : 0);
        return;
    }
    fprintf(f, "human vision: veil %s, acuity %s, colour %s", human_outcome_name(h->veil),
            human_outcome_name(h->acuity), human_outcome_name(h->color));
    if (blur)
        fprintf(f, " (sample radius <= %.3g px, root level %d)", h->max_sr, h->root_level);
    else
        fputs("; acuity does not apply: no acuity pyramid row", f);
    if (samples > 1)
        fputs("; the stage runs on the image, not on a multisampled scene: plain apply", f);
    fputc('\n', f);
}

/* One table per sample count. With JSON, one object for the whole run: the first table opens
 * it ({"device": ..., "results": [), each table is an element, cmd_bench closes it. HUMAN:
 * print_human's. */
static int print_report(FILE *f, bool json, bool first, const char *what, int w, int h,
                        int samples, const row *rows, int nrows, bool wall_clock,
                        const human_report *human)
{
    if (json) {
        if (first) {
            fputs("{\"device\": ", f);
            commands_json_str(f, gl_renderer());
            fputs(", \"gl\": ", f);
            commands_json_str(f, gl_version());
            fputs(", \"image\": ", f);
            commands_json_str(f, what);
            fprintf(f, ", \"width\": %d, \"height\": %d, \"results\": [", w, h);
        }
        fprintf(f, "%s\n {\"samples\": %d, \"timer\": \"%s\", ", first ? "" : ",", samples,
                wall_clock ? "wall clock (glFinish)" : "GL_TIME_ELAPSED");
        print_human(f, json, human, samples);
        fputs("\"passes\": [", f);
        for (int i = 0; i < nrows; i++)
            fprintf(f, "%s\n  {\"name\": \"%s\", \"median_us\": %.2f, \"min_us\": %.2f, "
                    "\"bytes\": %.0f, \"gbps\": %.1f, \"vs\": \"%s\", \"ratio\": %.3f}",
                    i ? "," : "", rows[i].name, rows[i].t.median_ms * 1e3, rows[i].t.min_ms * 1e3,
                    rows[i].bytes, rows[i].bytes / (rows[i].t.median_ms * 1e6),
                    rows[i].vs ? rows[i].vs : "", rows[i].ratio);
        fprintf(f, "]}");
        return 0;
    }
    fprintf(f, "%s, %dx%d, %d sample(s); %s\n", what, w, h, samples,
            wall_clock ? "timer: wall clock with glFinish (GL_TIME_ELAPSED reports 0 here)"
                       : "timer: GL_TIME_ELAPSED");
    print_human(f, json, human, samples);
    fprintf(f, "%-40s %10s %10s %9s %8s  %s\n", "pass", "median us", "min us", "MB", "GB/s",
            "ratio to floor");
    for (int i = 0; i < nrows; i++) {
        fprintf(f, "%-40s %10.1f %10.1f %9.2f %8.1f", rows[i].name, rows[i].t.median_ms * 1e3,
                rows[i].t.min_ms * 1e3, rows[i].bytes / 1e6,
                rows[i].bytes / (rows[i].t.median_ms * 1e6));
        if (rows[i].ratio > 0)
            fprintf(f, "  %.2f x %s", rows[i].ratio, rows[i].vs);
        fputc('\n', f);
    }
    return 0;
}

/* Whether the apply pass runs the human-vision stage on b->src: an option of the frame's
 * analysis applies, and b->src is the image (the stage is not run on a multisampled scene). */
static bool human_stage(const bench *b)
{
    return pipeline_human_grids(b->pipe).stages != 0 && b->src.texture == b->image.texture &&
           b->src.samples == 1;
}

/* The least bytes the acuity pyramid of a W x H image of TEXEL bytes per pixel moves: the
 * image read once, each of its LEVELS levels (RGBA32F) written once and read for the next. */
static double pyramid_bytes(int w, int h, double texel, int levels)
{
    double bytes = (double)w * h * texel;
    for (int k = 1; k <= levels; k++)
        bytes += (double)(w >> k) * (h >> k) * 16 * (k < levels ? 2 : 1);
    return bytes;
}

/* The human-vision rows where the apply pass runs the stage (human_stage): the acuity
 * pyramid built afresh (where acuity applies) against the floor of its bytes at the
 * read+write probe's speed (COPY over COPY_BYTES), and the options' cost in a frame
 * (pipeline_frame with the options less one without them) against the read+write probe.
 * Appends to ROWS from N on; returns the new count. */
static int bench_human(bench *b, int runs, double texel, timing copy, double copy_bytes,
                       row *rows, int n)
{
    if (!human_requested(&b->params) || !human_stage(b))
        return n;
    ht_human_grids g = pipeline_human_grids(b->pipe);
    if (g.stages & HT_HUMAN_ACUITY) {
        timing t = measure(b, run_pyramid, runs);
        unsigned texture;
        int levels;
        char err[HT_ERR_MAX];
        keep(b, pipeline_human_pyramid(b->pipe, &g, &texture, &levels, err, sizeof err), err);
        double bytes = pyramid_bytes(b->image.width, b->image.height, texel, levels);
        rows[n++] = (row){"acuity pyramid (built afresh)", t, bytes, "floor",
                          t.median_ms / (bytes * copy.median_ms / copy_bytes)};
    }
    timing with = measure(b, run_frame, runs);
    tonemap_params params = b->params;
    b->params.veil = b->params.acuity = b->params.color_loss = false;
    timing without = measure(b, run_frame, runs);
    b->params = params;
    run_frame(b);   /* the stage on again for the rows after these */
    timing cost = {with.median_ms - without.median_ms, with.min_ms - without.min_ms};
    rows[n++] = (row){"human: veil+acuity+colour", cost, 0, "read+write",
                      cost.median_ms / copy.median_ms};
    return n;
}

/* Rows of a frame as the viewer and export run it (pipeline_frame) with one timer, with a
 * timer per pass, and with one frame of latency (pipeline_set_latency), against FLOOR_MS (the
 * BYTES a frame of an image seen before moves, NEW_BYTES a new one's, as bench_source's).
 * Appends to ROWS from N on; returns the new count. */
static int bench_variants(bench *b, int runs, double floor_ms, double bytes, double new_bytes,
                          row *rows, int n)
{
    for (int per_pass = 0; per_pass < 2; per_pass++) {
        pipeline_set_pass_timing(b->pipe, per_pass);
        timing t = measure(b, run_frame, runs);
        rows[n++] = (row){per_pass ? "frame, a timer per pass" : "frame, one timer", t, bytes,
                          "floor", t.median_ms / floor_ms};
    }
    pipeline_set_pass_timing(b->pipe, false);
    /* Against "frame, one timer": the image read once a frame, not twice (one texture of one
     * sample with pixel sampling; else as that row). */
    pipeline_set_latency(b->pipe, 1);
    timing t = measure(b, run_frame, runs);
    double once = b->src.samples == 1 ? 2 * bytes - new_bytes : bytes;   /* the image read once */
    rows[n++] = (row){"pipeline, one-frame latency", t, once, "floor", t.median_ms / floor_ms};
    pipeline_set_latency(b->pipe, 0);
    return n;
}

/* The apply pass in the OCIO view (docs/colour.md) of the bundled config ($OCIO's when set):
 * its default display and view (sRGB, ACES SDR video: arithmetic only), and its PQ display's
 * default view (ACES HDR video, whose PQ curve is a LUT texture), each against APPLY, the
 * apply pass of the tone mapping (BYTES read and written). Appends to ROWS from N on. */
static int bench_ocio(bench *b, int runs, timing apply, double bytes, row *rows, int n)
{
    static const struct {
        const char *name, *display;
    } views[] = {{"apply, OCIO view (default)", NULL},
                 {"apply, OCIO view (PQ display)", "Rec.2100-PQ - Display"}};
    display_params d;
    display_params_default(&d);
    d.mode = HT_VIEW_OCIO;
    tonemap_params tm = b->params;
    char err[HT_ERR_MAX] = "";
    if (!ocio_view_input(&d, &b->colour, tm.white, &d.ocio_input, &b->params.colour, err,
                         sizeof err))
        fprintf(stderr, "hdrtone bench: OCIO view: %s (not timed)\n", err);
    b->params.gamut = HT_GAMUT_CLIP;
    b->pass = HT_PASS_apply;
    for (size_t i = 0; i < sizeof views / sizeof views[0] && !err[0]; i++) {
        d.ocio_display = views[i].display;
        pipeline_set_display(b->pipe, &d);
        if (!pipeline_run_pass(b->pipe, HT_PASS_apply, b->src, &b->params, err, sizeof err)) {
            fprintf(stderr, "hdrtone bench: %s: %s (not timed)\n", views[i].name, err);
            break;
        }
        timing t = measure(b, run_pass, runs);
        rows[n++] = (row){views[i].name, t, bytes, "apply", t.median_ms / apply.median_ms};
    }
    pipeline_set_display(b->pipe, NULL);
    b->params = tm;
    return n;
}

/* Times every pass and the probes on b->src, filling ROWS; returns the count. */
static int bench_source(bench *b, int runs, bool half, row *rows)
{
    double px = (double)b->src.width * b->src.height;
    double texel = half ? 8 : 16;
    double img_all = px * texel * b->src.samples, img_one = px * texel, out = px * 4;
    int n = 0;
    /* The range and histogram passes read sample 0 only: their probe does the same. */
    b->probe_samples = 1;
    timing read = measure(b, run_probe_read, runs);
    b->probe_samples = b->src.samples;
    timing copy = measure(b, run_probe_copy, runs);
    rows[n++] = (row){b->src.samples > 1 ? "probe: read sample 0" : "probe: read", read, img_one,
                      NULL, 0};
    if (b->src.samples > 1)
        rows[n++] = (row){"probe: read all samples", measure(b, run_probe_read, runs), img_all,
                          NULL, 0};
    rows[n++] = (row){"probe: read+write", copy, img_all + out, NULL, 0};
    run_frame(b);   /* the human-vision stage as this source's analysis leaves it */
    run_pipeline(b);
    timing in_place[HT_PASS_COUNT], mc;
    bool have_in_place = measure_passes(b, runs, in_place, &mc);
    for (int pass = 0; pass < HT_PASS_COUNT; pass++) {
        if (!pipeline_pass_used(pass, &b->params))
            continue;
        b->pass = pass;
        timing t = have_in_place ? in_place[pass] : measure(b, run_pass, runs);
        /* The one read of the whole image: the foveal pass's with foveal sampling (the
         * histogram then reads the small foveal image), else the histogram's. */
        bool image_pass = pass == (pipeline_pass_used(HT_PASS_foveal, &b->params)
                                       ? HT_PASS_foveal : HT_PASS_histogram);
        bool apply = pass == HT_PASS_apply;
        rows[n++] = (row){apply && human_stage(b) ? "apply (+human stage)"
                                                  : pipeline_pass_names[pass], t,
                          image_pass ? img_one : apply ? img_all + out : 0,
                          image_pass ? "read" : apply ? "read+write" : NULL,
                          image_pass ? t.median_ms / read.median_ms
                                     : apply ? t.median_ms / copy.median_ms : 0};
    }
    if (pipeline_pass_used(HT_PASS_apply, &b->params)) {
        b->pass = HT_PASS_apply;
        timing apply = have_in_place ? in_place[HT_PASS_apply] : measure(b, run_pass, runs);
        n = bench_ocio(b, runs, apply, img_all + out, rows, n);
    }
    n = bench_human(b, runs, texel, copy, img_all + out, rows, n);
    timing scene = measure(b, run_scene, runs);
    rows[n++] = (row){"scene (viewer, 1:1)", scene, img_one + img_all, NULL, 0};
    if (!have_in_place)
        mc = measure(b, run_merge_curve, runs);
    rows[n++] = (row){"merge+curve", mc, 0, NULL, 0};
    timing all = measure(b, run_pipeline, runs);
    /* The floor: the analysis must read the image once, the apply read it and write RGBA8.
     * "pipeline" is a frame of an image seen before (the viewer's case: the binning range is
     * still right, one read); "new image" re-bins, so it reads the image twice. */
    double floor_ms = read.median_ms + copy.median_ms;
    rows[n++] = (row){"pipeline", all, img_one + img_all + out, "floor", all.median_ms / floor_ms};
    timing cold = measure(b, run_pipeline_cold, runs);
    rows[n++] = (row){"pipeline, new image", cold, 2 * img_one + img_all + out, "floor",
                      cold.median_ms / floor_ms};
    if (b->scene && b->present) {
        /* Its floor: the pipeline's, and the present (RGBA8 read and written) at the
         * read+write probe's speed; none where the apply pass writes the window. */
        static char names[BENCH_PRESENT_COUNT][48];
        check_presents(b);
        for (int how = 0; how < BENCH_PRESENT_COUNT; how++) {
            bool present = how != BENCH_PRESENT_apply;
            double bytes = img_one + img_all + out + (present ? 2 * out : 0);
            double present_ms = present ? 2 * out * copy.median_ms / (img_all + out) : 0;
            snprintf(names[how], sizeof names[how], "viewer frame, present by %s",
                     bench_present_names[how]);
            b->present_by = how;
            timing vf = measure(b, run_viewer_frame, runs);
            rows[n++] = (row){how == BENCH_PRESENT_blit ? "viewer frame" : names[how], vf, bytes,
                              "floor", vf.median_ms / (floor_ms + present_ms)};
        }
    }
    n = bench_variants(b, runs, floor_ms, img_one + img_all + out, 2 * img_one + img_all + out,
                       rows, n);
    if (b->src.samples == 1 && b->stats) {   /* statistics read the image and the output */
        char err[HT_ERR_MAX];
        if (!imgstats_gpu_prepare(b->stats, b->image,
                                  (ht_source){pipeline_output_texture(b->pipe), b->src.width,
                                              b->src.height, 1}, err, sizeof err)) {
            fprintf(stderr, "hdrtone bench: statistics: %s\n", err);
            return n;
        }
        for (int i = 0; i < IMGSTATS_PASS_COUNT; i++) {
            b->stats_pass = i;
            timing t = measure(b, run_stats_pass, runs);
            bool extrema = i == IMGSTATS_PASS_extrema || i == IMGSTATS_PASS_peaks;
            static char names[IMGSTATS_PASS_COUNT][48];
            char *name = names[i];
            snprintf(name, sizeof names[i], "stats: %s", imgstats_pass_names[i]);
            rows[n++] = (row){name, t, extrema ? img_one : i == IMGSTATS_PASS_hist_clear ? 0 : out,
                              extrema ? "read" : NULL, extrema ? t.median_ms / read.median_ms : 0};
        }
    }
    if (b->src.samples == b->gui_samples) {   /* last: the viewer leaves GL state behind */
        bench_gui_floor fl = {read.median_ms, img_one, copy.median_ms, img_all + out, texel};
        n = bench_gui_rows(b->o, b->file, b->image.width, b->image.height, &fl, b->wall_clock,
                           rows, n, ROWS_MAX);
    }
    return n;
}

/* bench --decode, which needs no backend. */
static int run_decode(cmd_backend *be, const ht_options *o, char **files, int n)
{
    (void)be;
    return bench_decode(o, files, n);
}

/* The modes that time files: the option that asks for one, whether it runs on the GPU
 * whatever --backend says (the viewer's: --playback, --open) or needs no backend at all. */
typedef enum { MODE_BACKEND, MODE_GPU, MODE_NONE } mode_backend;
static const struct file_mode {
    size_t flag;   /* offset of its bool in ht_options */
    mode_backend backend;
    int (*run)(cmd_backend *be, const ht_options *o, char **files, int n);
} file_modes[] = {
    {offsetof(ht_options, bench_decode), MODE_NONE, run_decode},
    {offsetof(ht_options, bench_playback), MODE_GPU, bench_playback},
    {offsetof(ht_options, bench_open), MODE_GPU, bench_open},
    {offsetof(ht_options, bench_export), MODE_BACKEND, bench_export},
};

/* Runs M on FILES with O's backend (the GPU for MODE_GPU; none for MODE_NONE). */
static int bench_files(ht_options *o, const struct file_mode *m, char **files, int n)
{
    char err[HT_ERR_MAX];
    if (m->backend == MODE_NONE)
        return m->run(NULL, o, files, n);
    if (m->backend == MODE_GPU)
        o->backend = HT_BACKEND_GPU;
    cmd_backend *be = backend_create(o, err, sizeof err);
    if (!be) {
        fprintf(stderr, "hdrtone bench: %s\n", err);
        return 1;
    }
    int status = m->run(be, o, files, n);
    backend_destroy(&be);
    return status;
}

/* The image of the passes' bench: FILES[0] (N 1) or --synthetic WxH (N 0) into *IMG, and what
 * to call it. False, the reason on stderr (a usage error: *USAGE). */
static bool bench_image(const ht_options *o, char **files, int n, hdr_image *img, char *what,
                        size_t wl, bool *usage)
{
    char err[HT_ERR_MAX];
    int w = 3840, h = 2160;
    *usage = n > 1 || (n == 1 && o->synthetic) ||
             (o->synthetic && (sscanf(o->synthetic, "%dx%d", &w, &h) != 2 || w < 1 || h < 1 ||
                               (double)w * h > 1e9));
    if (*usage)
        return false;
    snprintf(what, wl, "%s", n == 1 ? files[0] : "synthetic");
    image_load_options lo = options_load(o);
    if (n == 1 && !image_load(files[0], &lo, img, err, sizeof err)) {
        fprintf(stderr, "hdrtone bench: %s\n", err);
        return false;
    }
    if (n == 0 && !synthetic_image(img, w, h, 1)) {
        fprintf(stderr, "hdrtone bench: out of memory for a %dx%d image\n", w, h);
        return false;
    }
    return true;
}

static void frame_call(void *arg)
{
    run_frame(arg);
}

/* bench --dispatches: the frame's pieces of GPU work, and with a human-vision option the
 * frame without them too. */
static void bench_frame_dispatches(bench *b, int runs)
{
    bench_dispatches(stdout, "frame", frame_call, b, runs);
    if (!human_requested(&b->params))
        return;
    tonemap_params params = b->params;
    b->params.veil = b->params.acuity = b->params.color_loss = false;
    bench_dispatches(stdout, "frame without the human-vision options", frame_call, b, runs);
    b->params = params;
}

/* The passes timed on B (made and checked) with IMG, reported as WHAT: once, then on the
 * viewer's multisampled scene target when it has one; the FLIP rows after them. */
static void bench_report(bench *b, const ht_options *o, const hdr_image *img, const char *what)
{
    b->src = b->image = pipeline_image_source(b->pipe);
    b->float32 = !img->half_exact;
    char err[HT_ERR_MAX];
    if (!(b->scene = pass_scene_create(err, sizeof err)) ||
        !(b->present = bench_present_create(err, sizeof err)) ||
        !(b->stats = imgstats_gpu_create(err, sizeof err)))
        fprintf(stderr, "hdrtone bench: %s (not timed)\n", err);
    /* A GPU straight out of idle runs slower for a while (seen on an H100: the first second
     * at 40 % of the read bandwidth): keep it busy for 1.5 s before measuring. */
    for (double t0 = gpu_timer_clock_ms(); gpu_timer_clock_ms() - t0 < 1500;) {
        run_pipeline(b);
        glFinish();
    }
    if (o->bench_dispatches) {
        bench_frame_dispatches(b, o->runs);
        return;
    }
    int samples = b->scene ? pass_scene_samples(b->scene, o->msaa, b->float32) : 1;
    b->o = o;
    b->gui_samples = b->scene ? samples : 0;
    row rows[ROWS_MAX];
    int n = bench_source(b, o->runs, img->half_exact, rows);
    print_report(stdout, o->json, true, what, img->width, img->height, 1, rows, n,
                 b->wall_clock, pipeline_human_report(b->pipe));
    if (samples > 1) {   /* the viewer's case: its scene target, multisampled */
        b->src = pass_scene_run(b->scene, b->image, b->float32, img->width, img->height,
                                samples, (scene_view){0, 0, 1});
        n = bench_source(b, o->runs, img->half_exact, rows);
        print_report(stdout, o->json, false, what, img->width, img->height, samples, rows, n,
                     b->wall_clock, pipeline_human_report(b->pipe));
    }
    fputs(o->json ? "\n]" : "\n", stdout);
    bench_flip(stdout, o->json, img->width, img->height, o->runs, &b->wall_clock);
    if (o->json)
        fputs("}\n", stdout);
    if (b->err[0])   /* the rows of a failed pass mean nothing, but bench reports them */
        fprintf(stderr, "hdrtone bench: GPU pipeline: %s\n", b->err);
}

/* The GPU passes' bench on IMG (bench with one FILE, or --synthetic: FILE NULL). */
static int bench_passes(const ht_options *o, hdr_image *img, const char *what, const char *file)
{
    char err[HT_ERR_MAX];
    int status = 1;
    gl_context *ctx = gl_context_create_headless(err, sizeof err);
    bench b = {.file = file};
    if (o->colour.source == IMAGE_COLOUR_OPTION)   /* --colorspace on the synthetic image too */
        img->colour = o->colour;
    b.colour = img->colour;
    if (!options_tonemap(o, img, &b.params, err, sizeof err)) {
        fprintf(stderr, "hdrtone bench: %s: %s\n", what, err);
    } else if (!ctx) {
        fprintf(stderr, "hdrtone bench: no GPU: %s\n", err);
    } else if (!(b.pipe = pipeline_create(err, sizeof err)) ||
               !(b.probe = gpu_probe_create(err, sizeof err))) {
        fprintf(stderr, "hdrtone bench: %s\n", err);
    } else if (!verify(&b, img, err, sizeof err)) {
        fprintf(stderr, "hdrtone bench: %s: %s\n", what, err);
    } else {
        bench_report(&b, o, img, what);
        status = 0;
    }
    pass_scene_destroy(&b.scene);
    bench_present_destroy(&b.present);
    imgstats_gpu_destroy(&b.stats);
    gpu_probe_destroy(&b.probe);
    pipeline_destroy(&b.pipe);
    gl_context_destroy(&ctx);
    return status;
}

int cmd_bench(int argc, char **argv)
{
    ht_options o;
    char **pos;
    int npos, early = commands_start(argc, argv, HT_CMD_BENCH, "bench", &o, &pos, &npos);
    if (early >= 0)
        return early;
    for (size_t i = 0; i < sizeof file_modes / sizeof *file_modes; i++)
        if (*(const bool *)((const char *)&o + file_modes[i].flag)) {
            int status = bench_files(&o, &file_modes[i], pos, npos);
            free(pos);
            return status;
        }
    if (o.bench_dispatches && o.json) {
        free(pos);
        return commands_usage_error("bench", "--dispatches writes a text table, not --json");
    }
    hdr_image img = {0};
    char what[256];
    bool usage;
    bool ok = bench_image(&o, pos, npos, &img, what, sizeof what, &usage);
    const char *file = npos == 1 ? pos[0] : NULL;   /* argv's */
    free(pos);
    if (usage)
        return commands_usage_error("bench", "give one FILE or --synthetic WxH (e.g. 3840x2160)");
    int status = ok ? bench_passes(&o, &img, what, file) : 1;
    image_free(&img);
    return status;
}
