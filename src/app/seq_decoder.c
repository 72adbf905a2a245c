#define _POSIX_C_SOURCE 200809L /* strdup */
#include "seq_decoder.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* Decoders at most. The cache (the frame asked for and the next ones) holds SEQ_WAITING frames
 * more than its decoders, so each has one to work on while the SEQ_WAITING next to be shown
 * wait; out of it a player holds SEQ_TAKEN more: the one shown or being uploaded, and one
 * whose upload the GPU may still be reading (seq_decoder_frames). */
enum { SEQ_MAX_THREADS = 8, SEQ_WAITING = 2, SEQ_TAKEN = 2 };
enum { SEQ_SLOTS = SEQ_MAX_THREADS + SEQ_WAITING };
enum { SLOT_EMPTY, SLOT_LOADING, SLOT_READY, SLOT_FAILED };

typedef struct seq_slot {
    int index;          /* frame - first */
    int state;          /* SLOT_* */
    hdr_image img;      /* SLOT_READY */
    char err[HT_ERR_MAX];
} seq_slot;

struct seq_decoder {
    seq_pattern pat;
    int first, count;
    char part[64], layer[64];
    image_load_options lo;   /* part and layer point into the above */

    pthread_mutex_t mu;
    pthread_cond_t wake;     /* decoders: want moved, a slot freed, stop */
    pthread_cond_t done;     /* the taker: a slot finished */
    seq_slot slots[SEQ_SLOTS];
    int want;                /* decoded first, then the ones after it */
    int next;                /* the player takes no index before it: frames from it on are
                                kept (one decoded late is still shown: seq_decoder_take_due) */
    bool stop;
    pthread_t threads[SEQ_MAX_THREADS];
    int nthreads;
    int nslots;                 /* slots in use: the decoders + SEQ_WAITING */
    pipeline *pipe;             /* whose upload ring the frames are decoded into, or NULL */
    bool ring_wanted;           /* a decoder waits for a ring buffer: the taker makes it */
};

/* How far index I lies after FROM, going forward with looping. */
static int after(const seq_decoder *d, int from, int i)
{
    return ((i - from) % d->count + d->count) % d->count;
}

/* Under the lock: whether slot SL's frame may go (decoded or failed, and outside the frames
 * kept: NEXT .. WANT and the WINDOW from WANT). */
static bool evictable(const seq_decoder *d, const seq_slot *sl, int window)
{
    return sl->state != SLOT_LOADING &&
           after(d, d->next, sl->index) >= after(d, d->next, d->want) + window;
}

/* Under the lock: a slot to decode into and the index for it, or false. An empty slot
 * first, else a frame no longer kept. */
static bool pick(seq_decoder *d, int *slot, int *index)
{
    int window = d->count < d->nslots ? d->count : d->nslots;
    for (int k = 0; k < window; k++) {
        int i = (d->want + k) % d->count, free_slot = -1;
        bool have = false;
        for (int j = 0; j < d->nslots; j++) {
            seq_slot *sl = &d->slots[j];
            if (sl->state != SLOT_EMPTY && sl->index == i)
                have = true;
            else if (sl->state == SLOT_EMPTY &&
                     (free_slot < 0 || d->slots[free_slot].state != SLOT_EMPTY))
                free_slot = j;
            else if (free_slot < 0 && evictable(d, sl, window))
                free_slot = j;
        }
        if (have)
            continue;
        if (free_slot < 0)
            return false;
        image_free(&d->slots[free_slot].img);
        *slot = free_slot;
        *index = i;
        return true;
    }
    return false;
}

static void *worker(void *arg)
{
    seq_decoder *d = arg;
    pthread_mutex_lock(&d->mu);
    while (!d->stop) {
        int j, i;
        if (!pick(d, &j, &i)) {
            pthread_cond_wait(&d->wake, &d->mu);
            continue;
        }
        seq_slot *sl = &d->slots[j];
        sl->state = SLOT_LOADING;
        sl->index = i;
        pthread_mutex_unlock(&d->mu);
        char path[4096], err[HT_ERR_MAX] = "";
        hdr_image img = {0};
        /* The GPU's half floats made here, on a decoding thread, not by the driver on the GL
         * thread (118 ms a 4K frame on an H100 host): decoded straight to half where the
         * decoder can; the floats, derived from them, for the caller's CPU uses. */
        image_load_options lo = d->lo;
        lo.half_only = true;
        bool ok = seq_format(&d->pat, d->first + i, path, sizeof path) &&
                  image_load(path, &lo, &img, err, sizeof err);
        if (!ok && !err[0])
            snprintf(err, sizeof err, "file name too long");
        if (ok && !d->lo.half_only && !image_add_floats(&img)) {
            snprintf(err, sizeof err, "%.400s: out of memory", path);
            image_free(&img);
            ok = false;
        }

        pthread_mutex_lock(&d->mu);
        sl->img = img;
        sl->state = ok ? SLOT_READY : SLOT_FAILED;
        snprintf(sl->err, sizeof sl->err, "%s", err);
        pthread_cond_broadcast(&d->done);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* A decoder waits for a buffer of the upload ring (pipeline_upload_notify): the taker's,
 * on the GL thread, to make (take). */
static void ring_wanted(void *ctx)
{
    seq_decoder *d = ctx;
    pthread_mutex_lock(&d->mu);
    d->ring_wanted = true;
    pthread_cond_broadcast(&d->done);
    pthread_mutex_unlock(&d->mu);
}

seq_decoder *seq_decoder_start(pipeline *pipe, const seq_pattern *p, int first, int count,
                               const image_load_options *lo, int threads, char *err,
                               size_t errlen)
{
    seq_decoder *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->pat = *p;
    d->first = first;
    d->count = count;
    d->lo = *lo;
    if (lo->part) {
        snprintf(d->part, sizeof d->part, "%s", lo->part);
        d->lo.part = d->part;
    }
    if (lo->layer) {
        snprintf(d->layer, sizeof d->layer, "%s", lo->layer);
        d->lo.layer = d->layer;
    }
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->wake, NULL);
    pthread_cond_init(&d->done, NULL);
    threads = threads < 1 ? 1 : threads > SEQ_MAX_THREADS ? SEQ_MAX_THREADS : threads;
    d->nslots = threads + SEQ_WAITING;
    if (pipe) {
        d->lo.half_alloc = pipeline_upload_allocator(pipe, seq_decoder_frames(threads));
        d->pipe = d->lo.half_alloc ? pipe : NULL;
    }
    if (d->pipe)
        pipeline_upload_notify(d->pipe, ring_wanted, d);
    for (int i = 0; i < threads; i++)
        if (pthread_create(&d->threads[d->nthreads], NULL, worker, d) == 0)
            d->nthreads++;
    if (d->nthreads == 0) {
        snprintf(err, errlen, "cannot start the decoding threads");
        seq_decoder_stop(&d);
    }
    return d;
}

/* Under the lock, on the GL thread: makes the ring buffer a decoder waits for. */
static void serve_ring(seq_decoder *d)
{
    if (!d->ring_wanted)
        return;
    d->ring_wanted = false;
    pthread_mutex_unlock(&d->mu);
    pipeline_upload_serve(d->pipe);
    pthread_mutex_lock(&d->mu);
}

/* Takes the latest decoded (or failed) frame of FROM .. DUE into *img, its index in *index;
 * BLOCK waits for one, making the ring's buffers the decoders ask for meanwhile. The decoders turn to DUE; frames from FROM on are kept. */
static int take(seq_decoder *d, int from, int due, bool block, hdr_image *img, int *index,
                char *err, size_t errlen)
{
    err[0] = '\0';
    pthread_mutex_lock(&d->mu);
    d->next = from;
    d->want = due;
    pthread_cond_broadcast(&d->wake);
    seq_slot *sl = NULL;
    for (int span = after(d, from, due);; pthread_cond_wait(&d->done, &d->mu)) {
        serve_ring(d);
        for (int j = 0; j < d->nslots; j++) {
            seq_slot *c = &d->slots[j];
            if ((c->state == SLOT_READY || c->state == SLOT_FAILED) &&
                after(d, from, c->index) <= span &&
                (!sl || after(d, from, c->index) > after(d, from, sl->index)))
                sl = c;
        }
        if (sl || !block)
            break;
    }
    int got = SEQ_TAKE_NOT_YET;
    if (sl) {
        got = sl->state == SLOT_READY ? SEQ_TAKE_OK : SEQ_TAKE_FAILED;
        *img = sl->img;
        *index = sl->index;
        memset(&sl->img, 0, sizeof sl->img);
        if (got == SEQ_TAKE_FAILED)
            snprintf(err, errlen, "%s", sl->err);
        sl->state = SLOT_EMPTY;
        d->next = (sl->index + 1) % d->count;
        if (sl->index == due)
            d->want = d->next;
        pthread_cond_broadcast(&d->wake);
    }
    pthread_mutex_unlock(&d->mu);
    return got;
}

int seq_decoder_take(seq_decoder *d, int i, bool block, hdr_image *img, char *err,
                     size_t errlen)
{
    int index;
    return take(d, i, i, block, img, &index, err, errlen);
}

int seq_decoder_take_due(seq_decoder *d, int from, int due, hdr_image *img, int *index,
                         char *err, size_t errlen)
{
    return take(d, from, due, false, img, index, err, errlen);
}

void seq_decoder_stop(seq_decoder **dp)
{
    seq_decoder *d = *dp;
    if (!d)
        return;
    if (d->pipe)   /* a decoder waiting for a ring buffer takes none: the pool's */
        pipeline_upload_notify(d->pipe, NULL, NULL);
    pthread_mutex_lock(&d->mu);
    d->stop = true;
    pthread_cond_broadcast(&d->wake);
    pthread_mutex_unlock(&d->mu);
    for (int i = 0; i < d->nthreads; i++)
        pthread_join(d->threads[i], NULL);
    pthread_mutex_destroy(&d->mu);
    pthread_cond_destroy(&d->wake);
    pthread_cond_destroy(&d->done);
    for (int j = 0; j < SEQ_SLOTS; j++)
        image_free(&d->slots[j].img);
    free(d);
    *dp = NULL;
}

int seq_decoder_workers(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN) / 2;
    return cpus < 2 ? 2 : cpus > SEQ_MAX_THREADS ? SEQ_MAX_THREADS : (int)cpus;
}

int seq_decoder_frames(int threads)
{
    return threads + SEQ_WAITING + SEQ_TAKEN;
}
