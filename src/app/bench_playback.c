/* bench --playback: decode-ahead, upload and pipeline as the viewer plays a sequence. */
#include "bench_playback.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "adapt.h"
#include "bench_decode.h"
#include "commands.h"
#include "gl_context.h"
#include "gpu_timer.h"
#include "human.h"
#include "pipeline.h"
#include "seq_decoder.h"

/* The viewer's decoders (viewer_seq.c plays with as many). */

/* Stages timed per frame. */
enum { ST_WAIT, ST_UPLOAD, ST_PIPELINE, ST_COUNT };
static const char *const STAGE_NAMES[ST_COUNT] = {"decode wait", "upload", "pipeline"};

typedef struct playback {
    const ht_options *o;
    pipeline *pipe;
    adapt_params ap;
    adapt_state st;
    adapt_frame af;
    tonemap_result r;
    int frames, failed;
    double wall_ms, ms[ST_COUNT];
} playback;

/* Frame FRAME, uploaded: analysis, the adaptation's step, apply (as viewer_seq.c and the
 * viewer's renderer_render do, on the image instead of the window's scene). */
static bool tonemap_frame(playback *b, int frame, char *err, size_t errlen)
{
    const tonemap_params *tm = &b->o->tm;
    if (b->ap.mode == HT_ADAPT_NONE) {
        ht_source src = pipeline_image_source(b->pipe);
        return pipeline_frame(b->pipe, src, src, tm, err, errlen);
    }
    if (!pipeline_analyze_uploaded(b->pipe, tm, &b->r, err, errlen))
        return false;
    adapt_frame_of(&b->r, frame, &b->af);
    adapt_update(&b->ap, &b->st, &b->af);
    if (b->af.valid)
        adapt_result(&b->st, tm, &b->r);
    return pipeline_apply_result(b->pipe, tm, &b->r, NULL, 8, err, errlen);
}

/* Every frame of the decoder's, in order. False after a GPU failure (reported). */
static bool play(playback *b, seq_decoder *d, int first, int count)
{
    char err[HT_ERR_MAX];
    double start = gpu_timer_clock_ms();
    for (int i = 0; i < count; i++) {
        hdr_image img = {0};
        double t0 = gpu_timer_clock_ms();
        int got = seq_decoder_take(d, i, true, &img, err, sizeof err);
        double t1 = gpu_timer_clock_ms();
        b->ms[ST_WAIT] += t1 - t0;
        if (got != SEQ_TAKE_OK) {
            fprintf(stderr, "hdrtone bench: frame %d: %s\n", first + i, err);
            b->failed++;
            continue;
        }
        bool ok = pipeline_upload(b->pipe, &img, err, sizeof err);
        glFinish();
        double t2 = gpu_timer_clock_ms();
        ok = ok && tonemap_frame(b, first + i, err, sizeof err);
        glFinish();
        double t3 = gpu_timer_clock_ms();
        image_free(&img);
        if (!ok) {
            fprintf(stderr, "hdrtone bench: frame %d: %s\n", first + i, err);
            return false;
        }
        b->ms[ST_UPLOAD] += t2 - t1;
        b->ms[ST_PIPELINE] += t3 - t2;
        b->frames++;
    }
    b->wall_ms = gpu_timer_clock_ms() - start;
    return true;
}

/* Prints the frame rate, each stage's time per frame, and the rates that the GL thread's
 * stages (upload + pipeline) and the decoders at OpenEXR's floor (FLOOR_MS a frame a
 * decoder, -1: none) allow. */
static void print_playback(FILE *f, const playback *b, const char *seq, double floor_ms)
{
    static const char *const modes[] = {"none", "exp", "human"};
    double fps = b->wall_ms > 0 ? b->frames * 1e3 / b->wall_ms : 0;
    int frames = b->frames > 0 ? b->frames : 1;
    double gl_ms = (b->ms[ST_UPLOAD] + b->ms[ST_PIPELINE]) / frames;
    double gl_fps = gl_ms > 0 ? 1e3 / gl_ms : 0;
    double floor_fps = floor_ms > 0 ? seq_decoder_workers() * 1e3 / floor_ms : 0;
    unsigned long direct = pipeline_direct_uploads(b->pipe);
    if (b->o->json) {
        fputs("{\"device\": ", f);
        commands_json_str(f, gl_renderer());
        fputs(", \"sequence\": ", f);
        commands_json_str(f, seq);
        fprintf(f, ", \"adapt\": \"%s\", \"frames\": %d, \"failed\": %d, \"wall_s\": %.4f, "
                   "\"fps\": %.3f, \"gl_thread_allows_fps\": %.3f, \"decode_floor_ms\": %.3f, "
                   "\"decode_floor_allows_fps\": %.3f, \"direct_uploads\": %lu, \"stages\": [",
                modes[b->ap.mode], b->frames, b->failed, b->wall_ms * 1e-3, fps, gl_fps,
                floor_ms, floor_fps, direct);
        for (int i = 0; i < ST_COUNT; i++)
            fprintf(f, "%s{\"name\": \"%s\", \"ms_per_frame\": %.2f}", i ? ", " : "",
                    STAGE_NAMES[i], b->ms[i] / frames);
        fputs("]}\n", f);
        return;
    }
    fprintf(f, "playback of %s (adapt %s, %d decoders) on %s: %d frame(s) in %.3f s, "
               "%.2f frames/s", seq, modes[b->ap.mode], seq_decoder_workers(), gl_renderer(),
            b->frames, b->wall_ms * 1e-3, fps);
    if (b->failed)
        fprintf(f, ", %d failed", b->failed);
    fprintf(f, "\n%-12s %14s\n", "stage", "ms per frame");
    for (int i = 0; i < ST_COUNT; i++)
        fprintf(f, "%-12s %14.1f\n", STAGE_NAMES[i], b->ms[i] / frames);
    fprintf(f, "the GL thread (upload + pipeline) allows %.1f frames/s", gl_fps);
    if (floor_ms > 0)
        fprintf(f, "; %d decoders at OpenEXR's floor (%.1f ms a frame) %.1f",
                seq_decoder_workers(), floor_ms, floor_fps);
    fprintf(f, "; %lu of %d uploads copied nothing\n", direct, b->frames);
}

int bench_playback(cmd_backend *be, const ht_options *o, char **files, int n)
{
    char err[HT_ERR_MAX];
    seq_frames f = {0};
    if (n != 1)
        return commands_usage_error("bench", "--playback needs one sequence (shot.%04d.exr)");
    playback *b = calloc(1, sizeof *b);
    if (!b) {
        fprintf(stderr, "hdrtone bench: out of memory\n");
        return 1;
    }
    b->o = o;
    b->ap.mode = human_requested(&o->tm) ? HT_ADAPT_NONE : HT_ADAPT_HUMAN;
    b->ap.fps = o->fps;
    b->ap.cut_stops = o->cut_threshold;
    adapt_init(&b->st);
    int status = 0;
    if ((o->adapt && !adapt_parse(o->adapt, &b->ap, err, sizeof err)) ||
        !seq_frames_open(files[0], o->frame_range, &f, NULL, err, sizeof err)) {
        status = commands_usage_error("bench", err);
    } else if (!(b->pipe = backend_pipeline(be, err, sizeof err))) {
        fprintf(stderr, "hdrtone bench: %s\n", err);
        status = 1;
    } else {
        /* Frames as half floats alone, decoded into the upload buffers (as the viewer plays
         * them: viewer_seq.c). */
        image_load_options lo = options_load(o);
        int count = f.last - f.first + 1;
        lo.half_only = true;
        seq_decoder *d = seq_decoder_start(b->pipe, &f.pat, f.first, count, &lo,
                                           seq_decoder_workers(), err, sizeof err);
        if (!d) {
            fprintf(stderr, "hdrtone bench: %s\n", err);
            status = 1;
        } else {
            status = play(b, d, f.first, count) && b->failed == 0 ? 0 : 1;
            seq_decoder_stop(&d);
            char first[4096];
            double floor_ms = seq_format(&f.pat, f.first, first, sizeof first)
                                  ? bench_decode_floor_ms(first) : -1;
            print_playback(stdout, b, files[0], floor_ms);
        }
    }
    seq_frames_free(&f);
    free(b);
    return status;
}
