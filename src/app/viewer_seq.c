/* The viewer plays an image sequence (hdrtone SEQ): frames decoded ahead on worker threads
 * into a small cache, shown on a clock of --fps that never waits for them (a frame not
 * decoded when its time comes is dropped), with the temporal adaptation of adapt.h. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt.h"
#include "human.h"
#include "sequence.h"
#include "viewer_internal.h"

/* Decoders, and the frames the cache holds: the one due and the next ones. */
enum { SEQ_WORKERS = 2, SEQ_SLOTS = 4, SEQ_RATE_WINDOW = 32 };
enum { SLOT_EMPTY, SLOT_LOADING, SLOT_READY, SLOT_FAILED };

typedef struct seq_slot {
    int index;          /* frame - first */
    int state;          /* SLOT_* */
    hdr_image img;      /* SLOT_READY */
    char err[HT_ERR_MAX];
} seq_slot;

struct viewer_seq {
    seq_pattern pat;
    int first, count;        /* the frames first .. first + count - 1, missing ones included */
    char part[64], layer[64];
    bool has_part, has_layer;
    uint64_t max_pixels;

    pthread_mutex_t mu;
    pthread_cond_t wake;     /* workers: want moved, a slot freed, stop */
    pthread_cond_t done;     /* the main thread: a slot finished */
    seq_slot slots[SEQ_SLOTS];
    int want;                /* the index shown next: decoded first, then the ones after it */
    bool stop;
    pthread_t threads[SEQ_WORKERS];
    int nthreads;

    /* Playback (main thread only). */
    double fps;
    bool playing;
    double t0;               /* glfwGetTime() when index i0 was due */
    int i0;
    int shown, good;         /* the index shown last (-1: none), the last that loaded */
    long dropped;
    double times[SEQ_RATE_WINDOW];   /* when the last frames were shown, for the rate */
    int ntimes;

    /* Adaptation: the state after the frames shown in order, the shown frame's result. */
    adapt_params ap;
    adapt_state st;
    adapt_frame af;
    tonemap_result r;
    tonemap_params r_tm;     /* what r was computed with */
    bool have_r;
};

/* ---------------------------------------------------------------------------------------
 * The decoders */

/* How far index I lies after WANT, playing forward with looping. */
static int ahead(const viewer_seq *s, int i)
{
    return ((i - s->want) % s->count + s->count) % s->count;
}

/* Under the lock: a slot to decode into and the index for it, or false. Frees what lies
 * outside the window [want, want + SEQ_SLOTS). */
static bool pick(viewer_seq *s, int *slot, int *index)
{
    int window = s->count < SEQ_SLOTS ? s->count : SEQ_SLOTS;
    for (int k = 0; k < window; k++) {
        int i = (s->want + k) % s->count, free_slot = -1;
        bool have = false;
        for (int j = 0; j < SEQ_SLOTS; j++) {
            seq_slot *sl = &s->slots[j];
            if (sl->state != SLOT_EMPTY && sl->index == i)
                have = true;
            else if (free_slot < 0 && (sl->state == SLOT_EMPTY ||
                                       (sl->state != SLOT_LOADING && ahead(s, sl->index) >= window)))
                free_slot = j;
        }
        if (have)
            continue;
        if (free_slot < 0)
            return false;
        image_free(&s->slots[free_slot].img);
        *slot = free_slot;
        *index = i;
        return true;
    }
    return false;
}

static void *worker(void *arg)
{
    viewer_seq *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->stop) {
        int j, i;
        if (!pick(s, &j, &i)) {
            pthread_cond_wait(&s->wake, &s->mu);
            continue;
        }
        seq_slot *sl = &s->slots[j];
        sl->state = SLOT_LOADING;
        sl->index = i;
        pthread_mutex_unlock(&s->mu);
        char path[4096], err[HT_ERR_MAX] = "";
        hdr_image img = {0};
        image_load_options lo = {s->has_part ? s->part : NULL, s->has_layer ? s->layer : NULL,
                                 s->max_pixels, false};
        bool ok = seq_format(&s->pat, s->first + i, path, sizeof path) &&
                  image_load(path, &lo, &img, err, sizeof err);
        if (!ok && !err[0])
            snprintf(err, sizeof err, "file name too long");
        pthread_mutex_lock(&s->mu);
        sl->img = img;
        sl->state = ok ? SLOT_READY : SLOT_FAILED;
        snprintf(sl->err, sizeof sl->err, "%s", err);
        pthread_cond_broadcast(&s->done);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Takes frame I out of the cache into *img (false: it failed, the reason in ERR); BLOCK
 * waits for it, else false with ERR "" when it is not decoded yet. Decoding goes on from
 * the frame after it. */
static bool take(viewer_seq *s, int i, bool block, hdr_image *img, char *err, size_t errlen)
{
    err[0] = '\0';
    pthread_mutex_lock(&s->mu);
    s->want = i;
    pthread_cond_broadcast(&s->wake);
    seq_slot *sl = NULL;
    for (;;) {
        for (int j = 0; j < SEQ_SLOTS && !sl; j++)
            if (s->slots[j].index == i &&
                (s->slots[j].state == SLOT_READY || s->slots[j].state == SLOT_FAILED))
                sl = &s->slots[j];
        if (sl || !block)
            break;
        pthread_cond_wait(&s->done, &s->mu);
    }
    bool ok = false;
    if (sl) {
        ok = sl->state == SLOT_READY;
        *img = sl->img;
        memset(&sl->img, 0, sizeof sl->img);
        if (!ok)
            snprintf(err, errlen, "%s", sl->err);
        sl->state = SLOT_EMPTY;
        s->want = (i + 1) % s->count;
        pthread_cond_broadcast(&s->wake);
    }
    pthread_mutex_unlock(&s->mu);
    return ok;
}

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
    if (!pipeline_analyze_uploaded(v->pipe, &v->tm, &s->r, err, sizeof err)) {
        viewer_set_message(v, true, "GPU pipeline: %s", err);
        return;
    }
    adapt_frame_of(&s->r, frame, &s->af);
    if (!in_order)
        adapt_init(&s->st);
    adapt_update(&s->ap, &s->st, &s->af);
    if (s->af.valid)
        adapt_result(&s->st, &v->tm, &s->r);
    s->r_tm = v->tm;
    s->have_r = true;
}

/* Shows frame index I: its picture, or its error with the last good picture held. */
static void show(viewer *v, int i, bool block)
{
    viewer_seq *s = v->seq;
    hdr_image img = {0};
    char err[HT_ERR_MAX], path[4096];
    bool ok = take(s, i, block, &img, err, sizeof err);
    if (!ok && !err[0])
        return;   /* not decoded yet: the next poll tries again */
    if (s->shown >= 0 && i > s->shown + 1 && s->playing)
        s->dropped += i - s->shown - 1;
    bool in_order = s->good >= 0 && i > s->good && (s->playing || i == s->shown + 1);
    s->shown = i;
    memmove(s->times, s->times + 1, sizeof s->times - sizeof s->times[0]);
    s->times[SEQ_RATE_WINDOW - 1] = glfwGetTime();
    s->ntimes += s->ntimes < SEQ_RATE_WINDOW;
    v->dirty = true;
    int frame = s->first + i;
    if (!ok) {
        viewer_set_message(v, true, "frame %d: %s (holding the last good frame)", frame, err);
        return;
    }
    bool first = !v->have_image;
    bool same = !first && memcmp(img.data_window, v->img.data_window, sizeof img.data_window) == 0;
    if (!viewer_show_image(v, &img, err, sizeof err)) {
        viewer_set_message(v, true, "frame %d: %s", frame, err);
        image_free(&img);
        return;
    }
    if (v->message_error && strncmp(v->message, "frame ", 6) == 0)
        v->message[0] = '\0';   /* a failed frame's message goes with the next good one */
    if (!same)
        v->view_fresh = true;
    if (seq_format(&s->pat, frame, path, sizeof path)) {
        char *copy = strdup(path);
        if (copy) {
            free(v->files[0]);
            v->files[0] = copy;
        }
    }
    adapt_shown(v, frame, in_order);
    s->good = i;
}

/* ---------------------------------------------------------------------------------------
 * The viewer's side */

bool viewer_seq_open(viewer *v, const ht_options *o, const char *pattern)
{
    char err[HT_ERR_MAX];
    viewer_seq *s = calloc(1, sizeof *s);
    int *exist = NULL, n = 0, last = 0;
    bool ok = s && seq_parse(pattern, &s->pat, err, sizeof err) &&
              (!o->frame_range ||
               seq_parse_range(o->frame_range, &s->first, &last, err, sizeof err)) &&
              seq_scan(&s->pat, &exist, &n, err, sizeof err);
    if (!s)
        snprintf(err, sizeof err, "out of memory");
    else if (ok && !o->frame_range && n == 0)
        ok = !snprintf(err, sizeof err, "%s: no frame exists", pattern);
    if (ok && !o->frame_range) {
        s->first = exist[0];
        last = exist[n - 1];
    }
    free(exist);
    if (ok) {
        s->count = last - s->first + 1;
        s->ap.mode = human_requested(&o->tm) ? HT_ADAPT_NONE : HT_ADAPT_HUMAN;
        s->ap.fps = s->fps = o->fps;
        s->ap.cut_stops = o->cut_threshold;
        ok = !o->adapt || adapt_parse(o->adapt, &s->ap, err, sizeof err);
    }
    char path[4096];
    if (ok && !(seq_format(&s->pat, s->first, path, sizeof path) &&
                (v->files = calloc(1, sizeof *v->files)) && (v->files[0] = strdup(path))))
        ok = !snprintf(err, sizeof err, "out of memory");
    if (!ok) {
        fprintf(stderr, "hdrtone: %s\n", err);
        free(s);
        return false;
    }
    v->nfiles = 1;
    s->has_part = o->part && snprintf(s->part, sizeof s->part, "%s", o->part) > 0;
    s->has_layer = o->layer && snprintf(s->layer, sizeof s->layer, "%s", o->layer) >= 0;
    s->max_pixels = o->max_pixels >= 1 ? (uint64_t)o->max_pixels : 0;
    s->shown = s->good = -1;
    s->playing = true;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->wake, NULL);
    pthread_cond_init(&s->done, NULL);
    v->seq = s;
    return true;
}

void viewer_seq_start(viewer *v)
{
    viewer_seq *s = v->seq;
    for (int i = 0; i < SEQ_WORKERS; i++)
        if (pthread_create(&s->threads[s->nthreads], NULL, worker, s) == 0)
            s->nthreads++;
    if (s->nthreads == 0) {
        viewer_set_message(v, true, "cannot start the decoding threads");
        return;
    }
    show(v, 0, true);
    s->i0 = 0;
    s->t0 = glfwGetTime();
}

void viewer_seq_stop(viewer *v)
{
    viewer_seq *s = v->seq;
    if (!s)
        return;
    if (s->nthreads) {
        pthread_mutex_lock(&s->mu);
        s->stop = true;
        pthread_cond_broadcast(&s->wake);
        pthread_mutex_unlock(&s->mu);
        for (int i = 0; i < s->nthreads; i++)
            pthread_join(s->threads[i], NULL);
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->done);
    for (int j = 0; j < SEQ_SLOTS; j++)
        image_free(&s->slots[j].img);
    free(s);
    v->seq = NULL;
}

bool viewer_seq_playing(const viewer *v) { return v->seq && v->seq->playing && v->seq->nthreads; }

void viewer_seq_poll(viewer *v)
{
    viewer_seq *s = v->seq;
    if (!viewer_seq_playing(v))
        return;
    /* The test hooks draw one frame of the sequence per window frame, waiting for it, so
     * that a screenshot after N frames is always the same picture. */
    int due = v->testing ? (s->shown + (v->frames > 0)) % s->count
                         : (int)((s->i0 + (long long)floor((glfwGetTime() - s->t0) * s->fps)) %
                                 s->count);
    if (due != s->shown)
        show(v, due, v->testing);
}

void viewer_seq_key(viewer *v, int arg)
{
    viewer_seq *s = v->seq;
    if (!s || !s->nthreads) {
        viewer_set_message(v, false, "not a sequence (hdrtone shot.%%04d.exr plays one)");
        return;
    }
    if (arg == 0) {
        s->playing = !s->playing;
        s->i0 = s->shown < 0 ? 0 : s->shown;
        s->t0 = glfwGetTime();
        s->ntimes = 0;
        return;
    }
    int i = arg == -2 ? 0 : arg == 2 ? s->count - 1 : (s->shown + arg + s->count) % s->count;
    bool was = s->playing;
    s->playing = false;   /* a step shows the frame itself, in order only forward */
    show(v, i, true);
    s->playing = was;
    s->i0 = i;
    s->t0 = glfwGetTime();
}

const tonemap_result *viewer_seq_adapted(viewer *v)
{
    viewer_seq *s = v->seq;
    if (!s || !s->have_r || v->adapt_view || !v->have_image)
        return NULL;
    if (!tonemap_params_equal(&s->r_tm, &v->tm))
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
    if (n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - n, "  adapt %s", names[s->ap.mode]);
    if (n >= 0 && (size_t)n < len && s->have_r && s->st.valid)
        snprintf(buf + n, len - n, ": Lavg %.4g cd/m^2%s", exp(s->st.ln_avg),
                 s->st.exact ? " (settled)" : "");
}
