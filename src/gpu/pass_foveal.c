/* Foveal pass and pcond's point samples (foveal.comp, points.comp); pass_foveal.h. */
#include "pass_foveal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "shaders.h"

struct pass_foveal {
    pass_base base;             /* [0] foveal.comp (2D / MS) */
    pass_program gather[2];     /* points.comp stage 0 (2D / MS); stage 1 below */
    unsigned bin_prog;
    unsigned fov_tex;           /* RGBA32F fw x fh */
    int fw, fh;
    unsigned pos_buf, lum_buf;  /* point positions (x | y << 16) and their Lw */
    int pos_w, pos_h;           /* picture size the positions were walked for */
    uint32_t n_points, pos_n;   /* this analysis' point count; positions held */
    int luminance;
    unsigned char uploaded[64]; /* the foveal_config last written to the frame, when no */
    bool have_uploaded;         /* point gather has changed it since */
};

pass_foveal *pass_foveal_create(char *err, size_t errlen)
{
    pass_foveal *p = pass_create(sizeof *p, "foveal.comp", NULL, err, errlen);
    if (!p)
        return NULL;
    if (!(p->bin_prog = shaders_compute("points.comp", "#define HT_POINTS_STAGE 1\n", err, errlen))) {
        pass_foveal_destroy(&p);
        return NULL;
    }
    glGenBuffers(1, &p->pos_buf);
    glGenBuffers(1, &p->lum_buf);
    return p;
}

void pass_foveal_destroy(pass_foveal **pp)
{
    if (!pp || !*pp)
        return;
    pass_foveal *p = *pp;
    for (int v = 0; v < 2; v++)
        if (p->gather[v].prog[0])
            glDeleteProgram(p->gather[v].prog[0]);
    if (p->bin_prog)
        glDeleteProgram(p->bin_prog);
    glDeleteTextures(1, &p->fov_tex);
    unsigned bufs[2] = {p->pos_buf, p->lum_buf};
    glDeleteBuffers(2, bufs);
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

void pass_foveal_prepare(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                         const tonemap_params *params)
{
    const ht_source src = {0, img->width, img->height, 1};   /* the picture's size */
    foveal_config c = {0};
    c.pcond_rules = params->pcond;
    c.pt_min_bits = 0x7f7fffffu;
    p->n_points = 0;
    if (params->sampling == HT_SAMPLING_FOVEAL && src.width > 0 && src.height > 0) {
        tonemap_foveal_grid(src.width, src.height, params->fov, &p->fw, &p->fh);
        c.fov_width = (uint32_t)p->fw;
        c.fov_height = (uint32_t)p->fh;
        if (params->point_samples)
            p->n_points = c.n_points = tonemap_point_count(src.width, src.height, p->fw, p->fh);
    }
    /* Writing the frame while the GPU still uses it serialises the frame (it cost the
     * histogram pass 40 us at 4K on an H100): without point samples nothing changes these
     * fields afterwards, so they are written only when they change. With point samples the
     * gather accumulates into them and they must be reset every time. */
    _Static_assert(sizeof c <= sizeof p->uploaded, "foveal_config fits the cache");
    bool same = p->have_uploaded && memcmp(p->uploaded, &c, sizeof c) == 0;
    if (!same) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->frame);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, offsetof(ht_frame, n_points), sizeof c, &c);
    }
    memcpy(p->uploaded, &c, sizeof c);
    p->have_uploaded = !p->n_points;
    if (!p->n_points)
        return;
    if (src.width != p->pos_w || src.height != p->pos_h || p->n_points != p->pos_n) {
        /* The walk depends on the picture size only: once per size (CPU, ~W*H steps). */
        uint32_t *xy = malloc(sizeof *xy * p->n_points);
        if (!xy || !tonemap_point_positions(src.width, src.height, p->n_points, xy)) {
            free(xy);
            p->n_points = 0;
            c.n_points = 0;
            glBufferSubData(GL_SHADER_STORAGE_BUFFER, offsetof(ht_frame, n_points), sizeof c, &c);
            return;
        }
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->pos_buf);
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof *xy * p->n_points, xy, GL_STATIC_DRAW);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->lum_buf);
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(float) * p->n_points, NULL, GL_DYNAMIC_COPY);
        free(xy);
        p->pos_w = src.width;
        p->pos_h = src.height;
        p->pos_n = p->n_points;
    }
}

static void ensure_fov_texture(pass_foveal *p)
{
    GLint w = 0, h = 0;
    if (p->fov_tex) {
        glBindTexture(GL_TEXTURE_2D, p->fov_tex);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
        if (w == p->fw && h == p->fh)
            return;
        glDeleteTextures(1, &p->fov_tex);
    }
    glGenTextures(1, &p->fov_tex);
    glBindTexture(GL_TEXTURE_2D, p->fov_tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, p->fw, p->fh);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

bool pass_foveal_run(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                     const tonemap_params *params, ht_source *fov, char *err, size_t errlen)
{
    ensure_fov_texture(p);
    int samples = img->piece[0].src.samples;
    unsigned prog = pass_program_use(&p->base.prog[0], samples, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_size", img->width, img->height);
    pass_set_ivec2(prog, "u_grid", p->fw, p->fh);
    pass_set_int(prog, "u_rgbe", params->pcond);
    /* One dispatch per piece, adding into the sums of the previous one (foveal.comp). */
    glBindImageTexture(0, p->fov_tex, 0, GL_FALSE, 0,
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
    *fov = pass_foveal_source(p);
    if (p->n_points) {
        int v = samples > 1;
        pass_program *g = &p->gather[v];
        if (!g->prog[0]) {
            g->prog[0] = shaders_compute("points.comp",
                                         v ? "#define HT_POINTS_STAGE 0\n#define HT_SRC_MS 1\n"
                                           : "#define HT_POINTS_STAGE 0\n#define HT_SRC_2D 1\n",
                                         err, errlen);
            if (!g->prog[0])
                return false;
        }
        prog = g->prog[0];
        glUseProgram(prog);
        pass_set_uint(prog, "u_count", p->n_points);
        pass_set_float(prog, "u_scale", (float)params->scale);
        pass_set_int(prog, "u_luminance", params->luminance);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_LUM, p->lum_buf);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_POS, p->pos_buf);
        /* Per piece, each gathering the samples that lie in it (points.comp). */
        for (int i = 0; i < img->count; i++) {
            const ht_piece *pc = &img->piece[i];
            pass_bind(pc->src, b);
            pass_set_ivec2(prog, "u_origin", pc->x, pc->y);
            pass_set_ivec2(prog, "u_piece", pc->src.width, pc->src.height);
            glDispatchCompute((p->n_points + HT_POINTS_GROUP - 1) / HT_POINTS_GROUP, 1, 1);
        }
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    return true;
}

bool pass_foveal_bin_points(pass_foveal *p, const ht_buffers *b, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    if (!p->n_points)
        return true;
    glUseProgram(p->bin_prog);
    pass_set_uint(p->bin_prog, "u_count", p->n_points);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_FRAME, b->frame);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_LUM, p->lum_buf);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_POS, p->pos_buf);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

ht_source pass_foveal_source(const pass_foveal *p)
{
    return (ht_source){p->fov_tex, p->fw, p->fh, 1};
}
