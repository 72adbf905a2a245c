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

bool image_openexr_decode(const uint8_t *data, size_t size, int part, exr_plane *planes,
                          int nplanes, char *why, size_t wl)
{
    core_src src = {data, size, ""};
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &src;
    init.read_fn = core_read;
    init.size_fn = core_size;
    init.error_handler_fn = core_error;
    init.flags = EXR_CONTEXT_FLAG_DISABLE_CHUNK_RECONSTRUCTION;
    exr_context_t ctx = NULL;
    exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
    bool dec_init = false, ok = false;
    uint8_t **raws = calloc((size_t)nplanes, sizeof *raws);
    int *types = calloc((size_t)nplanes, sizeof *types);
    for (int p = 0; p < nplanes; p++) {
        planes[p].v = NULL;
        planes[p].nx = planes[p].ny = 0;
    }
    if (!raws || !types) {
        snprintf(why, wl, "out of memory");
        goto done;
    }

    exr_result_t rv = exr_start_read(&ctx, "(memory)", &init);
    if (rv != EXR_ERR_SUCCESS) {
        fail(&src, rv, "reading the header", why, wl);
        goto done;
    }
    int count = 0;
    exr_storage_t storage;
    exr_attr_box2i_t dw;
    const exr_attr_chlist_t *chl = NULL;
    if ((rv = exr_get_count(ctx, &count)) != EXR_ERR_SUCCESS || part < 0 || part >= count ||
        (rv = exr_get_storage(ctx, part, &storage)) != EXR_ERR_SUCCESS ||
        (rv = exr_get_data_window(ctx, part, &dw)) != EXR_ERR_SUCCESS ||
        (rv = exr_get_channels(ctx, part, &chl)) != EXR_ERR_SUCCESS || !chl) {
        fail(&src, rv, "reading the part's header", why, wl);
        goto done;
    }
    if (storage != EXR_STORAGE_SCANLINE && storage != EXR_STORAGE_TILED) {
        snprintf(why, wl, "deep images are not supported");
        goto done;
    }
    long w = (long)dw.max.x - dw.min.x + 1, h = (long)dw.max.y - dw.min.y + 1;
    /* Native-type planes of each wanted channel's sample grid. */
    for (int p = 0; p < nplanes; p++) {
        int c = 0;
        for (; c < chl->num_channels; c++)
            if (strcmp(chl->entries[c].name.str, planes[p].name) == 0)
                break;
        if (c == chl->num_channels) {
            snprintf(why, wl, "OpenEXR library: channel '%s' not found", planes[p].name);
            goto done;
        }
        const exr_attr_chlist_entry_t *e = &chl->entries[c];
        if (e->x_sampling < 1 || e->y_sampling < 1) {
            snprintf(why, wl, "channel has invalid sampling");
            goto done;
        }
        planes[p].nx = (int)image_multiples(dw.min.x, dw.max.x, e->x_sampling);
        planes[p].ny = (int)image_multiples(dw.min.y, dw.max.y, e->y_sampling);
        types[p] = (int)e->pixel_type;
        size_t bpe = e->pixel_type == EXR_PIXEL_HALF ? 2 : 4;
        raws[p] = calloc((size_t)planes[p].nx * (size_t)planes[p].ny + 1, bpe);
        if (!raws[p]) {
            snprintf(why, wl, "out of memory");
            goto done;
        }
    }

    /* Chunks of level 0, in file-independent order. */
    uint32_t tw = 0, th = 0;
    int32_t lines = 1;
    long ncx = 1, ncy;
    if (storage == EXR_STORAGE_TILED) {
        exr_tile_level_mode_t lm;
        exr_tile_round_mode_t rm;
        if ((rv = exr_get_tile_descriptor(ctx, part, &tw, &th, &lm, &rm)) != EXR_ERR_SUCCESS ||
            tw == 0 || th == 0) {
            fail(&src, rv, "reading the tile description", why, wl);
            goto done;
        }
        ncx = (w + (long)tw - 1) / (long)tw;
        ncy = (h + (long)th - 1) / (long)th;
    } else {
        if ((rv = exr_get_scanlines_per_chunk(ctx, part, &lines)) != EXR_ERR_SUCCESS ||
            lines < 1) {
            fail(&src, rv, "reading the chunk layout", why, wl);
            goto done;
        }
        ncy = (h + lines - 1) / lines;
    }
    for (long cy = 0; cy < ncy; cy++) {
        for (long cx = 0; cx < ncx; cx++) {
            exr_chunk_info_t ci;
            if (storage == EXR_STORAGE_TILED)
                rv = exr_read_tile_chunk_info(ctx, part, (int)cx, (int)cy, 0, 0, &ci);
            else
                rv = exr_read_scanline_chunk_info(ctx, part, (int)(dw.min.y + cy * lines), &ci);
            if (rv != EXR_ERR_SUCCESS) {
                fail(&src, rv, "locating a chunk", why, wl);
                goto done;
            }
            rv = dec_init ? exr_decoding_update(ctx, part, &ci, &dec)
                          : exr_decoding_initialize(ctx, part, &ci, &dec);
            if (rv != EXR_ERR_SUCCESS) {
                fail(&src, rv, "preparing to decode", why, wl);
                goto done;
            }
            dec_init = true;
            /* Pixel origin of this chunk, relative to the data window. */
            long ox = storage == EXR_STORAGE_TILED ? cx * (long)tw : 0;
            long oy = storage == EXR_STORAGE_TILED ? cy * (long)th : cy * lines;
            for (int c = 0; c < dec.channel_count; c++) {
                exr_coding_channel_info_t *ch = &dec.channels[c];
                ch->decode_to_ptr = NULL;
                for (int p = 0; p < nplanes; p++) {
                    if (strcmp(ch->channel_name, planes[p].name) != 0)
                        continue;
                    int bpe = types[p] == EXR_PIXEL_HALF ? 2 : 4;
                    long xs = ch->x_samples, ys = ch->y_samples;
                    if (xs < 1 || ys < 1)
                        break;
                    /* Sample coordinates of the chunk's first sample in the plane. */
                    long sx = image_multiples(dw.min.x, dw.min.x + ox - 1, xs);
                    long sy = image_multiples(dw.min.y, dw.min.y + oy - 1, ys);
                    if (ch->width < 0 || ch->height < 0 || sx + ch->width > planes[p].nx ||
                        sy + ch->height > planes[p].ny || ch->bytes_per_element != bpe) {
                        snprintf(why, wl, "OpenEXR library: chunk of channel '%s' does not "
                                          "fit the data window", planes[p].name);
                        goto done;
                    }
                    ch->user_bytes_per_element = (int16_t)bpe;
                    ch->user_data_type = (uint16_t)types[p];
                    ch->user_pixel_stride = bpe;
                    ch->user_line_stride = planes[p].nx * bpe;
                    ch->decode_to_ptr =
                        raws[p] + ((size_t)sy * (size_t)planes[p].nx + (size_t)sx) * (size_t)bpe;
                    break;
                }
            }
            if ((rv = exr_decoding_choose_default_routines(ctx, part, &dec)) !=
                    EXR_ERR_SUCCESS ||
                (rv = exr_decoding_run(ctx, part, &dec)) != EXR_ERR_SUCCESS) {
                fail(&src, rv, "decoding pixels", why, wl);
                goto done;
            }
        }
    }

    for (int p = 0; p < nplanes; p++) {
        size_t n = (size_t)planes[p].nx * (size_t)planes[p].ny;
        float *v = malloc((n ? n : 1) * sizeof *v);
        if (!v) {
            snprintf(why, wl, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            const uint8_t *q = raws[p] + i * (types[p] == EXR_PIXEL_HALF ? 2 : 4);
            if (types[p] == EXR_PIXEL_HALF) {
                uint16_t hv;
                memcpy(&hv, q, 2);
                v[i] = image_half_to_float(hv);
            } else if (types[p] == EXR_PIXEL_FLOAT) {
                memcpy(&v[i], q, 4);
            } else {
                uint32_t u;
                memcpy(&u, q, 4);
                v[i] = (float)u;
            }
        }
        planes[p].v = v;
    }
    ok = true;

done:
    if (dec_init)
        exr_decoding_destroy(ctx, &dec);
    if (ctx)
        exr_finish(&ctx);
    if (raws)
        for (int p = 0; p < nplanes; p++)
            free(raws[p]);
    free(raws);
    free(types);
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
