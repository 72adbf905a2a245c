/* Exporting many files in one process: worker threads decode the next files and encode and
 * write the previous ones while the main thread, which owns the GL context, tone-maps the
 * current one. Lookahead is bounded so memory stays at a few images.
 * A stream on standard output (outputs "-") gets its frames in input order: each worker
 * encodes in parallel, then waits until every earlier job is done before it writes. */
#define _GNU_SOURCE /* gettid */
#include "batch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "batch_gpu.h"
#include "commands.h"
#include "encode.h"
#include "encode_codecs.h"
#include "encode_terms.h"
#include "help_pool.h"
#include "output_tags.h"
#include "human.h"
#include "png_export.h"
#include "tonemap_fast.h"


typedef struct job {
    const char *in, *out;
    hdr_image img;
    void *px;   /* the tone-mapped RGB: uint8_t, uint16_t when o->depth is 16, float (linear)
                   in a float format */
    double exposure;   /* a float format's: tonemap_exposure_pcond (0: none) */
    int width, height;
    int data_window[4], display_window[4];
    bool loaded, mapped, done, ok;
    double at[BATCH_MOMENT_COUNT];   /* its moments, seconds from the batch's start */
} job;

typedef struct batch {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned wakes;               /* wake()s so far: a worker that let go of the lock sees one */
    job *jobs;
    int n;
    int next_load, next_encode;   /* next index a worker claims to decode / to encode */
    int gpu_at;                   /* index the main thread is at */
    int finished;                 /* jobs done (encoded or failed) */
    const ht_options *o;
    int load_threads;             /* image_load_options.threads of each decode */
    int max_decoding;             /* decodes at once (each on load_threads threads) */
    int decoding, encoding;       /* decodes and encodes under way */
    int cpus;                     /* the cores (--jobs when given) */
    bool stream;                  /* outputs are "-": one stream on standard output */
    int written;                  /* leading jobs done: the stream's next frame */
    int stream_w, stream_h;       /* the stream's frame size (its first frame's; 0 before) */
    bool progress;                /* stderr is a terminal: show "i of n, rate, time left" */
    double t0, cpu0_s[2];         /* the start: monotonic; the process's CPU (process_cpu) */
    double busy_s[BATCH_STAGE_COUNT];   /* summed over the stage's threads, under the lock */
    double gl_s[BATCH_GL_COUNT];        /* the GL thread's terms (its own; batch_gpu adds) */
    bool ring_wanted;             /* a decoder waits for the upload buffers (batch_gpu_serve) */
    int ring_ahead;               /* buffers the GL thread may still make before they are asked
                                     for, while it waits (-1: none asked for yet; wait_for,
                                     decode_regime) */
    double ahead_at;              /* now_s() from which it makes them while the first decodes */
    bool first_alone;             /* the first file decodes alone (decode_regime) */
    /* Frames in flight: decoded ahead of the GPU, and tone-mapped waiting for a worker to
     * encode them: about jobs + 2 frames in memory (batch_export_hooked). */
    int ahead, backlog;
    bool to_half;                 /* decoders hand the GPU half floats (half-exact images) */
    const image_allocator *half_alloc; /* where they decode them: timed_alloc over ring */
    const image_allocator *ring;  /* the GPU's upload buffers (batch_gpu_allocator) */
    image_allocator timed;        /* ring's, each get timed into the decoding job's moments */
    bool linear;                  /* o->format holds floats: map_linear's output */
    bool uhdr;                    /* an Ultra HDR JPEG: px holds the 16-bit HDR rendition,
                                     then the 8-bit SDR base of the options sdr */
    ht_options sdr;
    cmd_backend *be;              /* the command's backend (backend.h) */
    batch_gpu *gpu;               /* the GPU stage, made by the first GPU job */
    const batch_hook *hook;       /* a sequence's (batch_export_hooked), or NULL */
} batch;

/* Under the lock: something a waiter waits for changed. */
static void wake(batch *b)
{
    b->wakes++;
    pthread_cond_broadcast(&b->cv);
}

#define BATCH_STAGE_NAME_(n) #n,
const char *const batch_stage_names[BATCH_STAGE_COUNT] = {BATCH_STAGES(BATCH_STAGE_NAME_)};
const char *const batch_gl_names[BATCH_GL_COUNT] = {BATCH_GL_TERMS(BATCH_STAGE_NAME_)};
const char *const batch_moment_names[BATCH_MOMENT_COUNT] = {BATCH_MOMENTS(BATCH_STAGE_NAME_)};
#undef BATCH_STAGE_NAME_

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Bits per channel of the tone-mapped output, and the bytes of J's (j->px). */
static int out_bits(const batch *b)
{
    return b->linear ? 32 : b->o->depth == 16 ? 16 : 8;
}

static size_t px_bytes(const batch *b, const job *j)
{
    return (size_t)j->width * j->height * 3 * (out_bits(b) / 8 + b->uhdr);
}

/* An Ultra HDR job's SDR base: behind its HDR rendition. */
static uint8_t *sdr_pixels(const job *j)
{
    return (uint8_t *)j->px + (size_t)j->width * j->height * 3 * 2;
}

/* J's pixels as an Ultra HDR JPEG into *out (encode_ultrahdr), the tags the two renditions'. */
static bool encode_uhdr(const batch *b, const job *j, int threads, encode_buffer *out,
                        char *err, size_t errlen)
{
    const ht_options *o = b->o;
    output_tags th, ts;
    bool ok = output_tags_make(&o->tm, ENCODE_PNG, 16, false, NULL, j->width, j->height, &th,
                               err, errlen) &&
              output_tags_make(&b->sdr.tm, ENCODE_JPEG, 8, false, NULL, j->width, j->height,
                               &ts, err, errlen);
    encode_image hdr = {j->px, j->width, j->height, 3, 16, 0.0, &th.t};
    encode_image sdr = {sdr_pixels(j), j->width, j->height, 3, 8,
                        b->sdr.tm.transfer == HT_TRANSFER_GAMMA ? b->sdr.tm.gamma : 0.0, &ts.t};
    encode_mark m = encode_mark_now();
    ok = ok && encode_ultrahdr(&sdr, &hdr, o->quality, threads, out, err, errlen);
    encode_term_add(ENCODE_TERM_uhdr, m);
    output_tags_free(&th);
    output_tags_free(&ts);
    return ok;
}

/* Under the lock: a message, clearing the progress line first. */
static void report(batch *b, const char *msg)
{
    fprintf(stderr, "%shdrtone export: %s\n", b->progress ? "\r\033[K" : "", msg);
}

/* Under the lock: J's message, after its frame number in a sequence. */
static void report_job(batch *b, const job *j, const char *msg)
{
    char buf[HT_ERR_MAX + 128];
    if (b->hook && b->hook->frames)
        snprintf(buf, sizeof buf, "frame %d: %s", b->hook->frames[j - b->jobs], msg);
    report(b, b->hook && b->hook->frames ? buf : msg);
}

/* Under the lock: one job is over. */
static void finish(batch *b, job *j, bool ok)
{
    j->done = true;
    j->ok = ok;
    b->finished++;
    while (b->written < b->n && b->jobs[b->written].done)
        b->written++;
    if (b->progress) {
        double el = now_s() - b->t0, rate = b->finished / (el > 0 ? el : 1e-9);
        fprintf(stderr, "\r\033[Khdrtone export: %d of %d, %.2f images/s, %.0f s left", b->finished,
                b->n, rate, (b->n - b->finished) / rate);
        if (b->finished == b->n)
            fputc('\n', stderr);
    }
    wake(b);
}

/* Threads decoding each file when the files do not keep every worker busy: the cores shared
 * among the files, a single file getting them all. When they do, the first file decodes
 * alone on every core (the first frame as early as one decode on all cores allows), and its
 * codec sets the rest (decode_regime). */
static int load_threads(int n, int cpus)
{
    long t = cpus / (n > 1 ? n : 1);
    return t < 1 ? 1 : t > HT_MAX_LOAD_THREADS ? HT_MAX_LOAD_THREADS : (int)t;
}

/* B's cores shared X ways, at least one each. */
static int cpus_per(const batch *b, int x)
{
    return b->cpus / x > 1 ? b->cpus / x : 1;
}

/* After the first file's decode alone on every core, what the files after it get: a cheap
 * decode (image_decode_cost) stays one file at a time on every core, frames reaching the GPU
 * in order one decode apart; a costly one goes DECODES_AT_ONCE at a time on a share of the
 * cores each, which spends less CPU on the same frames. Cheap codecs' 16 x 4K ran 1.3-1.5x
 * and 1.2-1.3x faster one at a time on the 16-core GPU machine (BENCHMARKS.md, "Short
 * batches, fill and drain"). The CPU the first decode took did not tell them apart there: on
 * 16 threads DWAA's passed the bound that split them on two. */
enum { DECODES_AT_ONCE = 4 };
static void decode_regime(batch *b, const hdr_image *img)
{
    b->first_alone = false;
    if (img->decode_cost == IMAGE_DECODE_CHEAP) {
        /* It recycles two or three buffers: the rest, made ahead, only took the GL thread's
         * time (uncompressed -9 %: BENCHMARKS.md, "Upload buffers made ahead"). */
        b->ring_ahead = 0;
        return;
    }
    b->load_threads = cpus_per(b, DECODES_AT_ONCE);
    b->max_decoding = cpus_per(b, b->load_threads);
}

/* The job this thread decodes (decode_one), for timed_get. */
static _Thread_local job *decoding_job;

/* The upload buffers' get, its wait recorded as the decoding job's buffer_asked and
 * buffer_got (bench --export's timeline: how long a decoder waited for the GL thread). */
static void *timed_get(void *ctx, size_t bytes)
{
    batch *b = ctx;
    job *j = decoding_job;
    if (j)
        j->at[BATCH_AT_buffer_asked] = now_s() - b->t0;
    void *p = b->ring->get(b->ring->ctx, bytes);
    if (j)
        j->at[BATCH_AT_buffer_got] = now_s() - b->t0;
    return p;
}

static void timed_put(void *ctx, void *p)
{
    batch *b = ctx;
    b->ring->put(b->ring->ctx, p);
}

/* Decodes J (a worker, without the lock). */
static void decode_one(batch *b, job *j)
{
    char err[HT_ERR_MAX];
    image_load_options lo = options_load(b->o);
    lo.threads = b->load_threads;
    /* The GPU takes a half-exact image as half floats, decoded straight to them here, not
     * converted by the driver on the GL thread; no floats (half the memory), except with
     * the human-vision options, whose CPU fallback for an image in pieces needs them
     * (batch_gpu_start). */
    lo.half_only = b->to_half;
    lo.half_alloc = b->half_alloc;
    double t = now_s();
    j->at[BATCH_AT_decode_start] = t - b->t0;
    decoding_job = j;
    bool ok = image_load(j->in, &lo, &j->img, err, sizeof err);
    decoding_job = NULL;
    if (ok && b->to_half && human_requested(&b->o->tm) && !image_add_floats(&j->img)) {
        snprintf(err, sizeof err, "%s: out of memory", j->in);
        image_free(&j->img);
        ok = false;
    }
    j->at[BATCH_AT_decoded] = now_s() - b->t0;
    t = now_s() - t;
    pthread_mutex_lock(&b->mu);
    if (j == b->jobs && b->first_alone)
        decode_regime(b, &j->img);
    b->busy_s[BATCH_decode] += t;
    if (!ok) {
        report_job(b, j, err);
        finish(b, j, false);
    }
    j->loaded = true;
    wake(b);
    pthread_mutex_unlock(&b->mu);
}

/* --display-window: the display window as RGBA of BYTES per channel, the data window's pixels
 * placed in it (the part of the data window outside it dropped), everything else transparent
 * black; malloc'd, NULL when out of memory. */
static void *display_window_pixels(const job *j, int bytes, int *wp, int *hp)
{
    const int *dw = j->data_window, *vw = j->display_window;
    int w = *wp = vw[2] - vw[0] + 1, h = *hp = vw[3] - vw[1] + 1;
    size_t in_px = 3 * (size_t)bytes, out_px = 4 * (size_t)bytes;
    const uint16_t opaque16 = 0xffff;
    uint8_t *px = w > 0 && h > 0 ? calloc((size_t)w * h, out_px) : NULL;
    if (!px)
        return NULL;
    for (int y = 0; y < h; y++) {
        int sy = vw[1] + y - dw[1];
        if (sy < 0 || sy >= j->height)
            continue;
        for (int x = 0; x < w; x++) {
            int sx = vw[0] + x - dw[0];
            if (sx < 0 || sx >= j->width)
                continue;
            uint8_t *d = px + out_px * ((size_t)y * w + x);
            memcpy(d, (const uint8_t *)j->px + in_px * ((size_t)sy * j->width + sx), in_px);
            if (bytes == 2)
                memcpy(d + 6, &opaque16, 2);
            else
                d[3] = 255;
        }
    }
    return px;
}

/* J's pixels in the batch's format into *out; false with "OUT: reason" in err. */
static bool encode_job(const batch *b, const job *j, int threads, encode_buffer *out,
                       char *err, size_t errlen)
{
    const ht_options *o = b->o;
    encode_image im = {j->px, j->width, j->height, 3, b->linear ? 32 : o->depth,
                       o->tm.transfer == HT_TRANSFER_GAMMA ? o->tm.gamma : 0.0, NULL};
    void *window = NULL;
    if (o->display_window) {
        if (!(window = display_window_pixels(j, o->depth / 8, &im.width, &im.height))) {
            snprintf(err, errlen, "%s: cannot hold the %d x %d display window", j->out,
                     im.width, im.height);
            return false;
        }
        im.pixels = window;
        im.channels = 4;
    }
    char why[256];
    encode_format f = o->format == ENCODE_AUTO ? ENCODE_PNG : (encode_format)o->format;
    if (b->uhdr) {
        bool ok = encode_uhdr(b, j, threads, out, why, sizeof why);
        if (!ok)
            snprintf(err, errlen, "%s: %s", j->out, why);
        return ok;
    }
    output_tags tags;
    encode_mark m = encode_mark_now();
    bool ok = output_tags_make(&o->tm, f, o->depth, o->chroma == 420, j->px, j->width,
                               j->height, &tags, why, sizeof why);
    encode_term_add(ENCODE_TERM_light, m);
    im.tags = &tags.t;
    /* AVIF and JPEG XL: lossless unless --quality says otherwise (encode_codecs.h) */
    int quality = (f == ENCODE_AVIF || f == ENCODE_JXL) && !options_given(o, "quality")
                      ? 0 : o->quality;
    ok = ok && encode_image_threads(f, quality, &im, j->exposure, threads, out, why,
                                    sizeof why);
    if (!ok)
        snprintf(err, errlen, "%s: %s", b->stream ? j->in : j->out, why);
    output_tags_free(&tags);
    free(window);
    return ok;
}

/* J's frame onto standard output once every earlier job is done; the first frame sets the
 * stream's size (and writes the y4m header), a frame of another size is refused. */
static bool write_frame(batch *b, job *j, const encode_buffer *enc, double *t0, char *err,
                        size_t errlen)
{
    int index = (int)(j - b->jobs);
    pthread_mutex_lock(&b->mu);
    while (b->written < index)
        pthread_cond_wait(&b->cv, &b->mu);
    pthread_mutex_unlock(&b->mu);
    /* Alone from here on: the jobs after this one wait for it to be done. The write starts
     * now, not while it waited its turn. */
    *t0 = now_s();
    if (b->stream_w && (j->width != b->stream_w || j->height != b->stream_h)) {
        snprintf(err, errlen, "%s: the frame is %d x %d, the stream's frames are %d x %d",
                 j->in, j->width, j->height, b->stream_w, b->stream_h);
        return false;
    }
    char head[128], why[256];
    size_t hlen = !b->stream_w && b->o->format == ENCODE_Y4M
                      ? encode_y4m_header(j->width, j->height, out_bits(b), b->o->chroma == 420,
                                          head, sizeof head) : 0;
    if (!file_write_fd(STDOUT_FILENO, head, hlen, why, sizeof why) ||
        !file_write_fd(STDOUT_FILENO, enc->data, enc->len, why, sizeof why)) {
        snprintf(err, errlen, "%s: cannot write to standard output: %s", j->in, why);
        return false;
    }
    b->stream_w = j->width;
    b->stream_h = j->height;
    return true;
}

/* Encodes and writes J, which is tone-mapped (a worker, without the lock), on THREADS. */
static void encode_one(batch *b, job *j, int threads)
{
    char err[HT_ERR_MAX];
    encode_buffer enc;
    double t0 = now_s(), t1;
    j->at[BATCH_AT_encode_start] = t0 - b->t0;
    bool ok = encode_job(b, j, threads, &enc, err, sizeof err);
    image_pool_put(j->px, px_bytes(b, j));
    j->px = NULL;
    t1 = now_s();
    double tw = t1;
    encode_mark m = encode_mark_now();
    if (ok)
        ok = b->stream ? write_frame(b, j, &enc, &tw, err, sizeof err)
                       : file_write_atomic(j->out, enc.data, enc.len, err, sizeof err);
    encode_term_add(ENCODE_TERM_write, m);
    free(enc.data);
    double t2 = now_s();
    pthread_mutex_lock(&b->mu);
    b->busy_s[BATCH_encode] += t1 - t0;
    b->encoding--;
    b->busy_s[BATCH_write] += t2 - tw;
    j->at[BATCH_AT_done] = t2 - b->t0;
    if (!ok)
        report_job(b, j, err);
    finish(b, j, ok);
    pthread_mutex_unlock(&b->mu);
}

/* Under the lock: the next job to encode when it is tone-mapped (jobs that failed before
 * are passed over), or NULL. Jobs are tone-mapped in order, so only the first can be. */
static job *encode_ready(batch *b)
{
    while (b->next_encode < b->n && b->jobs[b->next_encode].done)
        b->next_encode++;
    return b->next_encode < b->n && b->jobs[b->next_encode].mapped
               ? &b->jobs[b->next_encode++] : NULL;
}

enum { WORKER_NICE = 4 };

/* A worker: encodes what is tone-mapped, else decodes the next file when there is room
 * ahead of the GPU, else waits. One pool for both: since decoding became as cheap as
 * encoding (a 4K PIZ frame ~200 ms, its PNG ~180 ms), a fixed split left one side idle
 * while the other was the bottleneck. */
static void *worker(void *arg)
{
    batch *b = arg;
    /* A little below the GL thread, which the workers (and their decodes' and encodes'
     * threads, which inherit this) outnumber: its frames are the pipeline's, and a frame it
     * waits for a core for holds up every stage after it. */
    setpriority(PRIO_PROCESS, (id_t)gettid(), getpriority(PRIO_PROCESS, 0) + WORKER_NICE);
    pthread_mutex_lock(&b->mu);
    for (;;) {
        job *j = encode_ready(b);
        bool load = !j && b->next_load < b->n && b->next_load - b->gpu_at < b->ahead &&
                    b->decoding < b->max_decoding;
        if (load)
            j = &b->jobs[b->next_load++];
        b->decoding += load;
        b->encoding += j && !load;
        /* An encode takes the cores the decodes leave, shared with the other encodes: one
         * in the steady state; a worker with nothing to do helps them (below). */
        int free_cores = b->cpus - b->decoding * b->load_threads;
        int enc_threads = free_cores / (b->encoding > 0 ? b->encoding : 1);
        if (!j && b->next_load >= b->n && b->next_encode >= b->n)
            break;
        if (!j) {
            /* Pieces of encodes under way (PNG and JPEG stripes), else wait: without the help the
             * batch's end waited for encodes begun on one core while the others idled (a
             * quarter of a 16-frame batch on the 16-core GPU machine). */
            unsigned seen = b->wakes;
            pthread_mutex_unlock(&b->mu);
            bool helped = help_pool_help();
            pthread_mutex_lock(&b->mu);
            /* A wake while the lock was let go is not waited for again: the batch's last
             * one (a failed file's) would leave this worker waiting for ever. */
            if (!helped && b->wakes == seen)
                pthread_cond_wait(&b->cv, &b->mu);
            continue;
        }
        pthread_mutex_unlock(&b->mu);
        if (load)
            decode_one(b, j);
        else
            encode_one(b, j, enc_threads < 1 ? 1 : enc_threads);
        pthread_mutex_lock(&b->mu);
        if (load) {
            b->decoding--;
            wake(b);
        }
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

/* Under the lock: J's tone mapping is over; OK or the failure MSG. */
static void mapped(batch *b, job *j, bool ok, const char *msg)
{
    j->at[BATCH_AT_mapped] = now_s() - b->t0;
    if (ok) {
        j->mapped = true;
        wake(b);
    } else {
        report_job(b, j, msg);
        image_pool_put(j->px, px_bytes(b, j));
        j->px = NULL;
        finish(b, j, false);
    }
}

/* A float format's pixels: the linear output into RGB (width*height*3) and its EXPOSURE
 * line. On the CPU whatever the backend, because the GPU has no float read-back (8 or 16
 * bits only): the analysis tonemap_fast's (the reference's result exactly), the apply the
 * reference's. False when out of memory, with the reason in err. */
static bool map_linear(const ht_options *o, const hdr_image *img, float *rgb, double *exposure,
                       char *err, size_t errlen)
{
    tonemap_result *r = malloc(sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory for %dx%d", img->width, img->height);
        return false;
    }
    tonemap_params tm;
    bool ok = options_tonemap(o, img, &tm, err, errlen);
    if (ok) {
        tonemap_fast_analyze(img, &tm, r, o->jobs);
        tonemap_cpu_apply_linear(img, &tm, r, rgb);
        *exposure = tonemap_exposure_pcond(r, &tm);
    }
    free(r);
    return ok;
}

/* Tone-maps J (its pixels freed as soon as the backend has them): on the GPU with the
 * read-backs queued (*slot, and an Ultra HDR base's *sdr_slot; collected by finish_pending),
 * else into j->px at once (-1). False with "IN: reason" in msg. */
static bool map_job(batch *b, job *j, int *slot, int *sdr_slot, char *msg, size_t len)
{
    char err[HT_ERR_MAX], note[HT_ERR_MAX] = "";
    int bits = out_bits(b);
    *slot = *sdr_slot = -1;
    j->width = j->img.width;
    j->height = j->img.height;
    memcpy(j->data_window, j->img.data_window, sizeof j->data_window);
    memcpy(j->display_window, j->img.display_window, sizeof j->display_window);
    /* From the pool: the read-back's copy into fresh pages faulted on the GL thread. */
    bool ok = (j->px = image_pool_get(px_bytes(b, j))) != NULL;
    if (!ok)
        snprintf(err, sizeof err, "out of memory for %dx%d", j->width, j->height);
    else if (b->hook && b->hook->tonemap)
        ok = b->hook->tonemap(b->hook->ctx, (int)(j - b->jobs), &j->img, j->px, bits,
                              &j->exposure, err, sizeof err);
    else if (b->linear)
        ok = map_linear(b->o, &j->img, j->px, &j->exposure, err, sizeof err);
    else if (b->o->backend != HT_BACKEND_GPU)
        ok = (!b->uhdr ||
              backend_tonemap(b->be, &b->sdr, &j->img, NULL, sdr_pixels(j), err, sizeof err)) &&
             backend_tonemap_consume(b->be, b->o, &j->img, bits == 8 ? j->px : NULL,
                                     bits == 16 ? j->px : NULL, err, sizeof err);
    else if (!b->gpu && !(b->gpu = batch_gpu_create(b->be, b->gl_s, err, sizeof err)))
        ok = false;
    else
        ok = batch_gpu_start2(b->gpu, b->o, b->uhdr ? &b->sdr : NULL, &j->img, j->px,
                              b->uhdr ? sdr_pixels(j) : NULL, slot, sdr_slot, note,
                              sizeof note, err, sizeof err);
    image_free(&j->img);
    if (!ok)
        snprintf(msg, len, "%s: %s", j->in, err);
    if (ok && note[0]) {
        snprintf(msg, len, "%s: %s", j->in, note);
        pthread_mutex_lock(&b->mu);
        report_job(b, j, msg);
        pthread_mutex_unlock(&b->mu);
    }
    return ok;
}

/* Collects the read-backs of the job in *pending (if any; SDR_SLOT -1: none of a base) and
 * hands it to the encoders. */
static void finish_pending(batch *b, job **pending, int slot, int sdr_slot)
{
    if (!*pending)
        return;
    char err[HT_ERR_MAX], msg[HT_ERR_MAX + 64];
    double t = now_s();
    bool ok = batch_gpu_finish(b->gpu, slot, (*pending)->px, err, sizeof err) &&
              (sdr_slot < 0 ||
               batch_gpu_finish(b->gpu, sdr_slot, sdr_pixels(*pending), err, sizeof err));
    if (!ok)
        snprintf(msg, sizeof msg, "%s: %s", (*pending)->in, err);
    t = now_s() - t;
    pthread_mutex_lock(&b->mu);
    b->busy_s[BATCH_tonemap] += t;
    mapped(b, *pending, ok, msg);
    pthread_mutex_unlock(&b->mu);
    *pending = NULL;
}

/* The threads of the tone-map stage: with the CPU backend tonemap_fast's workers (the main
 * thread among them), which share each frame's work; else the main thread alone (the GPU's,
 * a hook's, the reference that tonemap_fast runs for the human-vision options, and a float
 * format's, whose apply, most of its work, is the reference's: map_linear). */
static int tonemap_threads(const batch *b)
{
    bool fast = b->o->backend == HT_BACKEND_CPU && !(b->hook && b->hook->tonemap) &&
                !human_requested(&b->o->tm) && !b->linear;
    return fast ? tonemap_fast_threads(b->o->jobs) : 1;
}

/* A decoder waits for the upload buffers: the GL thread's to make. */
static void ring_wanted(void *ctx)
{
    batch *b = ctx;
    pthread_mutex_lock(&b->mu);
    b->ring_wanted = true;
    wake(b);
    pthread_mutex_unlock(&b->mu);
}

/* The main thread, under the lock: OP on the upload buffers (the lock let go meanwhile), its
 * time the ring's, not the wait's. Whether BATCH_RING_AHEAD made one. */
static bool serve_ring(batch *b, batch_ring_op op)
{
    pthread_mutex_unlock(&b->mu);
    double t = now_s();
    bool made = batch_gpu_serve(b->be, op);
    b->gl_s[BATCH_GL_ring] += now_s() - t;
    b->gl_s[BATCH_GL_wait] -= now_s() - t;
    pthread_mutex_lock(&b->mu);
    return made;
}

/* The main thread, under the lock: waits for J's (frame I's) decode, and for room among the
 * pictures waiting to be encoded; makes the upload buffers when a decoder asks for them, and
 * once one has, the rest ahead while it waits (from the first frame's decode on, when this
 * thread is idle) unless decode_regime finds the codec cheap: made only as asked, each of a
 * PIZ batch's first frames waited ~20 ms a buffer, one after another on this thread (frames
 * 1-4 84-114 ms on the H200 machine: BENCHMARKS.md, "Upload buffers made ahead"). While the
 * first file decodes alone, not before it has run longer than a cheap decode (a 4K file's ~5
 * ms on 16 cores; a PIZ one's ~55): a buffer begun (~20 ms) when a cheap one ends held that
 * frame's tone-map (uncompressed -8 to -14 %). */
enum { AHEAD_AFTER_MS = 15 };

/* Under the lock: waits for B's condition, or until now_s() reaches AT. */
static void wait_until(batch *b, double at)
{
    struct timespec t;   /* the condition variable's clock: CLOCK_REALTIME */
    clock_gettime(CLOCK_REALTIME, &t);
    long ns = t.tv_nsec + (long)((at - now_s()) * 1e9);
    t.tv_sec += ns / 1000000000L;
    t.tv_nsec = ns % 1000000000L;
    pthread_cond_timedwait(&b->cv, &b->mu, &t);
}
static void wait_for(batch *b, job *j, int i)
{
    for (;;) {
        if (j->loaded && i - b->finished <= b->ahead + b->backlog)
            return;   /* the buffers asked for meanwhile are made before the next frame */
        if (b->ring_wanted) {
            b->ring_wanted = false;
            if (b->ring_ahead < 0) {
                b->ring_ahead = b->n;
                b->ahead_at = now_s() + AHEAD_AFTER_MS * 1e-3;
            }
            serve_ring(b, BATCH_RING_SERVE);
        } else if (b->ring_ahead > 0 && b->first_alone && now_s() < b->ahead_at) {
            wait_until(b, b->ahead_at);
        } else if (b->ring_ahead > 0) {
            b->ring_ahead = serve_ring(b, BATCH_RING_AHEAD) ? b->ring_ahead - 1 : 0;
        } else {
            pthread_cond_wait(&b->cv, &b->mu);
        }
    }
}

/* The main thread: the tone mapping, frame after frame in input order (map_job). The GPU's
 * read-back of a frame is collected after the next frame is under way. */
static void tonemap_all(batch *b)
{
    char msg[HT_ERR_MAX + 64];
    job *pending = NULL;
    int pending_slot = -1, pending_sdr = -1, threads = tonemap_threads(b);
    for (int i = 0; i < b->n; i++) {
        job *j = &b->jobs[i];
        pthread_mutex_lock(&b->mu);
        b->gpu_at = i;
        wake(b);
        bool ready = j->loaded && i - b->finished <= b->ahead + b->backlog;
        pthread_mutex_unlock(&b->mu);
        /* The last frame's read-back now, not after this one's upload, when this one is not
         * there to overlap with: its encode starts at once. */
        if (!ready)
            finish_pending(b, &pending, pending_slot, pending_sdr);
        double t = now_s();
        pthread_mutex_lock(&b->mu);
        wait_for(b, j, i);
        bool failed = j->done;
        pthread_mutex_unlock(&b->mu);
        b->gl_s[BATCH_GL_wait] += now_s() - t;
        if (failed)
            continue;
        int slot, sdr_slot;
        t = now_s();
        j->at[BATCH_AT_gl_start] = t - b->t0;
        bool ok = map_job(b, j, &slot, &sdr_slot, msg, sizeof msg);
        j->at[BATCH_AT_gl_issued] = now_s() - b->t0;
        t = now_s() - t;
        finish_pending(b, &pending, pending_slot, pending_sdr);
        pthread_mutex_lock(&b->mu);
        b->busy_s[BATCH_tonemap] += t * threads;
        if (ok && slot >= 0) {
            pending = j;
            pending_slot = slot;
            pending_sdr = sdr_slot;
        } else {
            mapped(b, j, ok, msg);
        }
        pthread_mutex_unlock(&b->mu);
    }
    finish_pending(b, &pending, pending_slot, pending_sdr);
}

/* The process's CPU seconds so far: user, system. */
static void process_cpu(double s[2])
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    s[0] = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
    s[1] = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/* The batch's measurements into *S. */
static void fill_stats(const batch *b, int workers, batch_stats *s)
{
    memcpy(s->busy_s, b->busy_s, sizeof s->busy_s);
    memcpy(s->gl_s, b->gl_s, sizeof s->gl_s);
    s->direct_uploads = batch_gpu_direct_uploads(b->gpu);
    for (int i = 0; s->timeline && i < b->n; i++)
        memcpy(s->timeline[i], b->jobs[i].at, sizeof s->timeline[i]);
    s->threads[BATCH_decode] = s->threads[BATCH_encode] = s->threads[BATCH_write] = workers;
    s->threads[BATCH_tonemap] = tonemap_threads(b);
    s->shared = true;
    s->frames = 0;
    for (int i = 0; i < b->n; i++)
        s->frames += b->jobs[i].ok;
    s->wall_s = now_s() - b->t0;
    process_cpu(s->cpu_s);
    for (int i = 0; i < 2; i++)
        s->cpu_s[i] -= b->cpu0_s[i];
    encode_terms_read(s->terms_cpu_s, s->terms_wall_s);
}

int batch_export(cmd_backend *be, const ht_options *o, const char **inputs,
                 const char **outputs, int n, batch_stats *stats)
{
    return batch_export_hooked(be, o, inputs, outputs, n, NULL, stats);
}

int batch_export_hooked(cmd_backend *be, const ht_options *o, const char **inputs,
                        const char **outputs, int n, const batch_hook *hook, batch_stats *stats)
{
    batch b = {.n = n, .o = o, .be = be, .hook = hook, .ring_ahead = -1};
    b.jobs = calloc((size_t)n, sizeof *b.jobs);
    if (!b.jobs) {
        fprintf(stderr, "hdrtone export: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        b.jobs[i].in = inputs[i];
        b.jobs[i].out = outputs[i];
    }
    b.stream = n > 0 && strcmp(outputs[0], "-") == 0;
    pthread_mutex_init(&b.mu, NULL);
    pthread_cond_init(&b.cv, NULL);
    b.progress = n > 1 && isatty(STDERR_FILENO);
    b.t0 = now_s();
    process_cpu(b.cpu0_s);
    encode_terms_reset();
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    /* One worker per core (or --jobs), decoding or encoding. Frames in flight: half the
     * workers' decoded ahead of the GPU (decoding is no longer the bottleneck: a frame costs
     * about as much to decode as to encode), and a third tone-mapped waiting for a worker to
     * encode them: under jobs + 2 in memory. */
    int workers = o->jobs > 0 ? o->jobs : cpus < 2 ? 2 : cpus > 64 ? 64 : (int)cpus;
    workers = workers > 64 ? 64 : workers;
    b.ahead = workers / 2 > 2 ? workers / 2 : 2;
    b.backlog = workers / 3 + 1;
    b.linear = encode_format_is_linear((encode_format)o->format, o->depth);
    b.uhdr = o->format == ENCODE_JPEG && o->hdr != HT_TRANSFER_SRGB;
    options_sdr_base(o, &b.sdr);
    b.to_half = o->backend == HT_BACKEND_GPU && !(hook && hook->tonemap) && !b.linear;
    b.cpus = o->jobs > 0 ? o->jobs : cpus < 1 ? 1 : cpus > 64 ? 64 : (int)cpus;
    b.first_alone = n > 1 && n >= workers;
    b.load_threads = load_threads(b.first_alone ? 1 : n, b.cpus);
    b.max_decoding = b.first_alone ? 1 : cpus_per(&b, b.load_threads);
    /* The frames a decoder may hold: those ahead of the GPU, one more being decoded, the one
     * being uploaded. */
    if (b.to_half && (b.ring = batch_gpu_allocator(b.be, b.ahead + 2 < n ? b.ahead + 2 : n,
                                                   ring_wanted, &b))) {
        b.timed = (image_allocator){timed_get, timed_put, &b};
        b.half_alloc = &b.timed;
    }
    pthread_t threads[64];
    int nthreads = 0;
    for (int i = 0; i < workers; i++)
        if (pthread_create(&threads[nthreads], NULL, worker, &b) == 0)
            nthreads++;
    if (nthreads == 0) {
        fprintf(stderr, "hdrtone export: cannot start worker threads\n");
    } else {
        tonemap_all(&b);
    }
    for (int i = 0; i < nthreads; i++)
        pthread_join(threads[i], NULL);
    if (b.half_alloc)
        batch_gpu_serve(b.be, BATCH_RING_STOP);
    int status = 0;
    for (int i = 0; i < n; i++)
        status |= !b.jobs[i].ok;
    if (stats)
        fill_stats(&b, nthreads, stats);
    batch_gpu_destroy(&b.gpu);
    pthread_cond_destroy(&b.cv);
    pthread_mutex_destroy(&b.mu);
    free(b.jobs);
    return status;
}
