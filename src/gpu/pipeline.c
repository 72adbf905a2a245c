#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "gpu_timer.h"
#include "pass.h"
#include "pass_foveal.h"
#include "pass_veil.h"

#define HT_PASS_NAME_(n) #n,
const char *const pipeline_pass_names[HT_PASS_COUNT] = {HT_PASSES(HT_PASS_NAME_)};
#undef HT_PASS_NAME_

/* Intervals a pass's timer holds unread: the frames the GPU may run behind, and then some. */
enum { TIMER_DEPTH = 4 };

struct pipeline {
    pass_histogram *histogram;
    pass_range *range;
    pass_merge *merge;
    pass_curve *curve;
    pass_apply *apply;
    pass_foveal *foveal;               /* foveal, points_gather, points_bin */
    pass_veil *veil;                   /* veil, sample_radii */

    ht_buffers buf;
    int max_bins;                      /* most bins any run asked for: the first histogram
                                          dispatch bins with the frame's previous count */

    ht_piece *pieces;                  /* the uploaded image: one texture, or a grid of pieces */
    int npieces;                       /* when larger than GL_MAX_TEXTURE_SIZE (pass.h) */
    int image_w, image_h;
    unsigned image_format;             /* GL_RGBA16F or GL_RGBA32F */
    gpu_buf staging;                   /* GL_PIXEL_UNPACK_BUFFER for half uploads */
    int max_piece;                     /* test knob: piece size limit (0: the GL limit) */
    unsigned long uploads;             /* pipeline_image_generation */
    gpu_tex out;                       /* output of the apply pass, RGBA8 (or RGBA16) */
    unsigned target;                   /* pipeline_set_output's texture, 0: out */
    unsigned want_format;              /* GL_RGBA16: the next apply writes RGBA16 (for
                                          pipeline_tonemap_uploaded16), else GL_RGBA8 */

    bool human_on;                     /* the last analysis had human-vision options: */
    human_report report;               /* what it decided */
    tonemap_result *first;             /* its first analysis, read back (NULL until needed) */

    gpu_timer *timer[HT_PASS_COUNT];
    pipeline_timings timings;
};

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
    for (int i = 0; i < HT_PASS_COUNT; i++)
        if (!(p->timer[i] = gpu_timer_create(TIMER_DEPTH))) {
            snprintf(err, errlen, "out of memory");
            pipeline_destroy(&p);
            return NULL;
        }
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
    pass_veil_destroy(&p->veil);
    gpu_buf *bufs[] = {&p->buf.frame, &p->buf.partials, &p->buf.tile_hist, &p->buf.tile_sums,
                       &p->buf.veil, &p->buf.sample_radii};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        gpu_buf_destroy(bufs[i]);
    free(p->first);
    pipeline_release_textures(p);
    gpu_buf_destroy(&p->staging);
    for (int i = 0; i < HT_PASS_COUNT; i++)
        gpu_timer_destroy(&p->timer[i]);
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
            ht_piece *pc = &p->pieces[r * cols + c];
            int x0 = c * pw, y0 = r * ph;
            int w = img->width - x0 < pw ? img->width - x0 : pw;
            int h = img->height - y0 < ph ? img->height - y0 : ph;
            /* Half is lossless for half sources and halves the bytes every pass reads. */
            gpu_tex tex = {0};
            gpu_tex_recreate(&tex, w, h, format, 1);
            *pc = (ht_piece){{tex.id, w, h, 1}, x0, y0};
            /* In strips: a driver converting float to half (Mesa does) then needs a strip's
             * worth of temporary memory, not a whole second image. */
            for (int y = 0; y < h; y += 256) {
                int n = h - y < 256 ? h - y : 256;
                size_t at = ((size_t)(y0 + y) * img->width + (size_t)x0) * 4;
                if (half)
                    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, w, n, GL_RGBA, GL_HALF_FLOAT,
                                    half + at);
                else
                    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, w, n, GL_RGBA, GL_FLOAT,
                                    img->rgba + at);
            }
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    return true;
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

/* The veil pass (pipeline.h, HT_PASSES): the decisions on the first analysis, the foveal
 * image where pixel sampling has none, the veil. */
static bool run_veil(pipeline *p, const ht_pieces *img, const tonemap_params *params, char *err,
                     size_t errlen)
{
    p->human_on = false;
    if (!human_requested(params))
        return true;
    if (img->count > 1) {
        snprintf(err, errlen, "the human-vision options (veil, acuity, colour loss) need an "
                              "image that fits one texture; this one (%dx%d) is in %d pieces",
                 img->width, img->height, img->count);
        return false;
    }
    human_view view;
    if ((!p->first && !(p->first = malloc(sizeof *p->first))) ||
        !pass_veil_prepare(p->veil, img->width, img->height, params, &p->buf, &view)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    pipeline_read_result(p, p->first);
    human_check2do(p->first, params, &view, img->width, img->height, &p->report);
    p->human_on = true;
    bool veil = p->report.veil == HUMAN_APPLIED;
    if (!veil && p->report.acuity != HUMAN_APPLIED)
        return true;
    if (params->sampling != HT_SAMPLING_FOVEAL &&
        !pass_foveal_run(p->foveal, img, &p->buf, params, err, errlen))
        return false;
    return !veil || pass_veil_run(p->veil, pass_foveal_source(p->foveal), &p->buf, err, errlen);
}

/* The veil_histogram pass: the analysis passes after the veil (foveal sampling: the veiled
 * foveal image, the second walk's point samples; pixel sampling: the veiled pixels), with the
 * first histogram's "range fits the display". */
static bool run_veil_histogram(pipeline *p, ht_source src, const ht_pieces *img,
                               const tonemap_params *params, char *err, size_t errlen)
{
    if (!p->human_on || p->report.veil != HUMAN_APPLIED)
        return true;
    pass_foveal_prepare(p->foveal, img, &p->buf, params, 1);
    p->buf.range_fits = p->report.range_fits;
    p->buf.veiled = params->sampling != HT_SAMPLING_FOVEAL;
    bool ok = true;
    for (int pass = HT_PASS_points_gather; ok && pass <= HT_PASS_curve; pass++)
        ok = pipeline_run_pass(p, pass, src, params, err, errlen);
    p->buf.range_fits = -1;
    p->buf.veiled = false;
    return ok;
}

/* The sample_radii pass: the radii, their largest read back for the root level. */
static bool run_sample_radii(pipeline *p, const ht_pieces *img, const tonemap_params *params,
                             char *err, size_t errlen)
{
    if (!p->human_on || p->report.acuity != HUMAN_APPLIED)
        return true;
    float max_sr;
    if (!pass_veil_radii(p->veil, pass_foveal_source(p->foveal), img->width, img->height,
                          &p->buf, params, &max_sr, err, errlen))
        return false;
    p->report.max_sr = max_sr;
    p->report.root_level = human_root_level(max_sr, img->width, img->height);
    if (!(max_sr > 1.0f))   /* every radius <= 1: the stage changes nothing */
        p->report.acuity = HUMAN_APPLIED_NOOP;
    return true;
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
        ensure_tiles(p, a->width, a->height, params->bins);
        return pass_histogram_run(p->histogram, a, &p->buf, params, err, errlen);
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
        return run_veil(p, &img, params, err, errlen);
    case HT_PASS_veil_histogram:
        return run_veil_histogram(p, src, &img, params, err, errlen);
    case HT_PASS_sample_radii:
        return run_sample_radii(p, &img, params, err, errlen);
    case HT_PASS_apply:
        if (p->target)
            return pass_apply_run(p->apply, src, &p->buf, p->target, GL_RGBA8, params, err,
                                  errlen);
        gpu_tex_recreate(&p->out, src.width, src.height,
                         p->want_format ? p->want_format : GL_RGBA8, 1);
        return pass_apply_run(p->apply, src, &p->buf, p->out.id, p->out.format, params, err,
                              errlen);
    default:
        snprintf(err, errlen, "no pass %d", pass);
        return false;
    }
}

static bool run_timed(pipeline *p, int pass, ht_source src, const tonemap_params *params,
                      char *err, size_t errlen)
{
    gpu_timer_begin(p->timer[pass]);
    bool ok = pipeline_run_pass(p, pass, src, params, err, errlen);
    gpu_timer_end(p->timer[pass]);
    return ok;
}

/* The analysis passes, timed, after reading the times the GPU has finished. */
static bool analyze(pipeline *p, ht_source src, const tonemap_params *params, char *err,
                    size_t errlen)
{
    p->timings.total_ms = 0;
    for (int i = 0; i < HT_PASS_COUNT; i++)
        p->timings.total_ms += p->timings.ms[i] = gpu_timer_poll(p->timer[i]);
    p->human_on = false;
    for (int pass = HT_PASS_foveal; pass < HT_PASS_apply; pass++)
        if ((pass <= HT_PASS_curve || pipeline_pass_used(pass, params)) &&
            !run_timed(p, pass, src, params, err, errlen))
            return false;
    return true;
}

bool pipeline_frame(pipeline *p, ht_source analysis, ht_source apply,
                    const tonemap_params *params, char *err, size_t errlen)
{
    return analyze(p, analysis, params, err, errlen) &&
           run_timed(p, HT_PASS_apply, apply, params, err, errlen);
}

void pipeline_release_textures(pipeline *p)
{
    release_image(p);
    gpu_tex_destroy(&p->out);
}

void pipeline_set_output(pipeline *p, unsigned texture) { p->target = texture; }
unsigned pipeline_output_texture(const pipeline *p) { return p->out.id; }
int pipeline_output_bits(const pipeline *p) { return p->out.format == GL_RGBA16 ? 16 : 8; }
unsigned pipeline_frame_buffer(const pipeline *p) { return p->buf.frame.id; }
pipeline_timings pipeline_last_timings(const pipeline *p) { return p->timings; }

const human_report *pipeline_human_report(const pipeline *p)
{
    return p->human_on ? &p->report : NULL;
}

ht_human_grids pipeline_human_grids(const pipeline *p)
{
    ht_human_grids g = {0};
    if (!p->human_on)
        return g;
    g.veil = p->buf.veil.id;
    g.sample_radii = p->buf.sample_radii.id;
    g.fw = p->buf.fov_w;
    g.fh = p->buf.fov_h;
    g.root_level = p->report.root_level;
    g.veil_applies = p->report.veil == HUMAN_APPLIED;
    g.acuity_applies = p->report.acuity == HUMAN_APPLIED;
    g.color_applies = p->report.color == HUMAN_APPLIED;
    return g;
}

void pipeline_read_human_grids(pipeline *p, float *veil, float *sr)
{
    size_t n = (size_t)p->buf.fov_w * p->buf.fov_h;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float *v4 = veil ? malloc(n * 4 * sizeof *v4) : NULL;
    if (v4) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.veil.id);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(n * 4 * sizeof *v4), v4);
        for (size_t k = 0; k < n; k++)
            for (int c = 0; c < 3; c++)
                veil[3 * k + c] = v4[4 * k + c];
        free(v4);
    }
    if (sr) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.sample_radii.id);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(n * sizeof *sr), sr);
    }
}

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

bool pipeline_apply_result(pipeline *p, const tonemap_params *params, const tonemap_result *r,
                           void *rgb, int bits, char *err, size_t errlen)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);   /* after the passes' writes */
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.frame.id);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof *r, r);
    p->want_format = bits == 16 ? GL_RGBA16 : GL_RGBA8;
    bool ok = apply_pieces(p, params, rgb, err, errlen);
    p->want_format = GL_RGBA8;
    return ok;
}
