#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "pass.h"
#include "pass_foveal.h"

#define HT_PASS_NAME_(n) #n,
const char *const pipeline_pass_names[HT_PASS_COUNT] = {HT_PASSES(HT_PASS_NAME_)};
#undef HT_PASS_NAME_

/* Timer queries: two sets used in turn, so the results of the previous frame are read while
 * the current one runs and reading never stalls. */
enum { QUERY_SETS = 2 };

struct pipeline {
    pass_histogram *histogram;
    pass_range *range;
    pass_merge *merge;
    pass_curve *curve;
    pass_apply *apply;
    pass_foveal *foveal;               /* foveal sampling (issue 7): runs before histogram */

    ht_buffers buf;
    int max_bins;                      /* most bins any run asked for: the first histogram
                                          dispatch bins with the frame's previous count */

    ht_piece *pieces;                  /* the uploaded image: one texture, or a grid of pieces */
    int npieces;                       /* when larger than GL_MAX_TEXTURE_SIZE (pass.h) */
    int image_w, image_h;
    int max_piece;                     /* test knob: piece size limit (0: the GL limit) */
    unsigned out_tex;                  /* output of the apply pass, RGBA8 (or RGBA16) */
    int out_w, out_h;
    int out_bits;                      /* 16: out_tex is RGBA16 (pipeline_tonemap_uploaded16),
                                          else RGBA8 */
    int want_bits;                     /* 16: the next apply writes RGBA16 (else RGBA8) */

    unsigned queries[QUERY_SETS][HT_PASS_COUNT];
    bool query_pending[QUERY_SETS];
    int query_set;                     /* the set the current frame writes */
    pipeline_timings timings;
    char err[HT_ERR_MAX];              /* first run-time error, reported once */
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
        !(p->foveal = pass_foveal_create(err, errlen))) {
        pipeline_destroy(&p);
        return NULL;
    }
    glGenBuffers(1, &p->buf.frame);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.frame);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(ht_frame), NULL, GL_DYNAMIC_COPY);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    glGenBuffers(1, &p->buf.partials);
    glGenBuffers(1, &p->buf.tile_hist);
    glGenBuffers(1, &p->buf.tile_sums);
    for (int s = 0; s < QUERY_SETS; s++)
        glGenQueries(HT_PASS_COUNT, p->queries[s]);
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
    unsigned bufs[] = {p->buf.frame, p->buf.partials, p->buf.tile_hist, p->buf.tile_sums};
    glDeleteBuffers(4, bufs);
    pipeline_release_textures(p);
    for (int s = 0; s < QUERY_SETS; s++)
        if (p->queries[s][0])
            glDeleteQueries(HT_PASS_COUNT, p->queries[s]);
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

bool pipeline_upload(pipeline *p, const hdr_image *img, char *err, size_t errlen)
{
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
    release_image(p);
    if (!(p->pieces = calloc((size_t)cols * rows, sizeof *p->pieces))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    p->npieces = cols * rows;
    p->image_w = img->width;
    p->image_h = img->height;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, img->width);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            ht_piece *pc = &p->pieces[r * cols + c];
            int x0 = c * pw, y0 = r * ph;
            int w = img->width - x0 < pw ? img->width - x0 : pw;
            int h = img->height - y0 < ph ? img->height - y0 : ph;
            *pc = (ht_piece){{0, w, h, 1}, x0, y0};
            glGenTextures(1, &pc->src.texture);
            glBindTexture(GL_TEXTURE_2D, pc->src.texture);
            /* Half is lossless for half sources and halves the bytes every pass reads. */
            glTexStorage2D(GL_TEXTURE_2D, 1, img->half_exact ? GL_RGBA16F : GL_RGBA32F, w, h);
            /* In strips: a driver converting float to half (Mesa does) then needs a strip's
             * worth of temporary memory, not a whole second image. */
            for (int y = 0; y < h; y += 256) {
                int n = h - y < 256 ? h - y : 256;
                glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, w, n, GL_RGBA, GL_FLOAT,
                                img->rgba + ((size_t)(y0 + y) * img->width + (size_t)x0) * 4);
            }
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
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

/* Grows BUF to hold NEED bytes (never shrinks). */
static void ensure_buffer(unsigned buf, size_t need)
{
    GLint64 size = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    glGetBufferParameteri64v(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_SIZE, &size);
    if ((GLint64)need > size)
        glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)need, NULL, GL_DYNAMIC_COPY);
}

/* Sizes the per-tile buffers for a WIDTH x HEIGHT image. */
static void ensure_tiles(pipeline *p, int width, int height, int bins)
{
    p->buf.tiles_x = (width + HT_TILE_X - 1) / HT_TILE_X;
    p->buf.tiles_y = (height + HT_TILE_Y - 1) / HT_TILE_Y;
    size_t ntiles = (size_t)p->buf.tiles_x * p->buf.tiles_y;
    p->buf.merge_groups = (int)((ntiles + HT_MERGE_TILES - 1) / HT_MERGE_TILES);
    ensure_buffer(p->buf.partials, (size_t)p->buf.merge_groups * sizeof(float));
    ensure_buffer(p->buf.tile_sums, ntiles * sizeof(ht_tilesum));
    p->max_bins = bins > p->max_bins ? bins : p->max_bins;
    ensure_buffer(p->buf.tile_hist, ntiles * (size_t)p->max_bins * sizeof(uint32_t));
}

static void report(pipeline *p, const char *err)
{
    if (p->err[0])
        return;
    snprintf(p->err, sizeof p->err, "%s", err);
    fprintf(stderr, "hdrtone: GPU pipeline: %s\n", err);
}

/* Reads the other set's results if they are ready (they are a frame old). */
static void collect_timings(pipeline *p)
{
    int other = 1 - p->query_set;
    if (!p->query_pending[other])
        return;
    GLuint ready = 0;
    glGetQueryObjectuiv(p->queries[other][HT_PASS_COUNT - 1], GL_QUERY_RESULT_AVAILABLE, &ready);
    if (!ready)
        return;
    for (int i = 0; i < HT_PASS_COUNT; i++) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(p->queries[other][i], GL_QUERY_RESULT, &ns);
        p->timings.ms[i] = (double)ns * 1e-6;
    }
    p->query_pending[other] = false;
}

static void ensure_output(pipeline *p, ht_source src)
{
    if (p->out_tex && src.width == p->out_w && src.height == p->out_h &&
        (p->out_bits == 16) == (p->want_bits == 16))
        return;
    glDeleteTextures(1, &p->out_tex);
    glGenTextures(1, &p->out_tex);
    glBindTexture(GL_TEXTURE_2D, p->out_tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, p->want_bits == 16 ? GL_RGBA16 : GL_RGBA8, src.width,
                   src.height);
    p->out_bits = p->want_bits;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    p->out_w = src.width;
    p->out_h = src.height;
}

/* The luminance weights (common.glsl u_luminance) on the programs of a pass that classifies
 * pixels: every pass struct begins with its pass_base (pass.h), whose first program is the
 * one that reads the source. Builds SAMPLES' variant first, as the pass's run would. */
static void set_luminance(void *pass, int samples, int luminance)
{
    pass_program *pp = &((pass_base *)pass)->prog[0];
    char err[HT_ERR_MAX];
    if (!pass_program_use(pp, samples, err, sizeof err))
        return;   /* the pass's run reports it */
    for (int v = 0; v < 2; v++)
        if (pp->prog[v])
            pass_set_int(pp->prog[v], "u_luminance", luminance);
}

void pipeline_run_pass(pipeline *p, int pass, ht_source src, const tonemap_params *params)
{
    char err[HT_ERR_MAX];
    bool ok = true;
    ht_piece one, fov = {pass_foveal_source(p->foveal), 0, 0};
    ht_pieces img = pieces_of(p, src, &one);
    /* Foveal sampling: the analysis passes read the foveal image, not SRC. */
    bool foveal = params->sampling == HT_SAMPLING_FOVEAL;
    ht_pieces fimg = {&fov, 1, fov.src.width, fov.src.height};
    const ht_pieces *a = foveal ? &fimg : &img;
    switch (pass) {
    case HT_PASS_histogram:
        pass_foveal_prepare(p->foveal, &img, &p->buf, params);
        if (foveal) {
            if (!pass_foveal_run(p->foveal, &img, &p->buf, params, &fov.src, err, sizeof err)) {
                ok = false;
                break;
            }
            fimg.width = fov.src.width;
            fimg.height = fov.src.height;
        }
        ensure_tiles(p, a->width, a->height, params->bins);
        set_luminance(p->histogram, a->piece[0].src.samples, params->luminance);
        ok = pass_histogram_run(p->histogram, a, &p->buf, params, err, sizeof err);
        break;
    case HT_PASS_range:
        ok = pass_range_run(p->range, (unsigned)a->width * (unsigned)a->height, &p->buf, params,
                            err, sizeof err);
        break;
    case HT_PASS_rebin:
        ok = pass_histogram_rebin(p->histogram, a, &p->buf, params, err, sizeof err);
        break;
    case HT_PASS_merge:
        ok = pass_merge_run(p->merge, &p->buf, err, sizeof err);
        break;
    case HT_PASS_curve:
        ok = (!foveal || pass_foveal_bin_points(p->foveal, &p->buf, err, sizeof err)) &&
             pass_curve_run(p->curve, &p->buf, params, err, sizeof err);
        break;
    case HT_PASS_apply:
        ensure_output(p, src);
        set_luminance(p->apply, src.samples, params->luminance);
        ok = pass_apply_run(p->apply, src, &p->buf, p->out_tex,
                            p->out_bits == 16 ? GL_RGBA16 : GL_RGBA8, params, err, sizeof err);
        break;
    }
    if (!ok)
        report(p, err);
}

static void run_timed(pipeline *p, int pass, ht_source src, const tonemap_params *params)
{
    glBeginQuery(GL_TIME_ELAPSED, p->queries[p->query_set][pass]);
    pipeline_run_pass(p, pass, src, params);
    glEndQuery(GL_TIME_ELAPSED);
}

void pipeline_analyze(pipeline *p, ht_source src, const tonemap_params *params)
{
    collect_timings(p);
    for (int pass = HT_PASS_histogram; pass <= HT_PASS_curve; pass++)
        run_timed(p, pass, src, params);
}

void pipeline_apply(pipeline *p, ht_source src, const tonemap_params *params)
{
    run_timed(p, HT_PASS_apply, src, params);
    p->query_pending[p->query_set] = true;
    p->query_set = 1 - p->query_set;
}

void pipeline_release_textures(pipeline *p)
{
    release_image(p);
    glDeleteTextures(1, &p->out_tex);
    p->out_tex = 0;
    p->out_w = p->out_h = 0;
}

unsigned pipeline_output_texture(const pipeline *p) { return p->out_tex; }
unsigned pipeline_frame_buffer(const pipeline *p) { return p->buf.frame; }
pipeline_timings pipeline_last_timings(const pipeline *p) { return p->timings; }

void pipeline_read_result(pipeline *p, tonemap_result *r)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.frame);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof *r, r);
}

static void read_output(pipeline *p, void *rgb)
{
    glBindTexture(GL_TEXTURE_2D, p->out_tex);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB,
                  p->out_bits == 16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE, rgb);
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
 * pipeline_image_source as it does for one texture. Untimed: the read-backs would be inside the queries. */
static void apply_pieces(pipeline *p, const tonemap_params *params, void *rgb)
{
    for (int i = rgb ? p->npieces - 1 : 0; i >= 0; i--) {
        const ht_piece *pc = &p->pieces[i];
        pipeline_run_pass(p, HT_PASS_apply, pc->src, params);
        if (!rgb || p->err[0])
            continue;
        glBindTexture(GL_TEXTURE_2D, p->out_tex);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glPixelStorei(GL_PACK_ROW_LENGTH, p->image_w);
        size_t px = p->out_bits == 16 ? 6 : 3;
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB,
                      p->out_bits == 16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE,
                      (uint8_t *)rgb + ((size_t)pc->y * p->image_w + (size_t)pc->x) * px);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    }
}

/* pipeline_tonemap_uploaded into RGB8 (BITS 8) or RGB16 (BITS 16). */
static bool tonemap_uploaded(pipeline *p, const tonemap_params *params, tonemap_result *r,
                             void *rgb, int bits, char *err, size_t errlen)
{
    p->want_bits = bits;
    ht_source src = pipeline_image_source(p);
    p->err[0] = '\0';
    pipeline_analyze(p, src, params);
    if (p->npieces > 1)
        apply_pieces(p, params, rgb);
    else
        pipeline_apply(p, src, params);
    p->want_bits = 8;   /* the viewer's and the statistics' RGBA8, from the next apply on */
    if (p->err[0]) {
        snprintf(err, errlen, "%s", p->err);
        return false;
    }
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
