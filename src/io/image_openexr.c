/* OpenEXR through the OpenEXR library's plain-C core (OpenEXRCore, libopenexr-dev 3.1), for
 * what tinyexr cannot decode: PXR24, B44, B44A, DWAA, DWAB and subsampled channels. The file is
 * read from memory; exr_validate.c has walked its headers, offset tables and chunk headers
 * before this is called, so the library only ever decompresses chunks that lie inside the
 * file and claim sizes that fit their pixels. Without the library (HT_HAVE_OPENEXR undefined)
 * image_have_openexr() says so and image_exr.c refuses those files with that reason.
 *
 * OpenEXRCore 3.1 has no DWAA/DWAB decoder ("not yet implemented in C"); for those the C
 * wrapper of the C++ library's RGBA interface (ImfCRgbaFile.h) reads part 0's un-prefixed
 * R,G,B / Y / luminance-chroma channels, as halves, by file name. */
#include "image_internal.h"
#include "parallel.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HT_HAVE_OPENEXR
#include <ImfCRgbaFile.h>
#include <openexr.h>

bool image_openexr_rgba(const char *path, const int dw[4], float *rgba, char *why, size_t wl)
{
    long w = (long)dw[2] - dw[0] + 1, h = (long)dw[3] - dw[1] + 1;
    ImfRgba *px = malloc((size_t)w * (size_t)h * sizeof *px);
    if (!px) {
        snprintf(why, wl, "out of memory");
        return false;
    }
    ImfInputFile *in = ImfOpenInputFile(path);
    if (!in) {
        snprintf(why, wl, "OpenEXR library: %s", ImfErrorMessage());
        free(px);
        return false;
    }
    int dx0, dy0, dx1, dy1;
    ImfHeaderDataWindow(ImfInputHeader(in), &dx0, &dy0, &dx1, &dy1);
    bool ok = false;
    if (dx0 != dw[0] || dy0 != dw[1] || dx1 != dw[2] || dy1 != dw[3]) {
        snprintf(why, wl, "the file changed while it was read");
    } else {
        /* OpenEXR addresses the buffer in absolute pixel coordinates. */
        uintptr_t base = (uintptr_t)px - ((uintptr_t)(intptr_t)dx0 +
                                           (uintptr_t)(intptr_t)dy0 * (uintptr_t)w) *
                                              sizeof *px;
        if (!ImfInputSetFrameBuffer(in, (ImfRgba *)base, 1, (size_t)w) ||
            !ImfInputReadPixels(in, dy0, dy1))
            snprintf(why, wl, "OpenEXR library: %s", ImfErrorMessage());
        else
            ok = true;
    }
    ImfCloseInputFile(in);
    if (ok) {
        size_t n = (size_t)w * (size_t)h;
        for (size_t i = 0; i < n; i++) {
            rgba[i * 4 + 0] = image_half_to_float(px[i].r);
            rgba[i * 4 + 1] = image_half_to_float(px[i].g);
            rgba[i * 4 + 2] = image_half_to_float(px[i].b);
            rgba[i * 4 + 3] = image_half_to_float(px[i].a);
        }
    }
    free(px);
    return ok;
}

bool image_have_openexr(void) { return true; }

typedef struct core_src {
    const uint8_t *data;
    size_t size;
} core_src;

static int64_t core_read(exr_const_context_t ctxt, void *ud, void *buf, uint64_t sz,
                         uint64_t off, exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt;
    (void)error_cb;
    core_src *s = ud;
    if (off > s->size)
        return -1;
    uint64_t n = s->size - off < sz ? s->size - off : sz;
    memcpy(buf, s->data + off, (size_t)n);
    return (int64_t)n;
}

static int64_t core_size(exr_const_context_t ctxt, void *ud)
{
    (void)ctxt;
    return (int64_t)((core_src *)ud)->size;
}

/* The library's first error message in this thread: the context is shared between threads,
 * so its error handler cannot tell them apart, the thread can. */
typedef struct core_msg {
    char text[200];
} core_msg;
static _Thread_local core_msg *core_thread_msg;

/* The library prints errors to stderr unless given a handler: keep the thread's first one. */
static void core_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    (void)ctxt;
    core_msg *m = core_thread_msg;
    if (m && !m->text[0])
        snprintf(m->text, sizeof m->text, "%s", msg ? msg : exr_get_default_error_message(code));
}

static const char *fail(exr_result_t rv, const char *what, char *why, size_t wl)
{
    core_msg *m = core_thread_msg;
    snprintf(why, wl, "OpenEXR library: %s failed: %s", what,
             m && m->text[0] ? m->text : exr_get_default_error_message(rv));
    return why;
}

/* One decode with OpenEXRCore: the context, read-only once opened, and the level's chunk
 * layout, shared by every thread; core_job_free releases it. */
typedef struct core_job {
    core_src src;
    exr_context_t ctx;
    int part;
    exr_storage_t storage;
    exr_attr_box2i_t dw;
    const exr_attr_chlist_t *chl;
    exr_plane *planes;
    int nplanes;
    uint16_t *rgba;  /* interleaved mode: the planes decoded straight into these RGBA halves, */
    const int *slot; /* plane p into slot slot[p] (image_openexr_core_half); NULL: floats */
    unsigned absent; /* interleaved mode: the slots no plane fills (bit k: slot k) */
    unsigned copy;   /* interleaved mode: the slots that copy slot 0 (grey: Y in R, G, B) */
    int *types;      /* each plane's EXR_PIXEL_* type */
    uint32_t tw, th; /* tile size (tiled) */
    int32_t lines;   /* scanlines per chunk (scanline) */
    long ncx, nchunks;
    pthread_mutex_t mu;
    long next;       /* the next chunk a thread claims, in increasing order */
    long fail_at;    /* the lowest chunk that failed (nchunks = none); its reason in why */
    char *why;
    size_t wl;
    const image_progress *pr; /* interleaved mode: NULL, or told of the rows done */
    uint8_t *landed;  /* with pr: chunk k decoded (under mu) */
    long prefix;      /* with pr: chunks 0 to prefix - 1 all decoded (under mu) */
    long told;        /* with pr: the rows last told (the loading thread's alone) */
} core_job;

/* A thread's view of one plane in the current chunk. */
typedef struct core_slot {
    uint8_t *buf;    /* the chunk's samples of the plane, in their file type */
    size_t cap;      /* buf's size in bytes */
    long sx, sy;     /* the chunk's first sample in the plane */
} core_slot;

/* One thread of a decode: its own pipeline and chunk buffers. */
typedef struct core_worker {
    core_job *j;
    exr_decode_pipeline_t dec;
    bool dec_init;
    core_slot *slots; /* one per plane */
    core_msg msg;
    char why[HT_ERR_MAX];
} core_worker;

/* Opens the file and reads the part's storage, data window and channel list. */
static bool core_open(core_job *j)
{
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &j->src;
    init.read_fn = core_read;
    init.size_fn = core_size;
    init.error_handler_fn = core_error;
    init.flags = EXR_CONTEXT_FLAG_DISABLE_CHUNK_RECONSTRUCTION;
    exr_result_t rv = exr_start_read(&j->ctx, "(memory)", &init);
    if (rv != EXR_ERR_SUCCESS) {
        fail(rv, "reading the header", j->why, j->wl);
        return false;
    }
    int count = 0, part = j->part;
    if ((rv = exr_get_count(j->ctx, &count)) != EXR_ERR_SUCCESS || part < 0 || part >= count ||
        (rv = exr_get_storage(j->ctx, part, &j->storage)) != EXR_ERR_SUCCESS ||
        (rv = exr_get_data_window(j->ctx, part, &j->dw)) != EXR_ERR_SUCCESS ||
        (rv = exr_get_channels(j->ctx, part, &j->chl)) != EXR_ERR_SUCCESS || !j->chl) {
        fail(rv, "reading the part's header", j->why, j->wl);
        return false;
    }
    if (j->storage != EXR_STORAGE_SCANLINE && j->storage != EXR_STORAGE_TILED) {
        snprintf(j->why, j->wl, "deep images are not supported");
        return false;
    }
    return true;
}

/* Sizes each plane to its channel's sample grid and allocates its floats (zeroed: calloc
 * maps fresh pages, and the threads fill them in place). */
static bool core_alloc_planes(core_job *j)
{
    const exr_attr_chlist_t *chl = j->chl;
    for (int p = 0; p < j->nplanes; p++) {
        exr_plane *pl = &j->planes[p];
        int c = 0;
        for (; c < chl->num_channels; c++)
            if (strcmp(chl->entries[c].name.str, pl->name) == 0)
                break;
        if (c == chl->num_channels) {
            snprintf(j->why, j->wl, "OpenEXR library: channel '%s' not found", pl->name);
            return false;
        }
        const exr_attr_chlist_entry_t *e = &chl->entries[c];
        if (e->x_sampling < 1 || e->y_sampling < 1) {
            snprintf(j->why, j->wl, "channel has invalid sampling");
            return false;
        }
        pl->nx = (int)image_multiples(j->dw.min.x, j->dw.max.x, e->x_sampling);
        pl->ny = (int)image_multiples(j->dw.min.y, j->dw.max.y, e->y_sampling);
        j->types[p] = (int)e->pixel_type;
        if (j->rgba) { /* written in place: HALF at full resolution (image_exr.c's half_view) */
            if (e->pixel_type != EXR_PIXEL_HALF || e->x_sampling != 1 || e->y_sampling != 1) {
                snprintf(j->why, j->wl, "channel '%s' is not a full-resolution half channel",
                         pl->name);
                return false;
            }
            continue;
        }
        pl->v = calloc((size_t)pl->nx * (size_t)pl->ny + 1, sizeof *pl->v);
        if (!pl->v) {
            snprintf(j->why, j->wl, "out of memory");
            return false;
        }
    }
    return true;
}

/* Reads the level-0 chunk layout: tile size or scanlines per chunk, and the chunk count. */
static bool core_layout(core_job *j)
{
    long w = (long)j->dw.max.x - j->dw.min.x + 1, h = (long)j->dw.max.y - j->dw.min.y + 1;
    long ncy;
    exr_result_t rv;
    j->lines = 1;
    j->ncx = 1;
    if (j->storage == EXR_STORAGE_TILED) {
        exr_tile_level_mode_t lm;
        exr_tile_round_mode_t rm;
        if ((rv = exr_get_tile_descriptor(j->ctx, j->part, &j->tw, &j->th, &lm, &rm)) !=
                EXR_ERR_SUCCESS ||
            j->tw == 0 || j->th == 0) {
            fail(rv, "reading the tile description", j->why, j->wl);
            return false;
        }
        j->ncx = (w + (long)j->tw - 1) / (long)j->tw;
        ncy = (h + (long)j->th - 1) / (long)j->th;
    } else {
        if ((rv = exr_get_scanlines_per_chunk(j->ctx, j->part, &j->lines)) != EXR_ERR_SUCCESS ||
            j->lines < 1) {
            fail(rv, "reading the chunk layout", j->why, j->wl);
            return false;
        }
        ncy = (h + j->lines - 1) / j->lines;
    }
    j->nchunks = j->ncx * ncy;
    j->fail_at = j->nchunks;
    return true;
}

/* Points the decoder's channels that are planes at the thread's buffers for them (the others
 * are skipped), after checking that the chunk, whose first pixel is OX, OY (relative to the
 * data window), fits each plane. */
static bool core_set_targets(core_worker *w, long ox, long oy)
{
    core_job *j = w->j;
    for (int c = 0; c < w->dec.channel_count; c++) {
        exr_coding_channel_info_t *ch = &w->dec.channels[c];
        ch->decode_to_ptr = NULL;
        for (int p = 0; p < j->nplanes; p++) {
            exr_plane *pl = &j->planes[p];
            if (strcmp(ch->channel_name, pl->name) != 0)
                continue;
            int bpe = j->types[p] == EXR_PIXEL_HALF ? 2 : 4;
            long xs = ch->x_samples, ys = ch->y_samples;
            if (xs < 1 || ys < 1)
                break;
            core_slot *s = &w->slots[p];
            s->sx = image_multiples(j->dw.min.x, j->dw.min.x + ox - 1, xs);
            s->sy = image_multiples(j->dw.min.y, j->dw.min.y + oy - 1, ys);
            if (ch->width < 0 || ch->height < 0 || s->sx + ch->width > pl->nx ||
                s->sy + ch->height > pl->ny || ch->bytes_per_element != bpe) {
                snprintf(w->why, sizeof w->why, "OpenEXR library: chunk of channel '%s' does "
                                                "not fit the data window", pl->name);
                return false;
            }
            if (j->rgba) { /* straight into the interleaved halves */
                ch->decode_to_ptr = (uint8_t *)(j->rgba + ((size_t)s->sy * (size_t)pl->nx +
                                                           (size_t)s->sx) * 4 + j->slot[p]);
                ch->user_bytes_per_element = 2;
                ch->user_data_type = EXR_PIXEL_HALF;
                ch->user_pixel_stride = 4 * 2;
                ch->user_line_stride = pl->nx * 4 * 2;
                break;
            }
            size_t need = (size_t)ch->width * (size_t)ch->height * (size_t)bpe + 4;
            if (need > s->cap) {
                free(s->buf);
                if (!(s->buf = malloc(need))) {
                    s->cap = 0;
                    snprintf(w->why, sizeof w->why, "out of memory");
                    return false;
                }
                s->cap = need;
            }
            ch->user_bytes_per_element = (int16_t)bpe;
            ch->user_data_type = (uint16_t)j->types[p];
            ch->user_pixel_stride = bpe;
            ch->user_line_stride = ch->width * bpe;
            ch->decode_to_ptr = s->buf;
            break;
        }
    }
    return true;
}

/* Converts the chunk's samples of channel CH (plane P) into the plane's floats. */
static void core_to_float(core_worker *w, const exr_coding_channel_info_t *ch, int p)
{
    exr_plane *pl = &w->j->planes[p];
    long sx = w->slots[p].sx, sy = w->slots[p].sy;
    int type = w->j->types[p];
    size_t bpe = type == EXR_PIXEL_HALF ? 2 : 4;
    for (long y = 0; y < ch->height; y++) {
        const uint8_t *q = w->slots[p].buf + (size_t)y * (size_t)ch->width * bpe;
        float *v = pl->v + (size_t)(sy + y) * (size_t)pl->nx + (size_t)sx;
        for (long x = 0; x < ch->width; x++, q += bpe) {
            if (type == EXR_PIXEL_HALF) {
                uint16_t hv;
                memcpy(&hv, q, 2);
                v[x] = image_half_to_float(hv);
            } else if (type == EXR_PIXEL_FLOAT) {
                memcpy(&v[x], q, 4);
            } else {
                uint32_t u;
                memcpy(&u, q, 4);
                v[x] = (float)u;
            }
        }
    }
}

/* Locates chunk K of level 0 (row-major over the chunk grid). */
static exr_result_t core_chunk_info(core_job *j, long k, exr_chunk_info_t *ci)
{
    long cx = k % j->ncx, cy = k / j->ncx;
    if (j->storage == EXR_STORAGE_TILED)
        return exr_read_tile_chunk_info(j->ctx, j->part, (int)cx, (int)cy, 0, 0, ci);
    return exr_read_scanline_chunk_info(j->ctx, j->part, (int)(j->dw.min.y + cy * j->lines),
                                        ci);
}

/* Interleaved mode: the slots no plane fills, in the chunk of W x H pixels at OX, OY (relative
 * to the data window): colour 0, alpha 1, or (j->copy) slot 0's value. Done per chunk, while
 * its pixels are in cache and on every decoding thread, not in one pass over the image
 * afterwards, and so the chunk's rows are final once it is decoded (image_progress). */
static void core_fill_absent(const core_job *j, long ox, long oy, long w, long h)
{
    uint64_t keep = 0, fill = 0, copy = 0; /* a pixel's four halves as one word, slot k at
                                              bits 16k; COPY: 1 in the slots copying slot 0 */
    for (int k = 0; k < 4; k++)
        if (j->copy & 1u << k)
            copy |= (uint64_t)1 << 16 * k;
        else if (j->absent & 1u << k)
            fill |= (uint64_t)(k == 3 ? 0x3c00 : 0) << 16 * k;
        else
            keep |= (uint64_t)0xffff << 16 * k;
    size_t nx = (size_t)j->dw.max.x - (size_t)j->dw.min.x + 1;
    for (long y = 0; y < h; y++) {
        uint16_t *row = j->rgba + ((size_t)(oy + y) * nx + (size_t)ox) * 4;
        for (long x = 0; x < w; x++) {
            uint64_t px;
            memcpy(&px, row + 4 * x, sizeof px);
            px = (px & keep) | fill | (px & 0xffff) * copy;
            memcpy(row + 4 * x, &px, sizeof px);
        }
    }
}

/* The rows of the data window that chunks 0 to PREFIX - 1 (row-major) cover whole. */
static long core_rows(const core_job *j, long prefix)
{
    long chunk_rows = j->storage == EXR_STORAGE_TILED ? (long)j->th : (long)j->lines;
    long h = (long)j->dw.max.y - j->dw.min.y + 1, rows = prefix / j->ncx * chunk_rows;
    return rows < h ? rows : h;
}

/* With progress, on the loading thread: tells the rows of the first PREFIX chunks when they
 * are about a sixteenth of the image more than told last; FINAL: the whole image, decoded. */
static void core_tell(core_job *j, long prefix, bool final)
{
    long h = (long)j->dw.max.y - j->dw.min.y + 1, rows = final ? h : core_rows(j, prefix);
    if (!final && (rows >= h || rows - j->told < (h + 15) / 16))
        return; /* the last rows are told once all chunks are in (a failure never tells them) */
    j->told = rows;
    j->pr->rows(j->pr->ctx, j->rgba, (int)((long)j->dw.max.x - j->dw.min.x + 1), (int)rows,
                (int)h);
}

/* With progress: chunk K is decoded (by WORKER); worker 0, the loading thread, tells. */
static void core_landed(core_job *j, long k, int worker)
{
    pthread_mutex_lock(&j->mu);
    j->landed[k] = 1;
    while (j->prefix < j->nchunks && j->landed[j->prefix])
        j->prefix++;
    long prefix = j->prefix;
    pthread_mutex_unlock(&j->mu);
    if (worker == 0)
        core_tell(j, prefix, false);
}

/* Decodes chunk K of level 0 into the planes. */
static bool core_decode_chunk(core_worker *w, long k)
{
    core_job *j = w->j;
    exr_chunk_info_t ci;
    exr_result_t rv = core_chunk_info(j, k, &ci);
    if (rv != EXR_ERR_SUCCESS) {
        fail(rv, "locating a chunk", w->why, sizeof w->why);
        return false;
    }
    rv = w->dec_init ? exr_decoding_update(j->ctx, j->part, &ci, &w->dec)
                     : exr_decoding_initialize(j->ctx, j->part, &ci, &w->dec);
    if (rv != EXR_ERR_SUCCESS) {
        fail(rv, "preparing to decode", w->why, sizeof w->why);
        return false;
    }
    w->dec_init = true;
    /* Pixel origin of this chunk, relative to the data window. */
    bool tiled = j->storage == EXR_STORAGE_TILED;
    long cx = k % j->ncx, cy = k / j->ncx;
    long ox = tiled ? cx * (long)j->tw : 0;
    long oy = tiled ? cy * (long)j->th : cy * j->lines;
    if (!core_set_targets(w, ox, oy))
        return false;
    if ((rv = exr_decoding_choose_default_routines(j->ctx, j->part, &w->dec)) !=
            EXR_ERR_SUCCESS ||
        (rv = exr_decoding_run(j->ctx, j->part, &w->dec)) != EXR_ERR_SUCCESS) {
        fail(rv, "decoding pixels", w->why, sizeof w->why);
        return false;
    }
    if (j->rgba && (j->absent | j->copy))
        core_fill_absent(j, ox, oy, ci.width, ci.height);
    for (int c = 0; c < w->dec.channel_count && !j->rgba; c++)
        for (int p = 0; p < j->nplanes; p++)
            if (w->dec.channels[c].decode_to_ptr &&
                w->dec.channels[c].decode_to_ptr == w->slots[p].buf)
                core_to_float(w, &w->dec.channels[c], p);
    return true;
}

/* A thread's loop: claims chunks in increasing order until none are left or one failed.
 * Every chunk below a failed one was claimed before it and still runs, so the failure kept
 * (the lowest) is the one a single thread would have met first. */
/* parallel_run's worker WORKER of the array of core_workers CTX. */
static void core_work(void *ctx, int worker)
{
    core_worker *w = (core_worker *)ctx + worker;
    core_job *j = w->j;
    core_msg *outer = core_thread_msg;
    core_thread_msg = &w->msg;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        long k = j->next < j->fail_at ? j->next++ : j->nchunks;
        pthread_mutex_unlock(&j->mu);
        if (k >= j->nchunks)
            break;
        if (!core_decode_chunk(w, k)) {
            pthread_mutex_lock(&j->mu);
            if (k < j->fail_at) {
                j->fail_at = k;
                snprintf(j->why, j->wl, "%s", w->why);
            }
            pthread_mutex_unlock(&j->mu);
            break;
        }
        if (j->landed)
            core_landed(j, k, worker);
    }
    core_thread_msg = outer;
}

static void core_worker_free(core_worker *w)
{
    if (w->dec_init)
        exr_decoding_destroy(w->j->ctx, &w->dec);
    for (int p = 0; w->slots && p < w->j->nplanes; p++)
        free(w->slots[p].buf);
    free(w->slots);
}

/* Decodes every chunk of level 0 on up to THREADS threads (this one among them). */
static bool core_read_chunks(core_job *j, int threads)
{
    /* The first chunk lookup reads the offset table; done here, before the threads. */
    exr_chunk_info_t ci;
    exr_result_t rv;
    if (j->nchunks > 0 && (rv = core_chunk_info(j, 0, &ci)) != EXR_ERR_SUCCESS) {
        fail(rv, "locating a chunk", j->why, j->wl);
        return false;
    }
    int n = threads < 1 ? 1 : threads > HT_MAX_LOAD_THREADS ? HT_MAX_LOAD_THREADS : threads;
    if (n > j->nchunks)
        n = j->nchunks > 0 ? (int)j->nchunks : 1;
    core_worker w[HT_MAX_LOAD_THREADS];
    bool ok = !j->pr || (j->landed = calloc((size_t)j->nchunks + 1, 1));
    for (int i = 0; i < n; i++) {
        w[i] = (core_worker){.j = j, .dec = EXR_DECODE_PIPELINE_INITIALIZER};
        w[i].slots = calloc((size_t)j->nplanes + 1, sizeof *w[i].slots);
        ok = ok && w[i].slots;
    }
    if (ok) {
        parallel_run(n, core_work, w);
        ok = j->fail_at == j->nchunks;
        if (ok && j->pr)
            core_tell(j, j->nchunks, true);
    } else {
        snprintf(j->why, j->wl, "out of memory");
    }
    for (int i = 0; i < n; i++)
        core_worker_free(&w[i]);
    free(j->landed);
    j->landed = NULL;
    return ok;
}

static void core_job_free(core_job *j)
{
    if (j->ctx)
        exr_finish(&j->ctx);
    free(j->types);
    pthread_mutex_destroy(&j->mu);
}

/* Runs J (its source, part, planes and mode set) on up to THREADS threads. */
static bool core_run(core_job *j, int threads)
{
    core_msg msg = {""};
    core_thread_msg = &msg;
    pthread_mutex_init(&j->mu, NULL);
    for (int p = 0; p < j->nplanes; p++) {
        j->planes[p].v = NULL;
        j->planes[p].nx = j->planes[p].ny = 0;
    }
    j->types = calloc((size_t)j->nplanes + 1, sizeof *j->types);
    bool ok = false;
    if (!j->types)
        snprintf(j->why, j->wl, "out of memory");
    else
        ok = core_open(j) && core_alloc_planes(j) && core_layout(j) &&
             core_read_chunks(j, threads);
    core_job_free(j);
    core_thread_msg = NULL;
    if (!ok)
        for (int p = 0; p < j->nplanes; p++) {
            free(j->planes[p].v);
            j->planes[p].v = NULL;
        }
    return ok;
}

bool image_openexr_decode(const uint8_t *data, size_t size, int part, int threads,
                          exr_plane *planes, int nplanes, char *why, size_t wl)
{
    core_job j = {.src = {data, size}, .part = part, .planes = planes, .nplanes = nplanes,
                  .why = why, .wl = wl};
    return core_run(&j, threads);
}

bool image_openexr_core_half(const uint8_t *data, size_t size, int part,
                             const char *const names[4], int threads, uint16_t *out,
                             const image_progress *pr, char *why, size_t wl)
{
    exr_plane planes[4];
    int slot[4], np = 0;
    unsigned absent = 0, copy = 0;
    for (int k = 0; k < 4; k++)
        if ((k == 1 || k == 2) && names[k] && names[0] && !strcmp(names[k], names[0])) {
            copy |= 1u << k;
        } else if (names[k]) {
            planes[np] = (exr_plane){names[k], 0, 0, NULL};
            slot[np++] = k;
        } else {
            absent |= 1u << k;
        }
    core_job j = {.src = {data, size}, .part = part, .planes = planes, .nplanes = np,
                  .rgba = out, .slot = slot, .absent = absent, .copy = copy, .why = why,
                  .wl = wl, .pr = pr};
    return core_run(&j, threads);
}

#else /* !HT_HAVE_OPENEXR */

bool image_openexr_rgba(const char *path, const int dw[4], float *rgba, char *why, size_t wl)
{
    (void)path;
    (void)dw;
    (void)rgba;
    snprintf(why, wl, "this hdrtone was built without the OpenEXR library (libopenexr-dev)");
    return false;
}

bool image_have_openexr(void) { return false; }

bool image_openexr_core_half(const uint8_t *data, size_t size, int part,
                             const char *const names[4], int threads, uint16_t *out,
                             const image_progress *pr, char *why, size_t wl)
{
    (void)pr;
    return image_openexr_half(data, size, part, names, threads, out, why, wl);
}

bool image_openexr_half_progress(const uint8_t *data, size_t size, int part,
                                 const char *const names[4], int threads, uint16_t *out,
                                 const image_progress *pr, int chunk_rows, char *why, size_t wl)
{
    (void)pr;
    (void)chunk_rows;
    return image_openexr_half(data, size, part, names, threads, out, why, wl);
}

bool image_openexr_half(const uint8_t *data, size_t size, int part, const char *const names[4],
                        int threads, uint16_t *out, char *why, size_t wl)
{
    (void)data;
    (void)size;
    (void)part;
    (void)names;
    (void)threads;
    (void)out;
    snprintf(why, wl, "this hdrtone was built without the OpenEXR library (libopenexr-dev)");
    return false;
}

bool image_exr_floor(const uint8_t *data, size_t size, uint16_t *out, char *why,
                         size_t wl)
{
    return image_openexr_half(data, size, 0, NULL, 1, out, why, wl);
}

bool image_exr_floor_threads(const uint8_t *data, size_t size, int threads, uint16_t *out,
                             char *why, size_t wl)
{
    return image_openexr_half(data, size, 0, NULL, threads, out, why, wl);
}

bool image_openexr_decode(const uint8_t *data, size_t size, int part, int threads,
                          exr_plane *planes, int nplanes, char *why, size_t wl)
{
    (void)data;
    (void)size;
    (void)part;
    (void)threads;
    for (int p = 0; p < nplanes; p++)
        planes[p].v = NULL;
    snprintf(why, wl, "this hdrtone was built without the OpenEXR library (libopenexr-dev)");
    return false;
}

#endif
