/* The viewer plays an image sequence (hdrtone SEQ): frames decoded ahead on worker threads
 * into a small cache, shown on a clock of --fps that never waits for them (a frame not
 * decoded when its time comes is dropped), with the temporal adaptation of adapt.h.
 *
 * The path is bench --playback's: an EXR frame of half channels is decoded as half floats
 * alone, straight into the pipeline's upload ring (upload_ring.h), so that its upload copies
 * nothing; the shown image then has no floats (img.rgba NULL), and what reads its pixels on
 * the CPU (the inspector, pins, statistics, the y range, export) reads the half floats. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt.h"
#include "human.h"
#include "seq_decoder.h"
#include "viewer_internal.h"

enum { SEQ_RATE_WINDOW = 32 };

struct viewer_seq {
    seq_pattern pat;
    char title[300];         /* the window's: the pattern's file name */
    int first, count;        /* the frames first .. first + count - 1, missing ones included */
    image_load_options lo;   /* the command line's part, layer and pixel limit */
    seq_decoder *dec;

    /* Playback. */
    double fps;
    bool playing;
    double t0;               /* platform_time() when index i0 was due */
    int i0;
    int shown, good;         /* the index shown last (-1: none), the last that loaded */
    long dropped;
    long uploads;            /* frames uploaded */
    double times[SEQ_RATE_WINDOW];   /* when the last frames were shown, for the rate */
    int ntimes;

    /* Adaptation: the state after the frames shown in order, the shown frame's result. */
    adapt_params ap;
    adapt_state st;
    adapt_frame af;
    tonemap_result r;
    tonemap_params r_tm;     /* what r was computed with */
    bool have_r;

    bool *reported;          /* count entries: a frame that failed was said on stderr once
                                (playing loops; the window says it each time) */
};

/* ---------------------------------------------------------------------------------------
 * Showing a frame */

/* The adaptation of the uploaded frame: the state moves to it when IN_ORDER (the frame after
 * the last one shown, in time), else starts afresh from its still analysis. */
static void adapt_shown(viewer *v, int frame, bool in_order)
{
    viewer_seq *s = v->seq;
    char err[HT_ERR_MAX];
    s->have_r = false;
    if (s->ap.mode == HT_ADAPT_NONE)
        return;
    if (!pipeline_analyze_uploaded(v->rnd.pipe, &v->s.tm, &s->r, err, sizeof err)) {
        viewer_set_message(v, true, "GPU pipeline: %s", err);
        return;
    }
    adapt_frame_of(&s->r, frame, &s->af);
    if (!in_order)
        adapt_init(&s->st);
    adapt_update(&s->ap, &s->st, &s->af);
    if (s->af.valid)
        adapt_result(&s->st, &v->s.tm, &s->r);
    s->r_tm = v->s.tm;
    s->have_r = true;
}

/* Shows frame index I as taken (GOT: SEQ_TAKE_OK, its image in *IMG, or SEQ_TAKE_FAILED,
 * the reason in ERR): its picture, or its error with the last good picture held. */
static void show_taken(viewer *v, int i, int got, hdr_image *img, const char *err)
{
    viewer_seq *s = v->seq;
    char path[4096], uerr[HT_ERR_MAX];
    bool ok = got == SEQ_TAKE_OK;
    if (s->shown >= 0 && s->playing)   /* the frames passed over, looping included */
        s->dropped += ((i - s->shown - 1) % s->count + s->count) % s->count;
    bool in_order = s->good >= 0 && i > s->good && (s->playing || i == s->shown + 1);
    s->shown = i;
    memmove(s->times, s->times + 1, sizeof s->times - sizeof s->times[0]);
    s->times[SEQ_RATE_WINDOW - 1] = platform_time();
    s->ntimes += s->ntimes < SEQ_RATE_WINDOW;
    v->dirty = true;
    int frame = s->first + i;
    if (!ok) {
        if (s->reported && s->reported[i]) {   /* said already: on screen only */
            snprintf(v->message, sizeof v->message, "frame %d: %.400s (holding the last good "
                     "frame)", frame, err);
            v->message_error = true;
        } else {
            viewer_set_message(v, true, "frame %d: %s (holding the last good frame)", frame, err);
        }
        if (s->reported)
            s->reported[i] = true;
        return;
    }
    bool first = !v->doc.have_image;
    bool same =
        !first && memcmp(img->data_window, v->doc.img.data_window, sizeof img->data_window) == 0;
    /* Uploaded now: the adaptation below analyses the frame in the pipeline. */
    bool shown = viewer_show_image(v, img, uerr, sizeof uerr);
    if (shown && !renderer_upload(&v->rnd, &v->doc, uerr, sizeof uerr)) {
        viewer_image_drop(v);
        shown = false;
    }
    if (!shown) {
        viewer_set_message(v, true, "frame %d: %s", frame, uerr);
        image_free(img);
        return;
    }
    s->uploads++;
    if (v->message_error && strncmp(v->message, "frame ", 6) == 0)
        v->message[0] = '\0';   /* a failed frame's message goes with the next good one */
    if (!same)
        v->view_fresh = true;
    if (seq_format(&s->pat, frame, path, sizeof path)) {
        char *copy = strdup(path);
        if (copy) {
            free(v->doc.list.files[0]);
            v->doc.list.files[0] = copy;
        }
    }
    adapt_shown(v, frame, in_order);
    s->good = i;
}

/* Shows frame index I, BLOCK waiting for it (else a frame not decoded yet is left for the
 * next poll). */
static void show(viewer *v, int i, bool block)
{
    hdr_image img = {0};
    char err[HT_ERR_MAX];
    int got = seq_decoder_take(v->seq->dec, i, block, &img, err, sizeof err);
    if (got != SEQ_TAKE_NOT_YET)
        show_taken(v, i, got, &img, err);
}

/* ---------------------------------------------------------------------------------------
 * The viewer's side */

bool viewer_seq_open(viewer *v, const ht_options *o, const char *pattern)
{
    char err[HT_ERR_MAX], path[4096];
    viewer_seq *s = calloc(1, sizeof *s);
    seq_frames f;
    bool ok = s && seq_frames_open(pattern, o->frame_range, &f, NULL, err, sizeof err);
    if (!s)
        snprintf(err, sizeof err, "out of memory");
    if (ok) {
        s->pat = f.pat;
        s->first = f.first;
        s->count = f.last - f.first + 1;
        s->reported = calloc((size_t)s->count, sizeof *s->reported);
        seq_frames_free(&f);
        s->fps = o->fps;
        ok = options_adapt(o, &s->ap, err, sizeof err);
    }
    if (ok && !(seq_format(&s->pat, s->first, path, sizeof path) &&
                file_list_add(&v->doc.list, path) >= 0))
        ok = !snprintf(err, sizeof err, "out of memory");
    if (!ok) {
        fprintf(stderr, "hdrtone: %s\n", err);
        if (s)
            free(s->reported);
        free(s);
        return false;
    }
    snprintf(s->title, sizeof s->title, "hdrtone - %s", viewer_base_name(pattern));
    s->lo = options_load(o);
    s->shown = s->good = -1;
    s->playing = true;
    v->seq = s;
    return true;
}

void viewer_seq_start(viewer *v)
{
    viewer_seq *s = v->seq;
    char err[HT_ERR_MAX];
    platform_title(v, s->title);   /* once: the frame number is in the status */
    int workers = seq_decoder_workers();
    s->lo.half_only = true;
    if (!(s->dec = seq_decoder_start(v->rnd.pipe, &s->pat, s->first, s->count, &s->lo,
                                     workers, err, sizeof err))) {
        viewer_set_message(v, true, "%s", err);
        return;
    }
    show(v, 0, true);
    s->i0 = 0;
    s->t0 = platform_time();
}

void viewer_seq_stop(viewer *v)
{
    if (!v->seq)
        return;
    seq_decoder_stop(&v->seq->dec);
    if (v->testing && v->rnd.pipe)   /* the hooks' line: the tests see the ring's share */
        printf("playback: %ld uploads, %lu from the upload ring\n", v->seq->uploads,
               pipeline_direct_uploads(v->rnd.pipe));
    if (v->doc.img.half_alloc)   /* its buffer is the ring's: the pipeline's, going next */
        viewer_image_drop(v);
    free(v->seq->reported);
    free(v->seq);
    v->seq = NULL;
}

bool viewer_seq_playing(const viewer *v) { return v->seq && v->seq->playing && v->seq->dec; }

void viewer_seq_poll(viewer *v)
{
    viewer_seq *s = v->seq;
    if (!viewer_seq_playing(v))
        return;
    /* The test hooks draw one frame of the sequence per window frame, waiting for it, so
     * that a screenshot after N frames is always the same picture. */
    int due = v->testing ? (s->shown + (v->frames > 0)) % s->count
                         : (int)((s->i0 + (long long)floor((platform_time() - s->t0) * s->fps)) %
                                 s->count);
    if (due == s->shown)
        return;
    if (v->testing) {
        show(v, due, true);
        return;
    }
    /* The latest frame decoded of those due since the last one shown. */
    hdr_image img = {0};
    char err[HT_ERR_MAX];
    int i, got = seq_decoder_take_due(s->dec, (s->shown + 1) % s->count, due, &img, &i, err,
                                      sizeof err);
    if (got != SEQ_TAKE_NOT_YET)
        show_taken(v, i, got, &img, err);
}

void viewer_seq_key(viewer *v, int arg)
{
    viewer_seq *s = v->seq;
    if (!s || !s->dec) {
        viewer_set_message(v, false, "not a sequence (hdrtone shot.%%04d.exr plays one)");
        return;
    }
    if (arg == 0) {
        s->playing = !s->playing;
        s->i0 = s->shown < 0 ? 0 : s->shown;
        s->t0 = platform_time();
        s->ntimes = 0;
        return;
    }
    int i = arg == -2 ? 0 : arg == 2 ? s->count - 1 : (s->shown + arg + s->count) % s->count;
    bool was = s->playing;
    s->playing = false;   /* a step shows the frame itself, in order only forward */
    show(v, i, true);
    s->playing = was;
    s->i0 = i;
    s->t0 = platform_time();
}

const tonemap_result *viewer_seq_adapted(viewer *v)
{
    viewer_seq *s = v->seq;
    if (!s || !s->have_r || v->s.adapt_view || !v->doc.have_image || human_requested(&v->s.tm))
        return NULL;
    if (!tonemap_params_equal(&s->r_tm, &v->s.tm))
        adapt_shown(v, s->first + s->good, false);   /* other settings: start afresh */
    return s->have_r ? &s->r : NULL;
}

void viewer_seq_status(const viewer *v, char *buf, size_t len)
{
    const viewer_seq *s = v->seq;
    buf[0] = '\0';
    if (!s)
        return;
    double rate = 0;
    const double *t = s->times + SEQ_RATE_WINDOW - s->ntimes;
    if (s->ntimes > 1 && t[s->ntimes - 1] > t[0])
        rate = (s->ntimes - 1) / (t[s->ntimes - 1] - t[0]);
    int n = snprintf(buf, len, "frame %d [%d/%d]  %s", s->first + s->shown, s->shown + 1,
                     s->count, s->playing ? "playing" : "paused");
    if (s->playing && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - n, " %.1f fps (of %g, %ld dropped)", rate, s->fps,
                      s->dropped);
    static const char *const names[] = {"none", "exp", "human"};
    bool off = human_requested(&v->s.tm);   /* viewer_seq_adapted: no adaptation with them */
    if (n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - n, "  adapt %s", off ? "off (human vision)"
                                                          : names[s->ap.mode]);
    if (off)
        return;
    if (n >= 0 && (size_t)n < len && s->have_r && s->st.valid)
        snprintf(buf + n, len - n, ": Lavg %.4g cd/m^2%s", exp(s->st.ln_avg),
                 s->st.exact ? " (settled)" : "");
}
