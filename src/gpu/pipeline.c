#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "pipeline_internal.h"
#include "upload_ring.h"

#define HT_PASS_NAME_(n) #n,
const char *const pipeline_pass_names[HT_PASS_COUNT] = {HT_PASSES(HT_PASS_NAME_)};
#undef HT_PASS_NAME_

pipeline *pipeline_create(char *err, size_t errlen)
{
    pipeline *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (!(p->histogram = pass_histogram_create(err, errlen)) ||
        !(p->range = pass_range_create(err, errlen)) ||
        !(p->merge = pass_merge_create(err, errlen)) ||
        !(p->curve = pass_curve_create(err, errlen)) ||
        !(p->apply = pass_apply_create(err, errlen)) ||
        !(p->foveal = pass_foveal_create(err, errlen)) ||
        !(p->veil = pass_veil_create(err, errlen))) {
        pipeline_destroy(&p);
        return NULL;
    }
    for (int i = 0; i <= HT_PASS_COUNT; i++)
        if (!(*(i < HT_PASS_COUNT ? &p->timer[i] : &p->frame_timer) =
                  gpu_timer_create(TIMER_DEPTH))) {
            snprintf(err, errlen, "out of memory");
            pipeline_destroy(&p);
            return NULL;
        }
    display_params_default(&p->display);
    /* The frame starts as zeros uploaded by glBufferSubData, not cleared: NVIDIA's driver (580,
     * H100) carried out a glClearBufferData of a buffer fresh from glBufferData after the next
     * glBufferSubData into it, so the clear wiped what pass_foveal_prepare wrote next (the
     * foveal grid, n_points, pt_min_bits 0x7f7fffff): the range pass saw a minimum luminance
     * of 0. Two uploads stay in order. */
    ht_frame *zero = calloc(1, sizeof *zero);
    if (!zero) {
        snprintf(err, errlen, "out of memory");
        pipeline_destroy(&p);
        return NULL;
    }
    gpu_buf_recreate(&p->buf.frame, sizeof(ht_frame));
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof *zero, zero);
    free(zero);
    gpu_buf_recreate(&p->buf.partials, 0);
    gpu_buf_recreate(&p->buf.tile_hist, 0);
    gpu_buf_recreate(&p->buf.tile_sums, 0);
    p->buf.range_fits = -1;
    return p;
}

void pipeline_destroy(pipeline **pp)
{
    if (!pp || !*pp)
        return;
    pipeline *p = *pp;
    pass_range_destroy(&p->range);
    pass_histogram_destroy(&p->histogram);
    pass_merge_destroy(&p->merge);
    pass_curve_destroy(&p->curve);
    pass_apply_destroy(&p->apply);
    pass_foveal_destroy(&p->foveal);
    pipeline_human_release(&p->human, true);
    pass_veil_destroy(&p->veil);
    gpu_buf *bufs[] = {&p->buf.frame, &p->buf.partials, &p->buf.tile_hist, &p->buf.tile_sums,
                       &p->buf.dispatch, &p->buf.veil, &p->buf.sample_radii,
                       &p->binnings};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        gpu_buf_destroy(bufs[i]);
    free(p->rebin_groups);
    free(p->first);
    pipeline_release_textures(p);
    gpu_buf_destroy(&p->staging);
    upload_ring_destroy(&p->ring);
    for (int i = 0; i < HT_PASS_COUNT; i++)
        gpu_timer_destroy(&p->timer[i]);
    gpu_timer_destroy(&p->frame_timer);
    free(p);
    *pp = NULL;
}

void pipeline_set_max_piece(pipeline *p, int size)
{
    p->max_piece = size > 0 ? size : 0;
}

/* Deletes the image's textures. */
static void release_image(pipeline *p)
{
    for (int i = 0; i < p->npieces; i++)
        glDeleteTextures(1, &p->pieces[i].src.texture);
    free(p->pieces);
    p->pieces = NULL;
    p->npieces = 0;
    p->image_w = p->image_h = 0;
}

/* The largest piece side: LIMIT (or the test knob, if smaller) rounded down to a multiple
 * of TILE, so that tiles never span two pieces. */
static int piece_side(int limit, int knob, int tile)
{
    int side = knob > 0 && knob < limit ? knob : limit;
    side -= side % tile;
    return side < tile ? tile : side;
}

/* New pixels for the one texture of the current image (IMG's size and format): HALF through
 * a pixel-buffer object (one copy into driver memory, then a DMA the GL thread does not wait
 * for; a plain upload from process memory runs at a third of the speed on an H100 host), or
 * IMG's floats, in strips (a driver converting float to half then needs a strip's worth of
 * temporary memory, not a whole second image). */
static bool refill(pipeline *p, const hdr_image *img, const uint16_t *half)
{
    int w = img->width, h = img->height;
    glBindTexture(GL_TEXTURE_2D, p->pieces[0].src.texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (half) {
        size_t bytes = (size_t)w * h * 4 * sizeof *half;
        upload_ring_prepare(p->ring, bytes);
        if (upload_ring_bind(p->ring, half)) { /* decoded into the buffer: nothing to copy */
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_HALF_FLOAT, NULL);
            upload_ring_uploaded(p->ring, half);
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
            return true;
        }
        gpu_buf_recreate_as(&p->staging, GL_PIXEL_UNPACK_BUFFER, bytes, GL_STREAM_DRAW);
        void *dst = glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, (GLsizeiptr)bytes,
                                     GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
        if (dst) {
            memcpy(dst, half, bytes);
            glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_HALF_FLOAT, NULL);
        }
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        if (!dst)   /* no mapping: straight from process memory */
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_HALF_FLOAT, half);
        return true;
    }
    for (int y = 0; y < h; y += 256)
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, w, h - y < 256 ? h - y : 256, GL_RGBA,
                        GL_FLOAT, img->rgba + (size_t)y * w * 4);
    return true;
}

/* The W x H piece of IMG at X0, Y0 as a new texture of FORMAT (GL_UNPACK_ROW_LENGTH set to
 * the image's width). */
static ht_piece upload_piece(const hdr_image *img, unsigned format, int x0, int y0, int w, int h)
{
    /* Half is lossless for half sources and halves the bytes every pass reads. */
    gpu_tex tex = {0};
    gpu_tex_recreate(&tex, w, h, format, 1);
    /* In strips: a driver converting float to half (Mesa does) then needs a strip's worth of
     * temporary memory, not a whole second image. */
    for (int y = 0; y < h; y += 256) {
        int n = h - y < 256 ? h - y : 256;
        size_t at = ((size_t)(y0 + y) * img->width + (size_t)x0) * 4;
        if (img->half)
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, w, n, GL_RGBA, GL_HALF_FLOAT, img->half + at);
        else
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, w, n, GL_RGBA, GL_FLOAT, img->rgba + at);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return (ht_piece){{tex.id, w, h, 1}, x0, y0};
}

bool pipeline_upload(pipeline *p, const hdr_image *img, char *err, size_t errlen)
{
    const uint16_t *half = img->half;
    p->uploads++;
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    if (img->width < 1 || img->height < 1) {
        snprintf(err, errlen, "%dx%d: an empty image", img->width, img->height);
        return false;
    }
    /* Wider or taller than one texture: a grid of pieces (pass.h), each at most the limit. */
    int pw = piece_side((int)max_size, p->max_piece, HT_TILE_X);
    int ph = piece_side((int)max_size, p->max_piece, HT_TILE_Y);
    int cols = (img->width + pw - 1) / pw, rows = (img->height + ph - 1) / ph;
    unsigned format = img->half_exact ? GL_RGBA16F : GL_RGBA32F;
    /* A stream of frames of one size (batch export) keeps its texture. */
    if (cols * rows == 1 && p->npieces == 1 && p->image_w == img->width &&
        p->image_h == img->height && p->image_format == format)
        return refill(p, img, half);
    release_image(p);
    if (!(p->pieces = calloc((size_t)cols * rows, sizeof *p->pieces))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    p->npieces = cols * rows;
    p->image_w = img->width;
    p->image_h = img->height;
    p->image_format = format;
    if (p->npieces == 1 && half) {
        gpu_tex tex = {0};
        gpu_tex_recreate(&tex, img->width, img->height, format, 1);
        p->pieces[0] = (ht_piece){{tex.id, img->width, img->height, 1}, 0, 0};
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        return refill(p, img, half);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, img->width);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int x0 = c * pw, y0 = r * ph;
            p->pieces[r * cols + c] = upload_piece(img, format, x0, y0,
                                                   img->width - x0 < pw ? img->width - x0 : pw,
                                                   img->height - y0 < ph ? img->height - y0 : ph);
        }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    return true;
}


const image_allocator *pipeline_upload_allocator(pipeline *p, int frames)
{
    if (!p->ring)
        p->ring = upload_ring_create(frames);
    return upload_ring_allocator(p->ring);
}

void pipeline_upload_notify(pipeline *p, void (*notify)(void *ctx), void *ctx)
{
    upload_ring_set_notify(p->ring, notify, ctx);
}

void pipeline_upload_serve(pipeline *p)
{
    upload_ring_serve(p->ring);
}

bool pipeline_upload_make_ahead(pipeline *p)
{
    return upload_ring_make_ahead(p->ring);
}

unsigned long pipeline_direct_uploads(const pipeline *p)
{
    return upload_ring_direct(p->ring);
}

ht_source pipeline_image_source(const pipeline *p)
{
    return p->npieces ? p->pieces[0].src : (ht_source){0, 0, 0, 1};
}

unsigned long pipeline_image_generation(const pipeline *p)
{
    return p->uploads;
}

int pipeline_image_pieces(const pipeline *p)
{
    return p->npieces;
}

ht_source pipeline_image_piece(const pipeline *p, int i, int *x, int *y)
{
    if (i < 0 || i >= p->npieces) {
        *x = *y = 0;
        return (ht_source){0, 0, 0, 1};
    }
    *x = p->pieces[i].x;
    *y = p->pieces[i].y;
    return p->pieces[i].src;
}

/* SRC as pieces: the whole image when SRC is the image source of an image in pieces, else
 * SRC alone (in ONE). */
static ht_pieces pieces_of(const pipeline *p, ht_source src, ht_piece *one)
{
    if (p->npieces > 1 && src.texture == p->pieces[0].src.texture && src.samples == 1)
        return (ht_pieces){p->pieces, p->npieces, p->image_w, p->image_h};
    *one = (ht_piece){src, 0, 0};
    return (ht_pieces){one, 1, src.width, src.height};
}

/* The re-binning's buffer (its indirect arguments, zero, then its groups per piece of IMG):
 * the groups uploaded when they change, all of it when it grows. False (reason in err) when
 * out of memory: the re-binning would then read arguments of another image. */
static bool ensure_dispatch(pipeline *p, const ht_pieces *img, char *err, size_t errlen)
{
    size_t n = (size_t)img->count * 3, bytes = 2 * n * sizeof(uint32_t);
    uint32_t *groups = calloc(n, sizeof *groups);
    if (!groups) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (int i = 0; i < img->count; i++) {
        const ht_source *src = &img->piece[i].src;
        groups[3 * i] = (uint32_t)((src->width + HT_TILE_X - 1) / HT_TILE_X);
        groups[3 * i + 1] = (uint32_t)((src->height + HT_TILE_Y - 1) / HT_TILE_Y);
        groups[3 * i + 2] = 1;
    }
    p->buf.pieces = img->count;
    if (gpu_buf_recreate(&p->buf.dispatch, bytes)) {
        void *zero = calloc(1, bytes);
        if (zero)   /* uploaded, not cleared: see pipeline_create */
            glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, zero);
        free(zero);
        p->rebin_pieces = 0;
    }
    if (p->rebin_pieces == img->count &&
        memcmp(p->rebin_groups, groups, n * sizeof *groups) == 0) {
        free(groups);
        return true;
    }
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(n * sizeof *groups),
                    (GLsizeiptr)(n * sizeof *groups), groups);
    free(p->rebin_groups);
    p->rebin_groups = groups;
    p->rebin_pieces = img->count;
    return true;
}

/* Sizes the per-tile buffers for a WIDTH x HEIGHT image. */
static void ensure_tiles(pipeline *p, int width, int height, int bins)
{
    p->buf.tiles_x = (width + HT_TILE_X - 1) / HT_TILE_X;
    p->buf.tiles_y = (height + HT_TILE_Y - 1) / HT_TILE_Y;
    size_t ntiles = (size_t)p->buf.tiles_x * p->buf.tiles_y;
    p->buf.merge_groups = (int)((ntiles + HT_MERGE_TILES - 1) / HT_MERGE_TILES);
    gpu_buf_recreate(&p->buf.partials, (size_t)p->buf.merge_groups * sizeof(float));
    gpu_buf_recreate(&p->buf.tile_sums, ntiles * sizeof(ht_tilesum));
    p->max_bins = bins > p->max_bins ? bins : p->max_bins;
    gpu_buf_recreate(&p->buf.tile_hist, ntiles * (size_t)p->max_bins * sizeof(uint32_t));
}

bool pipeline_pass_used(int pass, const tonemap_params *params)
{
    bool foveal = params->sampling == HT_SAMPLING_FOVEAL;
    switch (pass) {
    case HT_PASS_foveal:
        return foveal;
    case HT_PASS_points_gather:
    case HT_PASS_points_bin:
        return foveal && params->point_samples;
    case HT_PASS_veil:
        return human_requested(params);
    case HT_PASS_veil_histogram:
        return params->veil;
    case HT_PASS_sample_radii:
        return params->acuity;
    default:
        return pass >= 0 && pass < HT_PASS_COUNT;
    }
}

void pipeline_set_pass_timing(pipeline *p, bool on) { p->pass_timing = on; }

/* The texture the apply pass writes for SRC, and its format. */
static unsigned output_for(pipeline *p, ht_source src, unsigned *format)
{
    if (p->target) {
        *format = GL_RGBA8;
        return p->target;
    }
    gpu_tex_recreate(&p->out, src.width, src.height, p->want_format ? p->want_format : GL_RGBA8,
                     1);
    *format = p->out.format;
    return p->out.id;
}

bool pipeline_run_pass(pipeline *p, int pass, ht_source src, const tonemap_params *params,
                       char *err, size_t errlen)
{
    ht_piece one, fov = {pass_foveal_source(p->foveal), 0, 0};
    ht_pieces img = pieces_of(p, src, &one);
    /* Foveal sampling: the histogram passes read the foveal image, not SRC. */
    bool foveal = params->sampling == HT_SAMPLING_FOVEAL;
    ht_pieces fimg = {&fov, 1, fov.src.width, fov.src.height};
    const ht_pieces *a = foveal ? &fimg : &img;
    switch (pass) {
    case HT_PASS_foveal:
        /* Always: it also writes the frame's foveal and pcond fields. */
        pass_foveal_prepare(p->foveal, &img, &p->buf, params, 0);
        return !foveal || pass_foveal_run(p->foveal, &img, &p->buf, params, err, errlen);
    case HT_PASS_points_gather:
        return pass_foveal_gather(p->foveal, &img, &p->buf, params, err, errlen);
    case HT_PASS_histogram:
        pipeline_human_binning(p);
        ensure_tiles(p, a->width, a->height, params->bins);
        return ensure_dispatch(p, a, err, errlen) &&
               pass_histogram_run(p->histogram, a, &p->buf, params, err, errlen);
    case HT_PASS_range:
        return pass_range_run(p->range, (unsigned)a->width * (unsigned)a->height, &p->buf,
                              params, err, errlen);
    case HT_PASS_rebin:
        return pass_histogram_rebin(p->histogram, a, &p->buf, params, err, errlen);
    case HT_PASS_merge:
        return pass_merge_run(p->merge, &p->buf, err, errlen);
    case HT_PASS_points_bin:
        return pass_foveal_bin_points(p->foveal, &p->buf, err, errlen);
    case HT_PASS_curve:
        return pass_curve_run(p->curve, &p->buf, params, err, errlen);
    case HT_PASS_veil:
        return pipeline_human_veil(p, &img, params, err, errlen);
    case HT_PASS_veil_histogram:
        return pipeline_human_veil_histogram(p, src, &img, params, err, errlen);
    case HT_PASS_sample_radii:
        return pipeline_human_radii(p, &img, err, errlen);
    case HT_PASS_apply: {
        const pipeline_human *human;
        if (!pipeline_human_for_apply(p, src, &human, err, errlen))
            return false;
        unsigned format, out = output_for(p, src, &format);
        return pass_apply_run(p->apply, src, &p->buf, human, out, format, params, &p->display,
                              err, errlen);
    }
    default:
        snprintf(err, errlen, "no pass %d", pass);
        return false;
    }
}

/* PASS, with its own timer when timing per pass. */
static bool run_timed(pipeline *p, int pass, ht_source src, const tonemap_params *params,
                      char *err, size_t errlen)
{
    gpu_timer *t = p->pass_timing ? p->timer[pass] : NULL;
    gpu_timer_begin(t);
    bool ok = pipeline_run_pass(p, pass, src, params, err, errlen);
    gpu_timer_end(t);
    return ok;
}

/* Reads the times the GPU has finished and opens the frame's timer (per pass: none). */
static void begin_frame(pipeline *p)
{
    p->timings = (pipeline_timings){0};
    if (!p->pass_timing) {
        p->timings.total_ms = gpu_timer_poll(p->frame_timer);
        gpu_timer_begin(p->frame_timer);
        return;
    }
    for (int i = 0; i < HT_PASS_COUNT; i++)
        p->timings.total_ms += p->timings.ms[i] = gpu_timer_poll(p->timer[i]);
}

static void end_frame(pipeline *p)
{
    if (!p->pass_timing)
        gpu_timer_end(p->frame_timer);
}

/* The analysis passes, timed. */
static bool run_analysis(pipeline *p, ht_source src, const tonemap_params *params, char *err,
                         size_t errlen)
{
    p->human_on = false;
    for (int pass = HT_PASS_foveal; pass < HT_PASS_apply; pass++)
        if ((pass <= HT_PASS_curve || pipeline_pass_used(pass, params)) &&
            !run_timed(p, pass, src, params, err, errlen)) {
            /* No curve to apply, and no stage from an analysis that did not finish. */
            p->analysed = false;
            p->human_on = false;
            pipeline_human_after_analysis(p);
            return false;
        }
    pipeline_human_after_analysis(p);
    p->analysed = true;
    return true;
}

void pipeline_set_latency(pipeline *p, int frames)
{
    if (frames == 0 || frames == 1)
        p->latency = frames;
}

void pipeline_set_display(pipeline *p, const display_params *d)
{
    if (d)
        p->display = *d;
    else
        display_params_default(&p->display);
}

const display_params *pipeline_display(const pipeline *p)
{
    return &p->display;
}

/* Whether a frame takes the one-frame-latency form: asked for, with a curve to apply, pixel
 * sampling, no human-vision option (their analysis is not a histogram of the picture), and
 * one texture of one sample both analysed and applied. */
static bool latent(const pipeline *p, ht_source analysis, ht_source apply,
                   const tonemap_params *params)
{
    ht_piece one;
    return p->latency == 1 && p->analysed && p->display.mode == HT_VIEW_TONEMAP &&
           params->sampling == HT_SAMPLING_PIXELS &&
           !human_requested(params) && !p->human.grids.stages &&
           analysis.texture == apply.texture && analysis.samples == 1 && apply.samples == 1 &&
           analysis.width == apply.width && analysis.height == apply.height &&
           pieces_of(p, analysis, &one).count == 1;
}

/* A frame in the one-frame-latency form: the apply pass applies the frame's curve (the last
 * frame's analysis) to SRC and bins SRC's tiles as the histogram pass would, then the
 * finishing makes SRC's curve, for the next frame. */
static bool run_latent(pipeline *p, ht_source src, const tonemap_params *params, char *err,
                       size_t errlen)
{
    ht_piece one;
    ht_pieces img = pieces_of(p, src, &one);
    /* The foveal pass writes the frame's sampling fields the range reads. */
    if (!run_timed(p, HT_PASS_foveal, src, params, err, errlen))
        return false;
    ensure_tiles(p, src.width, src.height, params->bins);
    if (!ensure_dispatch(p, &img, err, errlen))
        return false;
    unsigned format, out = output_for(p, src, &format);
    gpu_timer *t = p->pass_timing ? p->timer[HT_PASS_apply] : NULL;
    gpu_timer_begin(t);
    bool ok = pass_apply_run_binned(p->apply, src, &p->buf, out, format, params, err, errlen);
    gpu_timer_end(t);
    for (int pass = HT_PASS_range; ok && pass <= HT_PASS_curve; pass++)
        ok = run_timed(p, pass, src, params, err, errlen);
    return ok;
}

static bool analyze(pipeline *p, ht_source src, const tonemap_params *params, char *err,
                    size_t errlen)
{
    begin_frame(p);
    bool ok = run_analysis(p, src, params, err, errlen);
    end_frame(p);
    return ok;
}

bool pipeline_frame(pipeline *p, ht_source analysis, ht_source apply,
                    const tonemap_params *params, char *err, size_t errlen)
{
    begin_frame(p);
    bool ok = latent(p, analysis, apply, params)
                  ? run_latent(p, apply, params, err, errlen)
                  : run_analysis(p, analysis, params, err, errlen) &&
                        run_timed(p, HT_PASS_apply, apply, params, err, errlen);
    end_frame(p);
    return ok;
}

void pipeline_release_textures(pipeline *p)
{
    release_image(p);
    gpu_tex_destroy(&p->out);
    pipeline_human_release(&p->human, false);
}

void pipeline_set_output(pipeline *p, unsigned texture) { p->target = texture; }
unsigned pipeline_output_texture(const pipeline *p) { return p->out.id; }
int pipeline_output_bits(const pipeline *p) { return p->out.format == GL_RGBA16 ? 16 : 8; }
unsigned pipeline_frame_buffer(const pipeline *p) { return p->buf.frame.id; }
pipeline_timings pipeline_last_timings(const pipeline *p) { return p->timings; }

void pipeline_read_result(pipeline *p, tonemap_result *r)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.frame.id);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof *r, r);
}

static void read_output(pipeline *p, void *rgb)
{
    glBindTexture(GL_TEXTURE_2D, p->out.id);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB,
                  p->out.format == GL_RGBA16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE, rgb);
}

bool pipeline_tonemap_image(pipeline *p, const hdr_image *img, const tonemap_params *params,
                            tonemap_result *r, uint8_t *rgb, char *err, size_t errlen)
{
    return pipeline_upload(p, img, err, errlen) &&
           pipeline_tonemap_uploaded(p, params, r, rgb, err, errlen);
}

void pipeline_read_rgb(pipeline *p, uint8_t *rgb)
{
    read_output(p, rgb);
}

/* The apply pass over every piece of an image in pieces, each read back into its place in
 * RGB (a W x H RGB8 or, for 16-bit output, RGB16 buffer) through the one output texture.
 * Last (or alone, when RGB is NULL) piece 0, so that the output texture then matches
 * pipeline_image_source as it does for one texture. Untimed: the read-backs would be inside
 * the queries. */
static bool apply_pieces(pipeline *p, const tonemap_params *params, void *rgb, char *err,
                         size_t errlen)
{
    for (int i = rgb ? p->npieces - 1 : 0; i >= 0; i--) {
        const ht_piece *pc = &p->pieces[i];
        if (!pipeline_run_pass(p, HT_PASS_apply, pc->src, params, err, errlen))
            return false;
        if (!rgb)
            continue;
        glBindTexture(GL_TEXTURE_2D, p->out.id);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glPixelStorei(GL_PACK_ROW_LENGTH, p->image_w);
        size_t px = p->out.format == GL_RGBA16 ? 6 : 3;
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB,
                      p->out.format == GL_RGBA16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE,
                      (uint8_t *)rgb + ((size_t)pc->y * p->image_w + (size_t)pc->x) * px);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    }
    return true;
}

/* pipeline_tonemap_uploaded into RGB8 (BITS 8) or RGB16 (BITS 16). */
static bool tonemap_uploaded(pipeline *p, const tonemap_params *params, tonemap_result *r,
                             void *rgb, int bits, char *err, size_t errlen)
{
    p->want_format = bits == 16 ? GL_RGBA16 : GL_RGBA8;
    ht_source src = pipeline_image_source(p);
    bool ok = p->npieces > 1 ? analyze(p, src, params, err, errlen) &&
                                   apply_pieces(p, params, rgb, err, errlen)
                             : pipeline_frame(p, src, src, params, err, errlen);
    p->want_format = GL_RGBA8;   /* the viewer's and the statistics' RGBA8 from the next apply */
    if (!ok)
        return false;
    if (r)
        pipeline_read_result(p, r);
    if (rgb && p->npieces <= 1)
        read_output(p, rgb);
    return true;
}

bool pipeline_tonemap_uploaded(pipeline *p, const tonemap_params *params, tonemap_result *r,
                               uint8_t *rgb, char *err, size_t errlen)
{
    return tonemap_uploaded(p, params, r, rgb, 8, err, errlen);
}

bool pipeline_tonemap_uploaded16(pipeline *p, const tonemap_params *params, tonemap_result *r,
                                 uint16_t *rgb, char *err, size_t errlen)
{
    return tonemap_uploaded(p, params, r, rgb, 16, err, errlen);
}

bool pipeline_analyze_uploaded(pipeline *p, const tonemap_params *params, tonemap_result *r,
                               char *err, size_t errlen)
{
    if (!analyze(p, pipeline_image_source(p), params, err, errlen))
        return false;
    pipeline_read_result(p, r);
    return true;
}

void pipeline_copy_result(pipeline *dst, const pipeline *src)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, src->buf.frame.id);
    glBindBuffer(GL_COPY_WRITE_BUFFER, dst->buf.frame.id);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, sizeof(ht_frame));
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    dst->analysed = true;
}

void pipeline_set_result(pipeline *p, const tonemap_result *r)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);   /* after the passes' writes */
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.frame.id);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof *r, r);
    p->analysed = true;
}

bool pipeline_apply_result(pipeline *p, const tonemap_params *params, const tonemap_result *r,
                           void *rgb, int bits, char *err, size_t errlen)
{
    pipeline_set_result(p, r);
    p->want_format = bits == 16 ? GL_RGBA16 : GL_RGBA8;
    bool ok = apply_pieces(p, params, rgb, err, errlen);
    p->want_format = GL_RGBA8;
    p->analysed = true;
    return ok;
}
