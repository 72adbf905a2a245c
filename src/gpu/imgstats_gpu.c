/* Image statistics on the GPU: the context owns the buffers and the three passes, runs them
 * and finishes on the CPU (imgstats.h). */
#include "imgstats_gpu.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "imgstats_pass.h"
#include "gpu_shared.h"

/* Every field is a 4-byte scalar, so the std430 layout is the C layout (see shaders.c). */
#define HT_CHECK_FIELD_(type, name, dims) \
    _Static_assert(sizeof(((STRUCT *)0)->name) % 4 == 0, "4-byte fields only");
#define STRUCT ht_extrema
HT_EXTREMA_FIELDS(HT_CHECK_FIELD_)
#undef STRUCT
#define STRUCT ht_hist
HT_HIST_FIELDS(HT_CHECK_FIELD_)
#undef STRUCT
#undef HT_CHECK_FIELD_
_Static_assert(_Alignof(ht_extrema) == 4 && _Alignof(ht_peak) == 4 &&
               _Alignof(ht_peaks_head) == 4 && _Alignof(ht_hist) == 4, "4-byte alignment");

#define IMGSTATS_PASS_NAME_(n) #n,
const char *const imgstats_pass_names[IMGSTATS_PASS_COUNT] = {IMGSTATS_PASSES(IMGSTATS_PASS_NAME_)};
#undef IMGSTATS_PASS_NAME_

void imgstats_bind_source(unsigned tex)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
}

struct imgstats_gpu_ctx {
    pass_brightest *brightest;
    pass_colorhist *colorhist;
    pass_greyhist *greyhist;
    imgstats_buffers buf;
    ht_source image, output;      /* inputs of the passes (not owned) */
    float lum_w[3];               /* the image's luminance weights (imgstats_weights) */
    bool ran[IMGSTATS_PASS_COUNT]; /* since the last prepare */
};

imgstats_gpu_ctx *imgstats_gpu_create(char *err, size_t errlen)
{
    imgstats_gpu_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (!(c->brightest = pass_brightest_create(err, errlen)) ||
        !(c->colorhist = pass_colorhist_create(err, errlen)) ||
        !(c->greyhist = pass_greyhist_create(err, errlen))) {
        imgstats_gpu_destroy(&c);
        return NULL;
    }
    gpu_buf_recreate(&c->buf.hist, sizeof(ht_hist));
    return c;
}

void imgstats_gpu_destroy(imgstats_gpu_ctx **cp)
{
    if (!cp || !*cp)
        return;
    imgstats_gpu_ctx *c = *cp;
    pass_brightest_destroy(&c->brightest);
    pass_colorhist_destroy(&c->colorhist);
    pass_greyhist_destroy(&c->greyhist);
    gpu_buf *bufs[] = {&c->buf.tiles, &c->buf.peaks, &c->buf.hist};
    for (int i = 0; i < 3; i++)
        gpu_buf_destroy(bufs[i]);
    free(c);
    *cp = NULL;
}

bool imgstats_gpu_prepare(imgstats_gpu_ctx *c, ht_source image, ht_source output, char *err,
                          size_t errlen)
{
    if (image.samples > 1 || output.samples > 1) {
        snprintf(err, errlen, "image statistics need single-sampled textures");
        return false;
    }
    c->image = image;
    c->output = output;
    double w[3];
    hdr_image rec709 = {0};   /* until imgstats_gpu_run names the image: Rec. 709's */
    imgstats_weights(&rec709, w);
    for (int i = 0; i < 3; i++)
        c->lum_w[i] = (float)w[i];
    memset(c->ran, 0, sizeof c->ran);
    c->buf.tiles_x = (image.width + HT_TILE_X - 1) / HT_TILE_X;
    c->buf.tiles_y = (image.height + HT_TILE_Y - 1) / HT_TILE_Y;
    size_t ntiles = (size_t)c->buf.tiles_x * c->buf.tiles_y;
    gpu_buf_recreate(&c->buf.tiles, (ntiles ? ntiles : 1) * sizeof(ht_extrema));
    /* Local maxima are never 8-adjacent: at most one per 2x2 block. */
    c->buf.peaks_capacity =
        (uint32_t)(((size_t)image.width + 1) / 2 * (((size_t)image.height + 1) / 2));
    gpu_buf_recreate(&c->buf.peaks,
                     sizeof(ht_peaks_head) + (c->buf.peaks_capacity + 1) * sizeof(ht_peak));
    return true;
}

bool imgstats_gpu_run_pass(imgstats_gpu_ctx *c, int which, char *err, size_t errlen)
{
    bool have_image = c->image.texture && c->image.width > 0 && c->image.height > 0;
    bool have_output = c->output.texture && c->output.width > 0 && c->output.height > 0;
    bool ok = true;
    switch (which) {
    case IMGSTATS_PASS_extrema:
        ok = !have_image ||
             pass_brightest_run(c->brightest, c->image, c->lum_w, &c->buf, err, errlen);
        break;
    case IMGSTATS_PASS_peaks:
        ok = !have_image ||
             pass_brightest_run_peaks(c->brightest, c->image, c->lum_w, &c->buf, err, errlen);
        break;
    case IMGSTATS_PASS_hist_clear:
        ok = pass_colorhist_clear(c->colorhist, &c->buf, err, errlen);
        break;
    case IMGSTATS_PASS_rgba:
        ok = !have_output || pass_colorhist_run(c->colorhist, c->output, &c->buf, err, errlen);
        break;
    case IMGSTATS_PASS_grey_global:
    case IMGSTATS_PASS_grey_shared:
    case IMGSTATS_PASS_grey_private:
        ok = !have_output ||
             pass_greyhist_run(c->greyhist, HT_GREY_GLOBAL + (which - IMGSTATS_PASS_grey_global),
                               c->output, &c->buf, err, errlen);
        break;
    default:
        return true;
    }
    c->ran[which] = ok;
    return ok;
}

unsigned imgstats_gpu_hist_buffer(const imgstats_gpu_ctx *c) { return c->buf.hist.id; }

/* The exact brightest/darkest: the tiles that may hold them rescanned in double. The float
 * bounds of the GPU only choose the tiles, so the answer is the CPU reference's whatever Y_f
 * rounding did. The brightest has Y >= every pixel's lo, so its hi >= the largest lo; the
 * darkest has 0 < Y <= the hi of every pixel with lo > 0, so its lo <= the smallest such hi.
 * Tiles with no pixel that may have Y > 0 (hi <= 0) are skipped. */
static bool finish_extrema(imgstats_gpu_ctx *c, const hdr_image *img, imgstats *out)
{
    size_t ntiles = (size_t)c->buf.tiles_x * c->buf.tiles_y;
    ht_extrema *tiles = malloc((ntiles + 1) * sizeof *tiles);
    if (!tiles)
        return false;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf.tiles.id);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(ntiles * sizeof *tiles), tiles);
    float bright_lo = -FLT_MAX, dark_hi = FLT_MAX;
    for (size_t i = 0; i < ntiles; i++) {
        bright_lo = tiles[i].bright_lo > bright_lo ? tiles[i].bright_lo : bright_lo;
        dark_hi = tiles[i].dark_hi < dark_hi ? tiles[i].dark_hi : dark_hi;
    }
    imgstats_extrema_acc a = IMGSTATS_EXTREMA_ACC_INIT;
    for (size_t i = 0; i < ntiles; i++) {
        bool bright = tiles[i].bright_hi >= bright_lo, dark = tiles[i].dark_lo <= dark_hi;
        if (!(tiles[i].bright_hi > 0.0f) || !(bright || dark))
            continue;
        int x0 = (int)(i % (size_t)c->buf.tiles_x) * HT_TILE_X;
        int y0 = (int)(i / (size_t)c->buf.tiles_x) * HT_TILE_Y;
        int x1 = x0 + HT_TILE_X < img->width ? x0 + HT_TILE_X : img->width;
        int y1 = y0 + HT_TILE_Y < img->height ? y0 + HT_TILE_Y : img->height;
        imgstats_extrema_scan(img, x0, y0, x1, y1, bright, dark, &a);
    }
    free(tiles);
    if (a.bright >= 0)
        imgstats_pixel_at(img, (size_t)a.bright, &out->brightest);
    if (a.dark >= 0)
        imgstats_pixel_at(img, (size_t)a.dark, &out->darkest);
    return true;
}

static bool finish_peaks(imgstats_gpu_ctx *c, const hdr_image *img, int peaks, int min_distance,
                         imgstats *out)
{
    ht_peaks_head head;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf.peaks.id);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof head, &head);
    size_t n = head.count < c->buf.peaks_capacity ? head.count : c->buf.peaks_capacity;
    ht_peak *cand = malloc((n + 1) * sizeof *cand);
    if (!cand)
        return false;
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, sizeof head, n * sizeof *cand, cand);
    bool ok = imgstats_fill_peaks(img, cand, n, peaks, min_distance, out);
    free(cand);
    return ok;
}

bool imgstats_gpu_read(imgstats_gpu_ctx *c, const hdr_image *img, int peaks, int min_distance,
                       imgstats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (img->width != c->image.width || img->height != c->image.height) {
        snprintf(err, errlen, "image statistics: the image is %dx%d, the texture %dx%d",
                 img->width, img->height, c->image.width, c->image.height);
        return false;
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    bool ok = !c->ran[IMGSTATS_PASS_extrema] || finish_extrema(c, img, out);
    if (ok && peaks > 0 && c->ran[IMGSTATS_PASS_peaks])
        ok = finish_peaks(c, img, peaks, min_distance, out);
    if (ok && c->ran[IMGSTATS_PASS_hist_clear] && c->ran[IMGSTATS_PASS_rgba]) {
        ht_hist h;
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf.hist.id);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof h, &h);
        memcpy(out->rgba_hist, h.rgba, sizeof out->rgba_hist);
        memcpy(out->grey_hist, h.grey, sizeof out->grey_hist);
        out->have_hist = true;
    }
    if (!ok) {
        imgstats_free(out);
        snprintf(err, errlen, "image statistics: out of memory");
    }
    return ok;
}

bool imgstats_gpu_run(imgstats_gpu_ctx *c, const hdr_image *img, int grey_kernel, int peaks,
                      int min_distance, imgstats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    double w[3];
    imgstats_weights(img, w);
    for (int i = 0; i < 3; i++)
        c->lum_w[i] = (float)w[i];
    bool ok = imgstats_gpu_run_pass(c, IMGSTATS_PASS_extrema, err, errlen) &&
              (peaks <= 0 || imgstats_gpu_run_pass(c, IMGSTATS_PASS_peaks, err, errlen));
    if (ok && c->output.texture)
        ok = imgstats_gpu_run_pass(c, IMGSTATS_PASS_hist_clear, err, errlen) &&
             imgstats_gpu_run_pass(c, IMGSTATS_PASS_rgba, err, errlen) &&
             imgstats_gpu_run_pass(c, IMGSTATS_PASS_grey_global + grey_kernel, err, errlen);
    return ok && imgstats_gpu_read(c, img, peaks, min_distance, out, err, errlen);
}

bool imgstats_gpu(pipeline *p, const hdr_image *img, int grey_kernel, int peaks,
                  int min_distance, imgstats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    imgstats_gpu_ctx *c = imgstats_gpu_create(err, errlen);
    if (!c)
        return false;
    ht_source image = pipeline_image_source(p);
    ht_source output = {pipeline_output_texture(p), image.width, image.height, 1};
    bool ok = imgstats_gpu_prepare(c, image, output, err, errlen) &&
              imgstats_gpu_run(c, img, grey_kernel, peaks, min_distance, out, err, errlen);
    imgstats_gpu_destroy(&c);
    return ok;
}
