/* The comparison on the GPU: FLIP (flip_gpu.h), flip_stats + flip_finish for the whole image
 * and the rectangle, flip_colorize into the display texture, and a copy of the totals and
 * fine histograms into a read-back slot behind a fence (a ring of them, so a run never waits
 * for an older one's read-back). */
#include "compare_gpu.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "colormap.h"
#include "gpu_resource.h"
#include "shaders.h"

/* The totals of one region, as flip_common.glsl's flip_totals (std430). */
typedef struct flip_gpu_totals {
    double sum[METRICS_MAP_COUNT];
    uint32_t flip_min;
    uint32_t max_bits[METRICS_MAP_COUNT];
    uint32_t hist[FLIP_HIST_BINS];
    uint32_t count, pad;
} flip_gpu_totals;
_Static_assert(offsetof(flip_gpu_totals, flip_min) == 8 * METRICS_MAP_COUNT, "std430 layout");
_Static_assert(offsetof(flip_gpu_totals, hist) == 8 * METRICS_MAP_COUNT + 4 + 4 * METRICS_MAP_COUNT,
               "std430 layout");
_Static_assert(sizeof(flip_gpu_totals) % 8 == 0, "std430 struct size");

enum { RING = 3, GROUP = 16, REGIONS = 2 };   /* regions: the whole image, the rectangle */
#define FINE_BYTES ((size_t)FLIP_FINE_BINS * 4)
/* The regions' totals one after the other at this stride: a multiple of every GL's
 * GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (at most 256), for glBindBufferRange. */
#define TOTALS_STRIDE ((sizeof(flip_gpu_totals) + 255) / 256 * 256)
#define REGION_BYTES (TOTALS_STRIDE + FINE_BYTES)

/* One run's read-back: its totals and fine histograms, and what is needed to read them. */
typedef struct slot {
    gpu_buf buf;
    GLsync fence;
    uint64_t run;
    bool has_flip, has_rect;
    metrics_map mode;
    uint64_t count[REGIONS];
} slot;

struct compare_gpu {
    flip_gpu *flip;
    unsigned prog_stats, prog_finish, prog_colorize;
    gpu_buf partials, totals, fine, lut;
    gpu_tex out;
    slot ring[RING];
    uint64_t runs, delivered;
    int map_w, map_h;                /* the size of FLIP's map of the last run with FLIP */
    bool whole_has_flip;             /* the whole image's totals hold FLIP's numbers */
};

compare_gpu *compare_gpu_create(char *err, size_t errlen)
{
    compare_gpu *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *defs = flip_gpu_defines();
    c->flip = flip_gpu_create(err, errlen);
    c->prog_stats = c->flip ? shaders_compute("flip_stats.comp", defs, err, errlen) : 0;
    c->prog_finish = c->prog_stats ? shaders_compute("flip_finish.comp", defs, err, errlen) : 0;
    c->prog_colorize =
        c->prog_finish ? shaders_compute("flip_colorize.comp", defs, err, errlen) : 0;
    if (!c->prog_colorize) {
        compare_gpu_destroy(&c);
        return NULL;
    }
    /* The three colour maps as RGBA8 words: magma, viridis, diverging (lut_base's order). */
    uint32_t lut[3 * COLORMAP_SIZE];
    const uint8_t(*maps[3])[3] = {colormap_magma, colormap_viridis, colormap_diverging};
    for (int m = 0; m < 3; m++)
        for (int i = 0; i < COLORMAP_SIZE; i++)
            lut[m * COLORMAP_SIZE + i] = maps[m][i][0] | (uint32_t)maps[m][i][1] << 8 |
                                         (uint32_t)maps[m][i][2] << 16 | 0xFF000000u;
    gpu_buf_recreate(&c->lut, sizeof lut);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof lut, lut);
    gpu_buf_recreate(&c->totals, REGIONS * TOTALS_STRIDE);
    gpu_buf_recreate(&c->fine, REGIONS * FINE_BYTES);
    return c;
}

static int lut_base(const metrics_colorbar *cb)
{
    return cb->lut == colormap_magma ? 0 : cb->lut == colormap_viridis ? COLORMAP_SIZE
                                                                       : 2 * COLORMAP_SIZE;
}

static bool check_desc(const compare_gpu_desc *d, char *err, size_t errlen)
{
    if (!d->ref.texture || !d->test.texture) {
        snprintf(err, errlen, "compare: the %s has no texture", d->ref.texture ? "test" : "reference");
        return false;
    }
    if (d->ref.width != d->test.width || d->ref.height != d->test.height) {
        snprintf(err, errlen, "compare: the reference is %dx%d, the test %dx%d: images of "
                 "different sizes cannot be compared", d->ref.width, d->ref.height,
                 d->test.width, d->test.height);
        return false;
    }
    if (d->skip_flip && d->mode == METRICS_MAP_FLIP) {
        snprintf(err, errlen, "compare: FLIP's map with FLIP skipped");
        return false;
    }
    if ((unsigned)d->mode >= METRICS_MAP_COUNT) {
        snprintf(err, errlen, "compare: no map %d", (int)d->mode);
        return false;
    }
    return true;
}

/* The rectangle of D clipped to the image into *r; false when it holds no pixel. */
static bool clip(const compare_gpu_desc *d, flip_rect *r)
{
    int w = d->ref.width, h = d->ref.height;
    int x0 = d->rect.x < 0 ? 0 : d->rect.x, y0 = d->rect.y < 0 ? 0 : d->rect.y;
    int x1 = d->rect.x + d->rect.w, y1 = d->rect.y + d->rect.h;
    x1 = x1 > w ? w : x1;
    y1 = y1 > h ? h : y1;
    *r = (flip_rect){x0, y0, x1 - x0, y1 - y0};
    return r->w > 0 && r->h > 0;
}

static void bind_tex(int unit, unsigned tex)
{
    glActiveTexture(GL_TEXTURE0 + (unsigned)unit);
    glBindTexture(GL_TEXTURE_2D, tex);
}

/* The inputs of the stats and colorize programs: FLIP's map, the reference, the test. */
static void bind_inputs(compare_gpu *c, const compare_gpu_desc *d)
{
    bind_tex(0, d->skip_flip ? 0 : flip_gpu_map(c->flip));
    bind_tex(1, d->ref.texture);
    bind_tex(2, d->test.texture);
}

/* The numbers of region I (R) into its totals: flip_stats, then flip_finish. */
static void stats_region(compare_gpu *c, const compare_gpu_desc *d, int i, flip_rect r)
{
    int gx = (r.w + GROUP - 1) / GROUP, gy = (r.h + GROUP - 1) / GROUP;
    gpu_buf_recreate(&c->partials, (size_t)gx * gy * METRICS_MAP_COUNT * sizeof(float));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, FLIP_BIND_PARTIALS, c->partials.id);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, FLIP_BIND_TOTALS, c->totals.id,
                      (GLintptr)(i * TOTALS_STRIDE), sizeof(flip_gpu_totals));
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, FLIP_BIND_FINE, c->fine.id,
                      (GLintptr)(i * FINE_BYTES), FINE_BYTES);
    bind_inputs(c, d);
    glUseProgram(c->prog_stats);
    glUniform4i(glGetUniformLocation(c->prog_stats, "u_rect"), r.x, r.y, r.w, r.h);
    glUniform1i(glGetUniformLocation(c->prog_stats, "u_mode"), d->source);
    glUniform1i(glGetUniformLocation(c->prog_stats, "u_has_flip"), !d->skip_flip);
    glDispatchCompute((GLuint)gx, (GLuint)gy, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(c->prog_finish);
    glUniform1i(glGetUniformLocation(c->prog_finish, "u_groups"), gx * gy);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

/* Clears the totals of the regions from FIRST on (the fine histograms too). */
static void clear_totals(compare_gpu *c, int first)
{
    flip_gpu_totals t;
    memset(&t, 0, sizeof t);
    t.flip_min = 0x7f800000u;   /* +inf: atomicMin lowers it */
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->totals.id);
    for (int i = first; i < REGIONS; i++)
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(i * TOTALS_STRIDE), sizeof t, &t);
    uint32_t zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->fine.id);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, (GLintptr)(first * FINE_BYTES),
                         (GLsizeiptr)((REGIONS - first) * FINE_BYTES), GL_RED_INTEGER,
                         GL_UNSIGNED_INT, &zero);
}

/* The whole image's colour bar from its totals is what flip_colorize computes on the GPU; the
 * CPU's is made from the read-back numbers (metrics_colorbar_for). */
static void colorize(compare_gpu *c, const compare_gpu_desc *d)
{
    int w = d->ref.width, h = d->ref.height;
    gpu_tex_recreate(&c->out, w, h, GL_RGBA8, 1);   /* binds it to the active unit: */
    bind_inputs(c, d);                               /* the inputs after it */
    metrics_values none = {0};
    metrics_colorbar cb = metrics_colorbar_for(d->mode, &none);
    glUseProgram(c->prog_colorize);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, FLIP_BIND_TOTALS, c->totals.id, 0,
                      sizeof(flip_gpu_totals));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, FLIP_BIND_LUT, c->lut.id);
    glBindImageTexture(0, c->out.id, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glUniform2i(glGetUniformLocation(c->prog_colorize, "u_size"), w, h);
    glUniform1i(glGetUniformLocation(c->prog_colorize, "u_kind"), d->mode);
    glUniform1i(glGetUniformLocation(c->prog_colorize, "u_mode"), d->source);
    glUniform1i(glGetUniformLocation(c->prog_colorize, "u_lut"), lut_base(&cb));
    glDispatchCompute((GLuint)((w + GROUP - 1) / GROUP), (GLuint)((h + GROUP - 1) / GROUP), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
}

/* Copies the totals and fine histograms into the next ring slot and fences it. */
static void read_back(compare_gpu *c, const compare_gpu_desc *d, const flip_rect *whole,
                      const flip_rect *rect, bool has_rect)
{
    slot *s = &c->ring[c->runs % RING];
    if (s->fence)
        glDeleteSync(s->fence);   /* an unread older run: dropped */
    gpu_buf_recreate_as(&s->buf, GL_COPY_WRITE_BUFFER, REGIONS * REGION_BYTES, GL_STREAM_READ);
    glBindBuffer(GL_COPY_READ_BUFFER, c->totals.id);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                        REGIONS * TOTALS_STRIDE);
    glBindBuffer(GL_COPY_READ_BUFFER, c->fine.id);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0,
                        REGIONS * TOTALS_STRIDE, REGIONS * FINE_BYTES);
    s->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    s->run = ++c->runs;
    s->has_flip = !d->skip_flip;
    s->has_rect = has_rect;
    s->mode = d->mode;
    s->count[0] = (uint64_t)whole->w * (uint64_t)whole->h;
    s->count[1] = has_rect ? (uint64_t)rect->w * (uint64_t)rect->h : 0;
}

bool compare_gpu_run(compare_gpu *c, const compare_gpu_desc *d, char *err, size_t errlen)
{
    flip_rect whole = {0, 0, d->ref.width, d->ref.height}, rect = {0};
    bool has_rect = d->rect.w > 0 && d->rect.h > 0;
    if (!check_desc(d, err, errlen))
        return false;
    if (has_rect && !clip(d, &rect)) {
        snprintf(err, errlen, "compare: the rectangle holds no pixel of the %dx%d image",
                 d->ref.width, d->ref.height);
        return false;
    }
    bool reuse = d->flip_unchanged && c->map_w == d->ref.width && c->map_h == d->ref.height &&
                 !d->skip_flip;
    bool reuse_whole = reuse && c->whole_has_flip;
    if (!d->skip_flip && !reuse) {
        c->map_w = c->map_h = 0;
        if (!flip_gpu_run(c->flip, d->ref.texture, d->test.texture, d->ref.width,
                          d->ref.height, d->source, &d->flip, &d->exposures, err, errlen))
            return false;
        c->map_w = d->ref.width;
        c->map_h = d->ref.height;
    }
    /* Unchanged pixels: the whole image's totals of the last run stand (a new rectangle or
     * map mode needs only its own). */
    clear_totals(c, reuse_whole ? 1 : 0);
    if (!reuse_whole)
        stats_region(c, d, 0, whole);
    c->whole_has_flip = !d->skip_flip;
    if (has_rect)
        stats_region(c, d, 1, rect);
    colorize(c, d);
    read_back(c, d, &whole, &rect, has_rect);
    return true;
}

unsigned compare_gpu_texture(const compare_gpu *c)
{
    return c->out.id;
}

static void region_numbers(const slot *s, const uint8_t *base, int i, flip_pooled *flip,
                           metrics_values *m)
{
    flip_gpu_totals t;
    memcpy(&t, base + i * TOTALS_STRIDE, sizeof t);
    const uint32_t *fine = (const uint32_t *)(base + REGIONS * TOTALS_STRIDE + i * FINE_BYTES);
    double maxes[METRICS_MAP_COUNT];
    for (int k = 0; k < METRICS_MAP_COUNT; k++) {
        float f;
        memcpy(&f, &t.max_bits[k], sizeof f);
        maxes[k] = f;
    }
    metrics_finish(t.sum, maxes, s->count[i], m);
    if (s->has_flip) {
        float mn;
        memcpy(&mn, &t.flip_min, sizeof mn);
        flip_pool_from_counts(fine, t.hist, t.sum[METRICS_MAP_FLIP], mn,
                              maxes[METRICS_MAP_FLIP], s->count[i], flip);
    }
}

/* Reads slot S (its fence signalled) into *out and releases it. */
static void deliver(compare_gpu *c, slot *s, compare_gpu_numbers *out)
{
    memset(out, 0, sizeof *out);
    glBindBuffer(GL_COPY_READ_BUFFER, s->buf.id);
    const uint8_t *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, REGIONS * REGION_BYTES,
                                        GL_MAP_READ_BIT);
    if (p) {
        region_numbers(s, p, 0, &out->flip, &out->metrics);
        if (s->has_rect)
            region_numbers(s, p, 1, &out->flip_rect, &out->metrics_rect);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    out->run = s->run;
    out->has_flip = s->has_flip;
    out->has_rect = s->has_rect;
    out->colorbar = metrics_colorbar_for(s->mode, &out->metrics);
    glDeleteSync(s->fence);
    s->fence = NULL;
    c->delivered = s->run;
}

bool compare_gpu_poll(compare_gpu *c, compare_gpu_numbers *out)
{
    slot *best = NULL;
    for (int i = 0; i < RING; i++) {
        slot *s = &c->ring[i];
        if (!s->fence || s->run <= c->delivered || (best && s->run < best->run))
            continue;
        GLenum st = glClientWaitSync(s->fence, 0, 0);
        if (st == GL_ALREADY_SIGNALED || st == GL_CONDITION_SATISFIED)
            best = s;
    }
    if (!best)
        return false;
    deliver(c, best, out);
    return true;
}

bool compare_gpu_wait(compare_gpu *c, compare_gpu_numbers *out)
{
    if (!c->runs)
        return false;
    slot *s = &c->ring[(c->runs - 1) % RING];
    if (!s->fence || s->run != c->runs)
        return false;
    while (glClientWaitSync(s->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull) ==
           GL_TIMEOUT_EXPIRED) {
    }
    deliver(c, s, out);
    return true;
}

bool compare_gpu_read_map(compare_gpu *c, float *map)
{
    const slot *s = c->runs ? &c->ring[(c->runs - 1) % RING] : NULL;
    if (!s || !s->has_flip)
        return false;
    glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
    glBindTexture(GL_TEXTURE_2D, flip_gpu_map(c->flip));
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, map);
    return true;
}

bool compare_gpu_image_upload(compare_gpu_image *img, const float *rgb, int w, int h, char *err,
                              size_t errlen)
{
    gpu_tex t = {img->texture, img->width, img->height, img->texture ? GL_RGBA32F : 0, 1};
    gpu_tex_recreate(&t, w, h, GL_RGBA32F, 1);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGB, GL_FLOAT, rgb);
    *img = (compare_gpu_image){t.id, w, h};
    if (glGetError() != GL_NO_ERROR) {
        snprintf(err, errlen, "compare: cannot upload a %dx%d image", w, h);
        return false;
    }
    return true;
}

void compare_gpu_image_free(compare_gpu_image *img)
{
    gpu_tex t = {img->texture, img->width, img->height, GL_RGBA32F, 1};
    if (img->texture)
        gpu_tex_destroy(&t);
    *img = (compare_gpu_image){0};
}

void compare_gpu_destroy(compare_gpu **c)
{
    if (!c || !*c)
        return;
    compare_gpu *g = *c;
    flip_gpu_destroy(&g->flip);
    unsigned progs[] = {g->prog_stats, g->prog_finish, g->prog_colorize};
    for (int i = 0; i < 3; i++)
        if (progs[i])
            glDeleteProgram(progs[i]);
    for (int i = 0; i < RING; i++) {
        if (g->ring[i].fence)
            glDeleteSync(g->ring[i].fence);
        gpu_buf_destroy(&g->ring[i].buf);
    }
    gpu_buf *bufs[] = {&g->partials, &g->totals, &g->fine, &g->lut};
    for (int i = 0; i < 4; i++)
        gpu_buf_destroy(bufs[i]);
    gpu_tex_destroy(&g->out);
    free(g);
    *c = NULL;
}
