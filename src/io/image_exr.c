/* OpenEXR decoding from memory: half R,G,B / Y views straight into the half floats the GPU
 * uploads by OpenEXR's C++ library (exr_cxx.cpp); the rest through tinyexr (Debian 1.0.1) or
 * OpenEXRCore (image_openexr.c) for what tinyexr cannot decode (PXR24, B44, B44A, DWAA, DWAB,
 * subsampled channels) — decided from the headers, never by trying one decoder after the
 * other.
 *
 * No decoder sees a file before exr_validate (exr_validate.c) has accepted its structure;
 * exr_select.c chooses the part and the channels that make R, G, B, A; this file decodes
 * those channels and assembles the RGBA image. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "exr_select.h"
#include "parallel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tinyexr.h>

/* ---- tinyexr decoding into planes ---- */

/* Copies channel C of tinyexr's decoded part into a W x H float plane. */
static float *tiny_plane(const EXRHeader *h, EXRImage *im, int c, int w, int hgt, char *why,
                         size_t wl)
{
    bool is_uint = h->pixel_types[c] == TINYEXR_PIXELTYPE_UINT; /* HALF was asked as FLOAT */
    if (!h->tiled && !is_uint && im->images && im->images[c] && im->width == w &&
        im->height == hgt) {
        /* A float scanline channel is already the plane: take it over instead of copying
         * (an 8K channel is 133 MB). FreeEXRImage skips the NULL left behind. */
        float *own = (float *)(void *)im->images[c];
        im->images[c] = NULL;
        return own;
    }
    float *v = calloc((size_t)w * (size_t)hgt, sizeof *v);
    if (!v) {
        snprintf(why, wl, "out of memory (%d x %d)", w, hgt);
        return NULL;
    }
    if (h->tiled) {
        /* Level 0 only: with one-level and mipmap modes that is the first EXRImage; tiles
         * were checked to lie inside the data window. */
        for (int t = 0; t < im->num_tiles; t++) {
            const EXRTile *tile = &im->tiles[t];
            int x0 = tile->offset_x * h->tile_size_x, y0 = tile->offset_y * h->tile_size_y;
            int bw = tile->width, bh = tile->height;
            if (tile->level_x != 0 || tile->level_y != 0 || x0 < 0 || y0 < 0 || bw < 0 ||
                bh < 0 || x0 + bw > w || y0 + bh > hgt || !tile->images || !tile->images[c]) {
                snprintf(why, wl, "damaged tile %d", t);
                free(v);
                return NULL;
            }
            for (int y = 0; y < bh; y++)
                for (int x = 0; x < bw; x++) {
                    size_t i = (size_t)y * (size_t)h->tile_size_x + (size_t)x;
                    const unsigned char *pl = tile->images[c];
                    v[(size_t)(y0 + y) * (size_t)w + (size_t)(x0 + x)] =
                        is_uint ? (float)((const uint32_t *)(const void *)pl)[i]
                                : ((const float *)(const void *)pl)[i];
                }
        }
        return v;
    }
    if (!im->images || !im->images[c] || im->width != w || im->height != hgt) {
        snprintf(why, wl, "OpenEXR decoder returned no pixels");
        free(v);
        return NULL;
    }
    size_t n = (size_t)w * (size_t)hgt;
    for (size_t i = 0; i < n; i++)
        v[i] = is_uint ? (float)((const uint32_t *)(const void *)im->images[c])[i]
                       : ((const float *)(const void *)im->images[c])[i];
    return v;
}


/* What tinyexr holds during one decode; tiny_free releases it. */
typedef struct tiny_state {
    bool multipart;
    EXRHeader single;      /* the header of a single-part file */
    EXRHeader **headers;   /* the nheaders headers of a multi-part file */
    int nheaders;
    EXRImage *images;      /* nheaders */
    bool single_loaded;    /* images[0] of a single-part file holds pixels to free */
    const char *terr;      /* tinyexr's error message, to free */
} tiny_state;

static EXRHeader *tiny_header(tiny_state *t, int k)
{
    return t->multipart ? t->headers[k] : &t->single;
}

/* Reads the headers with tinyexr (NPARTS of them) and asks for halves as floats. */
static bool tiny_parse(tiny_state *t, const uint8_t *data, size_t size, int nparts, char *why,
                       size_t wl)
{
    EXRVersion version;
    int ret = ParseEXRVersionFromMemory(&version, data, size);
    if (ret != TINYEXR_SUCCESS) {
        snprintf(why, wl, "not a readable OpenEXR file (tinyexr error %d)", ret);
        return false;
    }
    if (t->multipart) {
        ret = ParseEXRMultipartHeaderFromMemory(&t->headers, &t->nheaders, &version, data, size,
                                                &t->terr);
        if (ret != TINYEXR_SUCCESS || t->nheaders != nparts) {
            snprintf(why, wl, "cannot read the OpenEXR headers: %s",
                     t->terr ? t->terr : "inconsistent part count");
            return false;
        }
    } else {
        ret = ParseEXRHeaderFromMemory(&t->single, &version, data, size, &t->terr);
        if (ret != TINYEXR_SUCCESS) {
            snprintf(why, wl, "cannot read the OpenEXR header: %s",
                     t->terr ? t->terr : "unknown error");
            return false;
        }
        t->nheaders = 1;
    }
    for (int k = 0; k < t->nheaders; k++) {
        EXRHeader *h = tiny_header(t, k);
        for (int c = 0; c < h->num_channels; c++)
            if (h->pixel_types[c] == TINYEXR_PIXELTYPE_HALF)
                h->requested_pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;
        /* tinyexr stores decreasing-order scanlines bottom-up (a vertical flip) and flips
         * rows inside each tile. Each chunk carries its own coordinates, so with the order
         * set to increasing every row lands where it belongs: this is the flip, done right
         * for tiles too. */
        h->line_order = 0;
    }
    return true;
}

/* Decodes the pixels of every part (that is how tinyexr finds the chunk tables). */
static bool tiny_load(tiny_state *t, const uint8_t *data, size_t size, char *why, size_t wl)
{
    /* nheaders >= 1 after tiny_parse; the bound tells the compiler. */
    t->images = calloc(t->nheaders > 0 ? (size_t)t->nheaders : 1, sizeof *t->images);
    if (!t->images) {
        snprintf(why, wl, "out of memory");
        return false;
    }
    for (int k = 0; k < t->nheaders; k++) {
        InitEXRImage(&t->images[k]);
        /* tinyexr sets num_channels only on success, yet frees a failed image with
         * FreeEXRImage, which walks num_channels: set it now so that cleanup frees the
         * channel buffers instead of leaking them (found by scripts/fuzz). */
        t->images[k].num_channels = tiny_header(t, k)->num_channels;
    }
    int ret;
    if (t->multipart) {
        ret = LoadEXRMultipartImageFromMemory(t->images, (const EXRHeader **)t->headers,
                                              (unsigned)t->nheaders, data, size, &t->terr);
    } else {
        ret = LoadEXRImageFromMemory(&t->images[0], &t->single, data, size, &t->terr);
        /* On failure tinyexr has already freed (without clearing) what it allocated. */
        t->single_loaded = ret == TINYEXR_SUCCESS;
    }
    if (ret != TINYEXR_SUCCESS) {
        snprintf(why, wl, "cannot decode the OpenEXR pixels: %s",
                 t->terr ? t->terr : "unknown error");
        return false;
    }
    return true;
}

/* Takes the PLANES (by channel name) of part PART out of what tiny_load decoded. */
static bool tiny_take_planes(tiny_state *t, int part, exr_plane *planes, int nplanes,
                             char *why, size_t wl)
{
    EXRHeader *h = tiny_header(t, part);
    int w = h->data_window.max_x - h->data_window.min_x + 1;
    int hgt = h->data_window.max_y - h->data_window.min_y + 1;
    for (int p = 0; p < nplanes; p++) {
        int c = 0;
        while (c < h->num_channels && strcmp(h->channels[c].name, planes[p].name) != 0)
            c++;
        if (c == h->num_channels) {
            snprintf(why, wl, "channel '%s' not found by tinyexr", planes[p].name);
            return false;
        }
        planes[p].v = tiny_plane(h, &t->images[part], c, w, hgt, why, wl);
        if (!planes[p].v)
            return false;
        planes[p].nx = w;
        planes[p].ny = hgt;
    }
    return true;
}

static void tiny_free(tiny_state *t)
{
    if (t->images) {
        if (t->multipart) {
            for (int k = 0; k < t->nheaders; k++) {
                /* A failed scanline decode returns before recording the channel count. */
                if (t->images[k].images && t->images[k].num_channels == 0)
                    t->images[k].num_channels = t->headers[k]->num_channels;
                FreeEXRImage(&t->images[k]);
            }
        } else if (t->single_loaded) {
            FreeEXRImage(&t->images[0]);
        }
        free(t->images);
    }
    if (t->headers) {
        for (int k = 0; k < t->nheaders; k++) {
            FreeEXRHeader(t->headers[k]);
            free(t->headers[k]);
        }
        free(t->headers);
    }
    FreeEXRHeader(&t->single);
    if (t->terr)
        FreeEXRErrorMessage(t->terr);
}

/* Decodes PLANES (by channel name) of part PART with tinyexr; on failure they are left
 * empty. */
static bool tiny_decode(const uint8_t *data, size_t size, bool multipart, int nparts, int part,
                        exr_plane *planes, int nplanes, char *why, size_t wl)
{
    tiny_state t = {.multipart = multipart};
    InitEXRHeader(&t.single);
    bool ok = tiny_parse(&t, data, size, nparts, why, wl) &&
              tiny_load(&t, data, size, why, wl) &&
              tiny_take_planes(&t, part, planes, nplanes, why, wl);
    tiny_free(&t);
    if (!ok)
        for (int p = 0; p < nplanes; p++) {
            free(planes[p].v);
            planes[p].v = NULL;
        }
    return ok;
}

/* ---- assembling RGBA ---- */

/* RGBA of a luminance/chroma view: chroma subsampled or at full resolution. */
static bool assemble_yc(const exr_part_info *p, exr_plane *planes, const int slot[VIEW_N],
                        const float *const pl[VIEW_N], int w, int hgt, float *rgba, char *why,
                        size_t wl)
{
    float yw[3];
    image_yca_weights(p->has_chroma ? p->chroma : NULL, yw);
    if (!(yw[1] != 0) || !isfinite(yw[0]) || !isfinite(yw[1]) || !isfinite(yw[2])) {
        snprintf(why, wl, "invalid chromaticities attribute");
        return false;
    }
    /* Chroma at full resolution: keep the samples at even x and y, as the 2,2 grid. */
    float *dec[2] = {NULL, NULL};
    int cw = (int)image_multiples(p->dw[0], p->dw[2], 2);
    int ch = (int)image_multiples(p->dw[1], p->dw[3], 2);
    const float *chroma[2] = {pl[VIEW_RY], pl[VIEW_BY]};
    for (int k = 0; k < 2; k++) {
        int s = slot[VIEW_RY + k];
        if (s < 0 || planes[s].nx == cw)
            continue;
        dec[k] = malloc(((size_t)cw * (size_t)ch + 1) * sizeof(float));
        if (!dec[k]) {
            free(dec[0]);
            snprintf(why, wl, "out of memory");
            return false;
        }
        int i = 0;
        for (int y = p->dw[1]; y <= p->dw[3]; y++)
            for (int x = p->dw[0]; x <= p->dw[2]; x++)
                if (!(x & 1) && !(y & 1))
                    dec[k][i++] = chroma[k][(size_t)(y - p->dw[1]) * (size_t)w +
                                            (size_t)(x - p->dw[0])];
        chroma[k] = dec[k];
    }
    bool ok = image_yca_to_rgba(p->dw[0], p->dw[1], w, hgt, pl[VIEW_Y], chroma[0], chroma[1],
                                cw, ch, pl[VIEW_A], yw, rgba);
    free(dec[0]);
    free(dec[1]);
    if (!ok)
        snprintf(why, wl, "out of memory");
    return ok;
}

/* Runs FN(ARG, BEGIN, END) over [0, N) cut into THREADS ranges, one per parallel_run
 * worker. */
typedef struct range_job {
    void (*fn)(void *arg, size_t begin, size_t end);
    void *arg;
    size_t n, t;
} range_job;

static void range_run(void *ctx, int worker)
{
    const range_job *j = ctx;
    size_t i = (size_t)worker;
    j->fn(j->arg, j->n * i / j->t, j->n * (i + 1) / j->t);
}

static void parallel_ranges(int threads, size_t n, void (*fn)(void *, size_t, size_t),
                            void *arg)
{
    int t = threads < 1 ? 1 : threads > HT_MAX_LOAD_THREADS ? HT_MAX_LOAD_THREADS : threads;
    if ((size_t)t > n)
        t = n > 0 ? (int)n : 1;
    range_job j = {fn, arg, n, (size_t)t};
    parallel_run(t, range_run, &j);
}

/* Interleaving planes into RGBA, pixels [begin, end) of it. */
typedef struct interleave {
    int mode;                 /* exr_view.mode: VIEW_GREY or R,G,B */
    const float *pl[VIEW_N];  /* each view channel's plane, NULL = none */
    float *rgba;
} interleave;

static void interleave_range(void *arg, size_t begin, size_t end)
{
    const interleave *a = arg;
    const float *const *pl = a->pl;
    for (size_t i = begin; i < end; i++) {
        float *d = a->rgba + i * 4;
        if (a->mode == VIEW_GREY) {
            d[0] = d[1] = d[2] = pl[VIEW_Y][i];
        } else {
            for (int c = 0; c < 3; c++)
                d[c] = pl[c] ? pl[c][i] : 0.0f;
        }
        d[3] = pl[VIEW_A] ? pl[VIEW_A][i] : 1.0f;
    }
}

/* RGBA from the view's planes, on THREADS threads. */
static bool assemble(const exr_part_info *p, const exr_view *v, exr_plane *planes,
                     const int slot[VIEW_N], int w, int hgt, int threads, float *rgba,
                     char *why, size_t wl)
{
    interleave a = {v->mode, {NULL}, rgba};
    for (int k = 0; k < VIEW_N; k++)
        a.pl[k] = slot[k] >= 0 ? planes[slot[k]].v : NULL;
    if (v->mode == VIEW_YC)
        return assemble_yc(p, planes, slot, a.pl, w, hgt, rgba, why, wl);
    parallel_ranges(threads, (size_t)w * (size_t)hgt, interleave_range, &a);
    return true;
}

/* ---- one load, step by step ---- */

/* Which decoder reads the part: tinyexr, OpenEXRCore, (DWA) the C++ RGBA interface, or
 * straight to half the C++ library or OpenEXRCore. */
typedef enum {
    DECODE_TINYEXR,
    DECODE_CORE,
    DECODE_RGBA,
    DECODE_HALF,
    DECODE_CORE_HALF
} exr_decoder;
static const char *const decoder_names[] = {"tinyexr", "OpenEXRCore", "OpenEXR RGBA", "OpenEXR",
                                            "OpenEXRCore"};

/* Everything one load holds; exr_load_free releases it, whichever step failed. */
typedef struct exr_load {
    exr_file file;
    int part;                 /* the part loaded */
    const exr_part_info *p;   /* = &file.parts[part] */
    exr_view view;
    int w, h;                 /* of the part's data window */
    exr_plane planes[VIEW_N]; /* the view's channels */
    int slot[VIEW_N];         /* the plane of each view channel, -1 = none */
    int nplanes;
    int threads;              /* decoding threads, resolved from the options */
    float *rgba;              /* w x h x 4; handed to the image on success */
    uint16_t *half;           /* w x h x 4 (DECODE_HALF); handed over too */
    const image_allocator *half_alloc; /* where half came from, NULL = the pool */
    bool half_only;           /* image_load_options.half_only */
    const image_allocator *alloc; /* image_load_options.half_alloc */
    const image_progress *progress; /* image_load_options.progress */
    char why[HT_ERR_MAX];     /* the reason of a failure, without the path */
} exr_load;

static void exr_load_free(exr_load *L)
{
    for (int k = 0; k < L->nplanes; k++)
        free(L->planes[k].v);
    image_pool_put(L->rgba, (size_t)L->w * (size_t)L->h * 4 * sizeof *L->rgba);
    if (L->half && L->half_alloc)
        L->half_alloc->put(L->half_alloc->ctx, L->half);
    else
        image_pool_put(L->half, (size_t)L->w * (size_t)L->h * 4 * sizeof *L->half);
    exr_file_free(&L->file);
}

/* Picks the part and its channels as OPTS asks, and lists the planes to decode. */
static bool select_view(exr_load *L, const image_load_options *opts)
{
    L->part = exr_pick_part(&L->file, opts->part, L->why, sizeof L->why);
    if (L->part < 0 ||
        !exr_pick_view(&L->file.parts[L->part], opts->layer, &L->view, L->why, sizeof L->why))
        return false;
    L->p = &L->file.parts[L->part];
    L->w = L->p->dw[2] - L->p->dw[0] + 1;
    L->h = L->p->dw[3] - L->p->dw[1] + 1;
    for (int k = 0; k < VIEW_N; k++) {
        L->slot[k] = -1;
        if (L->view.idx[k] < 0)
            continue;
        L->slot[k] = L->nplanes;
        L->planes[L->nplanes++] = (exr_plane){L->p->chans[L->view.idx[k]].name, 0, 0, NULL};
    }
    return true;
}

/* True (with the reason in L->why) when part P is DWA-compressed and the view is one that only
 * the C++ library could read but not through its RGBA interface, the one DWA path for views
 * that are not half: another part, a layer, or other channels. */
static bool dwa_refused(exr_load *L, const exr_part_info *p)
{
    bool dwa = p->compression == EXR_DWAA || p->compression == EXR_DWAB;
    if (!dwa || (L->part == 0 && !L->view.layer[0] && !L->view.fallback))
        return false;
    snprintf(L->why, sizeof L->why, "%s-compressed parts can only be read for part 0's "
                                    "un-prefixed R,G,B or Y channels unless they are half (the "
                                    "OpenEXR 3.1 C core has no DWA decoder)",
             exr_compression_name(p->compression));
    return true;
}

/* True when every channel of the view is HALF at full resolution, as R,G,B(,A) or grey: what
 * the C++ library writes straight into the RGBA half floats. */
static bool half_view(const exr_load *L)
{
    if (L->view.mode == VIEW_YC)
        return false;
    for (int k = 0; k < VIEW_N; k++) {
        const exr_chan *c = L->view.idx[k] >= 0 ? &L->p->chans[L->view.idx[k]] : NULL;
        if (c && (c->type != EXR_HALF || c->xs != 1 || c->ys != 1))
            return false;
    }
    return true;
}

/* True when the C++ library decodes PART: PIZ (2.3x faster than OpenEXRCore, measured on the
 * lent H200: BENCHMARKS.md, "Decoding straight to half floats"; its output is always whole,
 * even from a damaged chunk) and DWA (no other decoder here). Uncompressed data goes to
 * OpenEXRCore, faster there (46 against 75 ms a 4K frame); RLE, ZIP and ZIPS too: the C++
 * library 3.1 takes a chunk that decompresses short and leaves the rest of its line buffer,
 * stale memory, in the image; B44 and PXR24: OpenEXRCore's are as fast. */
static bool cxx_whole(const exr_part_info *p)
{
    return p->compression == EXR_PIZ || p->compression == EXR_DWAA ||
           p->compression == EXR_DWAB;
}

/* Uncompressed and DWAA data decode cheaply, the rest not (image_decode_cost's numbers; DWAB,
 * not measured, counted costly). */
static image_decode_cost exr_decode_cost(int compression)
{
    return compression == EXR_NO_COMPRESSION || compression == EXR_DWAA ? IMAGE_DECODE_CHEAP
                                                                        : IMAGE_DECODE_COSTLY;
}

/* A half view straight into the half floats, on as many threads as asked, by the C++ library
 * where it is safe (cxx_whole: the fastest of the three, BENCHMARKS.md, "Decoding straight to
 * half floats"), else by OpenEXRCore; else tinyexr on one thread unless the headers say it
 * cannot, OpenEXRCore on several (tinyexr decodes a file on one thread only, and OpenEXRCore
 * decodes chunks in parallel, the same pixels); refuses what no decoder of this build reads.
 * OPTS->decoder picks one where it can read the file. */
static bool choose_decoder(exr_load *L, const image_load_options *opts, exr_decoder *dec)
{
    const exr_file *f = &L->file;
    const exr_part_info *p = L->p;
    int want = opts->decoder;
    if (image_have_openexr() && half_view(L) && want != IMAGE_DECODER_TINYEXR) {
        bool dwa = p->compression == EXR_DWAA || p->compression == EXR_DWAB;
        bool cxx = cxx_whole(p) && (want != IMAGE_DECODER_CORE || dwa); /* Core has no DWA */
        *dec = cxx ? DECODE_HALF : DECODE_CORE_HALF;
        return true;
    }
    bool core = want == IMAGE_DECODER_CORE && image_have_openexr();
    uint64_t all_pixels = 0; /* tinyexr decodes every part of a file together */
    for (int k = 0; k < f->nparts; k++) {
        core = core || f->parts[k].needs_core;
        all_pixels += (uint64_t)((int64_t)f->parts[k].dw[2] - f->parts[k].dw[0] + 1) *
                      (uint64_t)((int64_t)f->parts[k].dw[3] - f->parts[k].dw[1] + 1);
    }
    if (!core && all_pixels > image_max_pixels(opts)) {
        if (!image_have_openexr()) {
            snprintf(L->why, sizeof L->why, "the parts together have %llu pixels, more than "
                                            "the limit of %llu pixels (--max-pixels), and "
                                            "without the OpenEXR library they can only be "
                                            "decoded together",
                     (unsigned long long)all_pixels, (unsigned long long)image_max_pixels(opts));
            return false;
        }
        core = true; /* decodes only the part asked for */
    }
    if (L->threads > 1 && image_have_openexr() && want != IMAGE_DECODER_TINYEXR)
        core = true;
    if (core && !image_have_openexr()) {
        const exr_part_info *q = p->needs_core ? p : f->parts;
        for (int k = 0; !p->needs_core && k < f->nparts; k++)
            if (f->parts[k].needs_core)
                q = &f->parts[k];
        char reason[96];
        if (q->compression > EXR_PIZ)
            snprintf(reason, sizeof reason, "%s compression",
                     exr_compression_name(q->compression));
        else
            snprintf(reason, sizeof reason, "subsampled channels (luminance/chroma)");
        snprintf(L->why, sizeof L->why, "%s%s needs the OpenEXR library, and this hdrtone was "
                                        "built without it (install libopenexr-dev and rebuild)",
                 reason, q == p ? "" : " in another part");
        return false;
    }
    bool dwa = p->compression == EXR_DWAA || p->compression == EXR_DWAB;
    if (dwa_refused(L, p))
        return false;
    *dec = dwa ? DECODE_RGBA : core ? DECODE_CORE : DECODE_TINYEXR;
    return true;
}

/* Decodes the planes with DEC, or (DECODE_RGBA) the RGBA image itself. */
/* Grey views: R (decoded from Y) copied into G and B, pixels [begin, end). */
static void grey_range(void *arg, size_t begin, size_t end)
{
    uint16_t *px = arg;
    for (size_t i = begin; i < end; i++)
        px[i * 4 + 1] = px[i * 4 + 2] = px[i * 4];
}

/* Rows of one chunk of part P: its tiles' height, or its compression's scanlines. */
static int chunk_rows(const exr_part_info *p)
{
    return p->tiled ? (int)p->tile_h : exr_lines_per_chunk(p->compression);
}

/* Decodes the view straight into L->half with DEC (the C++ library or OpenEXRCore). */
static bool decode_half(exr_load *L, const uint8_t *data, size_t size, exr_decoder dec)
{
    L->nplanes = 0; /* no planes: the library writes the RGBA halves itself */
    size_t n = (size_t)L->w * (size_t)L->h, bytes = n * 4 * sizeof *L->half;
    const image_allocator *al = L->half_only ? L->alloc : NULL;
    if (al && (L->half = al->get(al->ctx, bytes)))
        L->half_alloc = al;
    else if (!(L->half = image_pool_get(bytes))) {
        snprintf(L->why, sizeof L->why, "out of memory (%d x %d)", L->w, L->h);
        return false;
    }
    const exr_view *v = &L->view;
    bool grey = v->mode == VIEW_GREY, core = dec == DECODE_CORE_HALF;
    /* Grey: OpenEXRCore copies Y into G and B per chunk (its rows final as they land), the
     * C++ library leaves them to grey_range afterwards (and tells no progress). */
    const int from[4] = {grey ? VIEW_Y : VIEW_R, !grey ? VIEW_G : core ? VIEW_Y : -1,
                         !grey ? VIEW_B : core ? VIEW_Y : -1, VIEW_A};
    const char *names[4];
    for (int k = 0; k < 4; k++)
        names[k] = from[k] >= 0 && v->idx[from[k]] >= 0 ? L->p->chans[v->idx[from[k]]].name
                                                        : NULL;
    bool ok = core ? image_openexr_core_half(data, size, L->part, names, L->threads, L->half,
                                             L->progress, L->why, sizeof L->why)
                   : image_openexr_half_progress(data, size, L->part, names, L->threads,
                                                 L->half, grey ? NULL : L->progress,
                                                 chunk_rows(L->p), L->why, sizeof L->why);
    if (!ok)
        return false;
    if (grey && !core)
        parallel_ranges(L->threads, n, grey_range, L->half);
    return true;
}

static bool decode(exr_load *L, const char *path, const uint8_t *data, size_t size,
                   exr_decoder dec)
{
    if (dec == DECODE_HALF || dec == DECODE_CORE_HALF)
        return decode_half(L, data, size, dec);
    if (dec == DECODE_RGBA) {
        L->nplanes = 0; /* the RGBA interface picks the channels itself, as our view does */
        L->rgba = image_pool_get((size_t)L->w * (size_t)L->h * 4 * sizeof(float));
        if (!L->rgba) {
            snprintf(L->why, sizeof L->why, "out of memory (%d x %d)", L->w, L->h);
            return false;
        }
        return image_openexr_rgba(path, L->p->dw, L->rgba, L->why, sizeof L->why);
    }
    if (dec == DECODE_CORE)
        return image_openexr_decode(data, size, L->part, L->threads, L->planes, L->nplanes,
                                    L->why, sizeof L->why);
    return tiny_decode(data, size, L->file.multipart, L->file.nparts, L->part, L->planes,
                       L->nplanes, L->why, sizeof L->why);
}

/* Checks the decoded planes' sizes and assembles them into L->rgba. */
static bool make_rgba(exr_load *L, exr_decoder dec)
{
    for (int k = 0; k < L->nplanes; k++) {
        bool full = !(k == L->slot[VIEW_RY] || k == L->slot[VIEW_BY]);
        if (full && (L->planes[k].nx != L->w || L->planes[k].ny != L->h)) {
            snprintf(L->why, sizeof L->why, "decoder returned a %d x %d channel for a %d x %d "
                                            "image",
                     L->planes[k].nx, L->planes[k].ny, L->w, L->h);
            return false;
        }
    }
    bool half = dec == DECODE_HALF || dec == DECODE_CORE_HALF;
    if (dec == DECODE_RGBA || (half && L->half_only))
        return true;
    if (half) { /* floats wanted: made from the halves (exact), which go */
        size_t n = (size_t)L->w * (size_t)L->h * 4;
        if (!(L->rgba = image_pool_get(n * sizeof *L->rgba))) {
            snprintf(L->why, sizeof L->why, "out of memory (%d x %d)", L->w, L->h);
            return false;
        }
        image_half_to_rgba(L->half, n, L->rgba);
        return true;
    }
    L->rgba = image_pool_get((size_t)L->w * (size_t)L->h * 4 * sizeof(float));
    if (!L->rgba) {
        snprintf(L->why, sizeof L->why, "out of memory (%d x %d)", L->w, L->h);
        return false;
    }
    return assemble(L->p, &L->view, L->planes, L->slot, L->w, L->h, L->threads, L->rgba,
                    L->why, sizeof L->why);
}

/* Moves the pixels into IMG and describes the file. */
/* The part's chromaticities and adoptedNeutral (absent: the default, Rec. 709). Checked by
 * colour_check where they are used: a degenerate one is refused there with its reason. */
static void exr_colour(const exr_part_info *p, image_colour *c)
{
    memset(c, 0, sizeof *c);
    if (!p->has_chroma)
        return;
    for (int k = 0; k < 8; k++)
        c->xy[k / 2][k % 2] = p->chroma[k];
    c->source = IMAGE_COLOUR_CHROMATICITIES;
    if (p->has_adopted) {
        c->adopted[0] = p->adopted[0];
        c->adopted[1] = p->adopted[1];
        c->source = IMAGE_COLOUR_ADOPTED_NEUTRAL;
    }
}

static void fill_image(exr_load *L, exr_decoder dec, hdr_image *img)
{
    const exr_part_info *p = L->p;
    bool all_half = true;
    for (int k = 0; k < VIEW_N; k++)
        if (L->view.idx[k] >= 0 && p->chans[L->view.idx[k]].type != EXR_HALF)
            all_half = false;
    if (L->view.mode == VIEW_YC) /* the reconstruction rounds every value to half */
        all_half = true;
    img->width = L->w;
    img->height = L->h;
    img->rgba = L->rgba;
    L->rgba = NULL;
    if (!img->rgba) { /* half_only: the halves are the image */
        img->half = L->half;
        img->half_alloc = L->half_alloc;
        L->half = NULL;
    }
    snprintf(img->decoder, sizeof img->decoder, "%s", decoder_names[dec]);
    memcpy(img->data_window, p->dw, sizeof p->dw);
    memcpy(img->display_window, p->disp, sizeof p->disp);
    img->half_exact = all_half;
    snprintf(img->format, sizeof img->format, "OpenEXR");
    exr_describe_channels(p, img->channels, sizeof img->channels);
    snprintf(img->compression, sizeof img->compression, "%s",
             exr_compression_name(p->compression));
    img->decode_cost = exr_decode_cost(p->compression);
    snprintf(img->rgb_source, sizeof img->rgb_source, "%s", L->view.rgb_source);
    img->part = L->part;
    img->part_count = L->file.nparts;
    snprintf(img->part_name, sizeof img->part_name, "%s", p->name);
    snprintf(img->layer, sizeof img->layer, "%s", L->view.layer);
    img->parts = exr_describe_parts(&L->file);
    img->exposure = 1.0;
    img->white_luminance = p->white_luminance;
    exr_colour(p, &img->colour);
}

bool image_load_exr(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    if (!opts)
        opts = &image_load_defaults;
    exr_load L;
    memset(&L, 0, sizeof L);
    exr_decoder dec;
    bool ok = false;
    L.threads = image_load_threads(opts);
    L.half_only = opts->half_only;
    L.alloc = opts->half_alloc;
    L.progress = opts->progress;
    if (!exr_validate(data, size, &L.file, L.why, sizeof L.why) || !select_view(&L, opts))
        goto fail;
    if (!image_check_pixels(path, (uint64_t)L.w, (uint64_t)L.h, opts, err, errlen))
        goto done; /* err is written */
    if (!choose_decoder(&L, opts, &dec) || !decode(&L, path, data, size, dec) ||
        !make_rgba(&L, dec))
        goto fail;
    fill_image(&L, dec, img);
    exr_meta_add(img, data, size, L.p->header_pos);
    ok = true;
    goto done;
fail:
    snprintf(err, errlen, "%s: %s", path, L.why);
done:
    exr_load_free(&L);
    return ok;
}
