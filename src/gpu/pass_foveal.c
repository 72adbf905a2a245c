/* Foveal pass and pcond's point samples (foveal.comp, points.comp); pass_foveal.h. */
#include "pass_foveal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "readback.h"

struct pass_foveal {
    pass_base base;
    gpu_tex fov;                /* RGBA32F fw x fh */
    int fw, fh;
    gpu_buf pos[2], lum;        /* point positions (x | y << 16) of each walk, and their Lw */
    gpu_buf exact;              /* points.comp's ext, then each sample's exact sum */
    gpu_readback *rb;           /* the fenced read-back of ext's four keys (made on first use) */
    int slot;                   /* its pending read's slot, -1: none */
    int pos_w[2], pos_h[2];     /* picture size each walk's positions were walked for */
    uint32_t n_points, pos_n[2]; /* this analysis' point count; positions held */
    int walk;                   /* the walk this analysis gathers (pass_foveal_prepare) */
    int dark;                   /* pass_foveal_set_dark's bin (-1: none) and sums */
    float dark_lo, dark_hi;
    unsigned char uploaded[64]; /* the foveal_config last written to the frame, when no */
    bool have_uploaded;         /* point gather has changed it since */
    gpu_buf config;             /* the foveal_config the frame is reset to (copied on the GPU) */
    unsigned char staged[64];   /* what config holds */
    bool have_staged;
};

enum { FOVEAL, GATHER, BIN, EXACT };
static const pass_desc desc = {"foveal", {
    [FOVEAL] = {"foveal.comp", NULL, false},
    [GATHER] = {"points.comp", "#define HT_POINTS_STAGE 0\n", false},
    [BIN] = {"points.comp", "#define HT_POINTS_STAGE 1\n", false},
    [EXACT] = {"points.comp", "#define HT_POINTS_STAGE 2\n", false},
}};

pass_foveal *pass_foveal_create(char *err, size_t errlen)
{
    pass_foveal *p = pass_create(sizeof(pass_foveal), &desc, err, errlen);
    if (p)
        p->slot = -1;
    return p;
}

void pass_foveal_destroy(pass_foveal **pp)
{
    if (!pp || !*pp)
        return;
    gpu_tex_destroy(&(*pp)->fov);
    gpu_buf_destroy(&(*pp)->pos[0]);
    gpu_buf_destroy(&(*pp)->pos[1]);
    gpu_buf_destroy(&(*pp)->lum);
    gpu_buf_destroy(&(*pp)->exact);
    gpu_buf_destroy(&(*pp)->config);
    gpu_readback_destroy(&(*pp)->rb);
    pass_destroy((pass_base **)pp);
}

/* The contiguous frame fields n_points .. pt_weight, as uploaded. */
typedef struct foveal_config {
    uint32_t n_points, fov_width, fov_height, pcond_rules;
    uint32_t pt_valid, pt_nonfinite, pt_min_bits, pt_max_bits, pt_counted;
    float pt_sum_ln, pt_weight;
} foveal_config;
_Static_assert(offsetof(ht_frame, pt_weight) - offsetof(ht_frame, n_points) ==
                   offsetof(foveal_config, pt_weight) - offsetof(foveal_config, n_points) &&
               offsetof(ht_frame, pt_min_bits) - offsetof(ht_frame, n_points) ==
                   offsetof(foveal_config, pt_min_bits),
               "foveal_config mirrors ht_frame's n_points .. pt_weight");

/* The point positions of walk K (0, or 1: pcond's drand48 sequence continued after walk 0,
 * the veil's second histogram) for a W x H picture, walked when the picture size changed
 * (CPU, ~W*H steps each); false when out of memory. */
static bool walk_points(pass_foveal *p, int k, int w, int h)
{
    if (w == p->pos_w[k] && h == p->pos_h[k] && p->n_points == p->pos_n[k])
        return true;
    uint32_t *xy = malloc(sizeof *xy * p->n_points);
    uint64_t state = 0;   /* glibc's drand48 when never seeded, as tonemap_point_positions */
    bool ok = xy != NULL;
    for (int i = 0; ok && i <= k; i++)
        ok = tonemap_point_walk(w, h, p->n_points, &state, xy);
    if (ok) {
        gpu_buf_recreate(&p->pos[k], sizeof *xy * p->n_points);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof *xy * p->n_points, xy);
        gpu_buf_recreate(&p->lum, sizeof(float) * p->n_points);
        p->pos_w[k] = w;
        p->pos_h[k] = h;
        p->pos_n[k] = p->n_points;
    }
    free(xy);
    return ok;
}

/* The frame's n_points .. pt_weight set to C by a copy on the GPU, in order with the passes:
 * a CPU write into the frame while the GPU still uses it (the last frame's apply reads it)
 * serialises the frame; it cost 40 us at 4K on an H100, and on an H200 the foveal row of
 * --preset pcond measured 71 us with point samples (reset every frame) against 29 without.
 * Only CONFIG, a buffer of its own, is written from the CPU, and only when C changes. */
static void reset_frame(pass_foveal *p, const ht_buffers *b, const foveal_config *c)
{
    if (!p->have_staged || memcmp(p->staged, c, sizeof *c) != 0) {
        gpu_buf_recreate(&p->config, sizeof *c);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof *c, c);
        memcpy(p->staged, c, sizeof *c);
        p->have_staged = true;
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);   /* after the last gather's atomics */
    glBindBuffer(GL_COPY_READ_BUFFER, p->config.id);
    glBindBuffer(GL_COPY_WRITE_BUFFER, b->frame.id);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0,
                        offsetof(ht_frame, n_points), sizeof *c);
}

void pass_foveal_prepare(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                         const tonemap_params *params, int walk)
{
    const ht_source src = {0, img->width, img->height, 1};   /* the picture's size */
    foveal_config c = {0};
    c.pcond_rules = params->pcond;
    c.pt_min_bits = 0x7f7fffffu;
    p->n_points = 0;
    p->walk = walk;
    p->dark = -1;
    if (src.width > 0 && src.height > 0)   /* the human-vision stage's also in pixel sampling */
        tonemap_foveal_grid(src.width, src.height, params->fov, &p->fw, &p->fh);
    if (params->sampling == HT_SAMPLING_FOVEAL && src.width > 0 && src.height > 0) {
        c.fov_width = (uint32_t)p->fw;
        c.fov_height = (uint32_t)p->fh;
        if (params->point_samples)
            p->n_points = c.n_points = tonemap_point_count(src.width, src.height, p->fw, p->fh);
    }
    /* Without point samples nothing changes these fields afterwards, so they are written only
     * when they change. With point samples the gather accumulates into them and they must be
     * reset every time. */
    _Static_assert(sizeof c <= sizeof p->uploaded, "foveal_config fits the cache");
    bool same = p->have_uploaded && memcmp(p->uploaded, &c, sizeof c) == 0;
    if (!same)
        reset_frame(p, b, &c);
    memcpy(p->uploaded, &c, sizeof c);
    p->have_uploaded = !p->n_points;
    if (!p->n_points)
        return;
    if (!walk_points(p, walk, src.width, src.height)) {
        p->n_points = c.n_points = 0;   /* out of memory: no point samples */
        reset_frame(p, b, &c);
    }
}

bool pass_foveal_run(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                     const tonemap_params *params, char *err, size_t errlen)
{
    gpu_tex_recreate(&p->fov, p->fw, p->fh, GL_RGBA32F, 1);
    unsigned prog = pass_use(&p->base, FOVEAL, img->piece[0].src.samples, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_size", img->width, img->height);
    pass_set_ivec2(prog, "u_grid", p->fw, p->fh);
    pass_set_int(prog, "u_rgbe", params->pcond);
    pass_set_float(prog, "u_rgbe_unit", (float)(HT_WHTEFFICACY / params->scale));
    /* One dispatch per piece, adding into the sums of the previous one (foveal.comp). */
    glBindImageTexture(0, p->fov.id, 0, GL_FALSE, 0,
                       img->count > 1 ? GL_READ_WRITE : GL_WRITE_ONLY, GL_RGBA32F);
    for (int i = 0; i < img->count; i++) {
        const ht_piece *pc = &img->piece[i];
        pass_bind(pc->src, b);
        pass_set_ivec2(prog, "u_origin", pc->x, pc->y);
        pass_set_ivec2(prog, "u_piece", pc->src.width, pc->src.height);
        pass_set_int(prog, "u_first", i == 0);
        pass_set_int(prog, "u_last", i == img->count - 1);
        glDispatchCompute((GLuint)p->fw, (GLuint)p->fh, 1);
        if (i < img->count - 1)
            glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    return true;
}

/* The positions buffer of the current walk. */
static unsigned positions(const pass_foveal *p)
{
    return p->pos[p->walk].id;
}

bool pass_foveal_gather(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                        const tonemap_params *params, char *err, size_t errlen)
{
    if (!p->n_points)
        return true;
    unsigned prog = pass_use(&p->base, GATHER, img->piece[0].src.samples, err, errlen);
    if (!prog)
        return false;
    pass_set_uint(prog, "u_count", p->n_points);
    pass_set_float(prog, "u_scale", (float)params->scale);
    pass_set_colour(prog, params);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_LUM, p->lum.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_POS, positions(p));
    /* Per piece, each gathering the samples that lie in it (points.comp). */
    for (int i = 0; i < img->count; i++) {
        const ht_piece *pc = &img->piece[i];
        pass_bind(pc->src, b);
        pass_set_ivec2(prog, "u_origin", pc->x, pc->y);
        pass_set_ivec2(prog, "u_piece", pc->src.width, pc->src.height);
        glDispatchCompute((p->n_points + HT_POINTS_GROUP - 1) / HT_POINTS_GROUP, 1, 1);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

bool pass_foveal_bin_points(pass_foveal *p, const ht_buffers *b, char *err, size_t errlen)
{
    if (!p->n_points)
        return true;
    unsigned prog = pass_use(&p->base, BIN, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_uint(prog, "u_count", p->n_points);
    pass_set_int(prog, "u_dark", p->dark);
    glProgramUniform2f(prog, glGetUniformLocation(prog, "u_dark_exact"), p->dark_lo,
                       p->dark_hi);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_FRAME, b->frame.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_LUM, p->lum.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_POS, positions(p));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_EXACT, p->exact.id);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void pass_foveal_set_dark(pass_foveal *p, int bin, float lo, float hi)
{
    p->dark = bin;
    p->dark_lo = lo;
    p->dark_hi = hi;
}

uint32_t pass_foveal_points(const pass_foveal *p)
{
    return p->n_points;
}

/* The float whose order key (points.comp's order_key) is K. */
static float key_value(uint32_t k)
{
    uint32_t b = k & 0x80000000u ? k & 0x7fffffffu : ~k;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

bool pass_foveal_exact(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                       const tonemap_params *params, char *err, size_t errlen)
{
    if (!p->n_points)
        return true;
    unsigned prog = pass_use(&p->base, EXACT, img->piece[0].src.samples, err, errlen);
    if (!prog)
        return false;
    size_t bytes = sizeof(uint32_t) * HT_POINT_EXACT_HEAD + sizeof(float) * p->n_points;
    gpu_buf_recreate(&p->exact, bytes);
    const uint32_t lowest = 0xffffffffu, highest = 0;   /* the sentinels: no valid sample */
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 0, 8, GL_RED_INTEGER,
                         GL_UNSIGNED_INT, &lowest);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 8, 8, GL_RED_INTEGER,
                         GL_UNSIGNED_INT, &highest);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    pass_set_uint(prog, "u_count", p->n_points);
    pass_set_float(prog, "u_scale", (float)params->scale);
    pass_set_ivec2(prog, "u_grid", p->fw, p->fh);
    pass_set_colour(prog, params);
    pass_bind(img->piece[0].src, b);
    glBindImageTexture(0, p->fov.id, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_EXACT, p->exact.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_POS, positions(p));
    uint32_t n = p->n_points > (uint32_t)(p->fw * p->fh) ? p->n_points
                                                        : (uint32_t)(p->fw * p->fh);
    glDispatchCompute((n + HT_POINTS_GROUP - 1) / HT_POINTS_GROUP, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    /* A fenced read, collected by pass_foveal_exact_read after the passes queued between:
     * glGetBufferSubData would wait for everything queued and leave the GPU idle until the
     * CPU queues more (a round trip, ~60 us on an H200). */
    if (!p->rb && !(p->rb = gpu_readback_create(1))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    gpu_readback_cancel(p->rb, p->slot);   /* a frame that stopped before collecting it */
    p->slot = gpu_readback_start_buffer(p->rb, p->exact.id, 4 * sizeof(uint32_t), err, errlen);
    return p->slot >= 0;
}

bool pass_foveal_exact_pending(const pass_foveal *p)
{
    return p->slot >= 0;
}

bool pass_foveal_exact_read(pass_foveal *p, float ext[4], char *err, size_t errlen)
{
    uint32_t k[4];
    int slot = p->slot;
    p->slot = -1;
    if (!p->rb || !gpu_readback_finish(p->rb, slot, k, err, errlen)) {
        if (!p->rb)
            snprintf(err, errlen, "no exact sums pending");
        return false;
    }
    for (int i = 0; i < 4; i++)
        ext[i] = k[i] == (i < 2 ? 0xffffffffu : 0u) ? NAN : key_value(k[i]);
    return true;
}

ht_source pass_foveal_source(const pass_foveal *p)
{
    return (ht_source){p->fov.id, p->fw, p->fh, 1};
}
