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
    char msg[200];
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

/* The library prints errors to stderr unless given a handler: keep the first one. */
static void core_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    void *ud = NULL;
    if (exr_get_user_data(ctxt, &ud) != EXR_ERR_SUCCESS || !ud)
        return;
    core_src *s = ud;
    if (!s->msg[0])
        snprintf(s->msg, sizeof s->msg, "%s", msg ? msg : exr_get_default_error_message(code));
}

static const char *fail(core_src *s, exr_result_t rv, const char *what, char *why, size_t wl)
{
    snprintf(why, wl, "OpenEXR library: %s failed: %s", what,
             s->msg[0] ? s->msg : exr_get_default_error_message(rv));
    return why;
}

/* One decode with OpenEXRCore; core_job_free releases it. */
typedef struct core_job {
    core_src src;
    exr_context_t ctx;
    exr_decode_pipeline_t dec;
    bool dec_init;
    int part;
    exr_storage_t storage;
    exr_attr_box2i_t dw;
    const exr_attr_chlist_t *chl;
    exr_plane *planes;
    int nplanes;
    uint8_t **raws;  /* each plane's samples in their file type */
    int *types;      /* each plane's EXR_PIXEL_* type */
    char *why;
    size_t wl;
} core_job;

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
        fail(&j->src, rv, "reading the header", j->why, j->wl);
        return false;
    }
    int count = 0, part = j->part;
    if ((rv = exr_get_count(j->ctx, &count)) != EXR_ERR_SUCCESS || part < 0 || part >= count ||
        (rv = exr_get_storage(j->ctx, part, &j->storage)) != EXR_ERR_SUCCESS ||
        (rv = exr_get_data_window(j->ctx, part, &j->dw)) != EXR_ERR_SUCCESS ||
        (rv = exr_get_channels(j->ctx, part, &j->chl)) != EXR_ERR_SUCCESS || !j->chl) {
        fail(&j->src, rv, "reading the part's header", j->why, j->wl);
        return false;
    }
    if (j->storage != EXR_STORAGE_SCANLINE && j->storage != EXR_STORAGE_TILED) {
        snprintf(j->why, j->wl, "deep images are not supported");
        return false;
    }
    return true;
}

/* Sizes each plane to its channel's sample grid and allocates it in the channel's type. */
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
        size_t bpe = e->pixel_type == EXR_PIXEL_HALF ? 2 : 4;
        j->raws[p] = calloc((size_t)pl->nx * (size_t)pl->ny + 1, bpe);
        if (!j->raws[p]) {
            snprintf(j->why, j->wl, "out of memory");
            return false;
        }
    }
    return true;
}

/* Points the decoder's channels that are planes at the place of the chunk whose first pixel is
 * OX, OY (relative to the data window) in their plane; the others are skipped. */
static bool core_set_targets(core_job *j, long ox, long oy)
{
    for (int c = 0; c < j->dec.channel_count; c++) {
        exr_coding_channel_info_t *ch = &j->dec.channels[c];
        ch->decode_to_ptr = NULL;
        for (int p = 0; p < j->nplanes; p++) {
            exr_plane *pl = &j->planes[p];
            if (strcmp(ch->channel_name, pl->name) != 0)
                continue;
            int bpe = j->types[p] == EXR_PIXEL_HALF ? 2 : 4;
            long xs = ch->x_samples, ys = ch->y_samples;
            if (xs < 1 || ys < 1)
                break;
            /* Sample coordinates of the chunk's first sample in the plane. */
            long sx = image_multiples(j->dw.min.x, j->dw.min.x + ox - 1, xs);
            long sy = image_multiples(j->dw.min.y, j->dw.min.y + oy - 1, ys);
            if (ch->width < 0 || ch->height < 0 || sx + ch->width > pl->nx ||
                sy + ch->height > pl->ny || ch->bytes_per_element != bpe) {
                snprintf(j->why, j->wl, "OpenEXR library: chunk of channel '%s' does not fit "
                                        "the data window", pl->name);
                return false;
            }
            ch->user_bytes_per_element = (int16_t)bpe;
            ch->user_data_type = (uint16_t)j->types[p];
            ch->user_pixel_stride = bpe;
            ch->user_line_stride = pl->nx * bpe;
            ch->decode_to_ptr =
                j->raws[p] + ((size_t)sy * (size_t)pl->nx + (size_t)sx) * (size_t)bpe;
            break;
        }
    }
    return true;
}

/* Decodes chunk CX, CY of level 0 (LINES scanlines per chunk, or tiles of TW x TH). */
static bool core_decode_chunk(core_job *j, long cx, long cy, int32_t lines, uint32_t tw,
                              uint32_t th)
{
    bool tiled = j->storage == EXR_STORAGE_TILED;
    exr_chunk_info_t ci;
    exr_result_t rv;
    if (tiled)
        rv = exr_read_tile_chunk_info(j->ctx, j->part, (int)cx, (int)cy, 0, 0, &ci);
    else
        rv = exr_read_scanline_chunk_info(j->ctx, j->part, (int)(j->dw.min.y + cy * lines), &ci);
    if (rv != EXR_ERR_SUCCESS) {
        fail(&j->src, rv, "locating a chunk", j->why, j->wl);
        return false;
    }
    rv = j->dec_init ? exr_decoding_update(j->ctx, j->part, &ci, &j->dec)
                     : exr_decoding_initialize(j->ctx, j->part, &ci, &j->dec);
    if (rv != EXR_ERR_SUCCESS) {
        fail(&j->src, rv, "preparing to decode", j->why, j->wl);
        return false;
    }
    j->dec_init = true;
    /* Pixel origin of this chunk, relative to the data window. */
    long ox = tiled ? cx * (long)tw : 0;
    long oy = tiled ? cy * (long)th : cy * lines;
    if (!core_set_targets(j, ox, oy))
        return false;
    if ((rv = exr_decoding_choose_default_routines(j->ctx, j->part, &j->dec)) !=
            EXR_ERR_SUCCESS ||
        (rv = exr_decoding_run(j->ctx, j->part, &j->dec)) != EXR_ERR_SUCCESS) {
        fail(&j->src, rv, "decoding pixels", j->why, j->wl);
        return false;
    }
    return true;
}

/* Decodes every chunk of level 0, in file-independent order. */
static bool core_read_chunks(core_job *j)
{
    long w = (long)j->dw.max.x - j->dw.min.x + 1, h = (long)j->dw.max.y - j->dw.min.y + 1;
    uint32_t tw = 0, th = 0;
    int32_t lines = 1;
    long ncx = 1, ncy;
    exr_result_t rv;
    if (j->storage == EXR_STORAGE_TILED) {
        exr_tile_level_mode_t lm;
        exr_tile_round_mode_t rm;
        if ((rv = exr_get_tile_descriptor(j->ctx, j->part, &tw, &th, &lm, &rm)) !=
                EXR_ERR_SUCCESS ||
            tw == 0 || th == 0) {
            fail(&j->src, rv, "reading the tile description", j->why, j->wl);
            return false;
        }
        ncx = (w + (long)tw - 1) / (long)tw;
        ncy = (h + (long)th - 1) / (long)th;
    } else {
        if ((rv = exr_get_scanlines_per_chunk(j->ctx, j->part, &lines)) != EXR_ERR_SUCCESS ||
            lines < 1) {
            fail(&j->src, rv, "reading the chunk layout", j->why, j->wl);
            return false;
        }
        ncy = (h + lines - 1) / lines;
    }
    for (long cy = 0; cy < ncy; cy++)
        for (long cx = 0; cx < ncx; cx++)
            if (!core_decode_chunk(j, cx, cy, lines, tw, th))
                return false;
    return true;
}

/* Converts every plane's samples to floats into planes[].v. */
static bool core_to_float(core_job *j)
{
    for (int p = 0; p < j->nplanes; p++) {
        size_t n = (size_t)j->planes[p].nx * (size_t)j->planes[p].ny;
        float *v = malloc((n ? n : 1) * sizeof *v);
        if (!v) {
            snprintf(j->why, j->wl, "out of memory");
            return false;
        }
        int type = j->types[p];
        for (size_t i = 0; i < n; i++) {
            const uint8_t *q = j->raws[p] + i * (type == EXR_PIXEL_HALF ? 2 : 4);
            if (type == EXR_PIXEL_HALF) {
                uint16_t hv;
                memcpy(&hv, q, 2);
                v[i] = image_half_to_float(hv);
            } else if (type == EXR_PIXEL_FLOAT) {
                memcpy(&v[i], q, 4);
            } else {
                uint32_t u;
                memcpy(&u, q, 4);
                v[i] = (float)u;
            }
        }
        j->planes[p].v = v;
    }
    return true;
}

static void core_job_free(core_job *j)
{
    if (j->dec_init)
        exr_decoding_destroy(j->ctx, &j->dec);
    if (j->ctx)
        exr_finish(&j->ctx);
    if (j->raws)
        for (int p = 0; p < j->nplanes; p++)
            free(j->raws[p]);
    free(j->raws);
    free(j->types);
}

bool image_openexr_decode(const uint8_t *data, size_t size, int part, exr_plane *planes,
                          int nplanes, char *why, size_t wl)
{
    core_job j = {.src = {data, size, ""}, .dec = EXR_DECODE_PIPELINE_INITIALIZER,
                  .part = part, .planes = planes, .nplanes = nplanes, .why = why, .wl = wl};
    for (int p = 0; p < nplanes; p++) {
        planes[p].v = NULL;
        planes[p].nx = planes[p].ny = 0;
    }
    j.raws = calloc((size_t)nplanes, sizeof *j.raws);
    j.types = calloc((size_t)nplanes, sizeof *j.types);
    bool ok = false;
    if (!j.raws || !j.types)
        snprintf(why, wl, "out of memory");
    else
        ok = core_open(&j) && core_alloc_planes(&j) && core_read_chunks(&j) && core_to_float(&j);
    core_job_free(&j);
    if (!ok)
        for (int p = 0; p < nplanes; p++) {
            free(planes[p].v);
            planes[p].v = NULL;
        }
    return ok;
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

bool image_openexr_decode(const uint8_t *data, size_t size, int part, exr_plane *planes,
                          int nplanes, char *why, size_t wl)
{
    (void)data;
    (void)size;
    (void)part;
    for (int p = 0; p < nplanes; p++)
        planes[p].v = NULL;
    snprintf(why, wl, "this hdrtone was built without the OpenEXR library (libopenexr-dev)");
    return false;
}

#endif
