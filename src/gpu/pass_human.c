/* The human-vision stage's pyramid and prepare passes (pass_human.h). */
#include "pass_human.h"

#include <glad/gl.h>

#include "gpu_resource.h"

struct pass_human {
    pass_base base;
    unsigned pyramid;          /* RGBA32F, mip level k - 1 = pyramid level k; 0: none */
    int levels;                /* its levels */
    int pyr_w, pyr_h;          /* the picture it was built from: size, texture, upload */
    unsigned pyr_src;
    unsigned long pyr_generation;
    gpu_tex prepared;          /* the prepare pass's output */
};

enum { PROG_PYRAMID, PROG_PREPARE };

static const pass_desc desc = {"human-vision",
                               {{"human_pyramid.comp", "#define HT_NO_FRAME 1\n", false},
                                {"human_prepare.comp",
                                 "#define HT_NO_FRAME 1\n#define HT_HUMAN 1\n", true}}};

pass_human *pass_human_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_human), &desc, err, errlen);
}

void pass_human_release_textures(pass_human *p)
{
    if (p->pyramid)
        glDeleteTextures(1, &p->pyramid);
    p->pyramid = 0;
    p->levels = 0;
    gpu_tex_destroy(&p->prepared);
}

void pass_human_destroy(pass_human **p)
{
    if (!p || !*p)
        return;
    pass_human_release_textures(*p);
    pass_destroy((pass_base **)p);
}

/* IMG on texture unit 0 (ht_load's u_src), the pipeline's buffers left as they are. */
static void bind_source(ht_source img)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, img.texture);
}

/* The levels of a W x H picture's pyramid up to ROOT: as many as keep a level at least one
 * pixel each way (human_pyramid_build stops there). */
static int pyramid_levels(int root, int w, int h)
{
    int k = 0;
    while (k < root && k < HT_PYRAMID_MAX_LEVELS && (w >> (k + 1)) >= 1 && (h >> (k + 1)) >= 1)
        k++;
    return k;
}

/* The pyramid levels stage G reads over IMG: none without acuity. */
static int stage_levels(const ht_human_grids *g, ht_source img)
{
    return g->stages & HT_HUMAN_ACUITY ? pyramid_levels(g->root_level, img.width, img.height)
                                       : 0;
}

/* Makes the pyramid texture for LEVELS levels of a W x H picture unless it is one. */
static void pyramid_texture(pass_human *p, int levels, int w, int h)
{
    if (p->pyramid && p->levels == levels && p->pyr_w == w && p->pyr_h == h)
        return;
    if (p->pyramid)
        glDeleteTextures(1, &p->pyramid);
    glGenTextures(1, &p->pyramid);
    glBindTexture(GL_TEXTURE_2D, p->pyramid);
    glTexStorage2D(GL_TEXTURE_2D, levels, GL_RGBA32F, w >> 1, h >> 1);
    /* texelFetch only: a mipmap filter, so that every level counts as part of the texture. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    p->levels = levels;
    p->pyr_w = w;
    p->pyr_h = h;
    p->pyr_src = 0;   /* contents undefined */
}

bool pass_human_pyramid(pass_human *p, ht_source img, unsigned long generation,
                        const ht_human_grids *g, char *err, size_t errlen)
{
    int levels = stage_levels(g, img);
    if (levels < 1)
        return true;
    if (p->pyramid && p->levels >= levels && p->pyr_src == img.texture &&
        p->pyr_generation == generation && p->pyr_w == img.width && p->pyr_h == img.height)
        return true;   /* a deeper pyramid holds every level of a shallower one */
    pyramid_texture(p, levels, img.width, img.height);
    bind_source(img);
    unsigned prog = pass_use(&p->base, PROG_PYRAMID, 1, err, errlen);
    if (!prog)
        return false;
    /* One dispatch per level, each reading the one before: the CPU's order of summation. */
    for (int k = 1; k <= levels; k++) {
        int w = img.width >> k, h = img.height >> k;
        if (k > 1)
            glBindImageTexture(1, p->pyramid, k - 2, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
        glBindImageTexture(2, p->pyramid, k - 1, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
        pass_set_int(prog, "u_level", k);
        pass_set_ivec2(prog, "u_size", w, h);
        glDispatchCompute((GLuint)((w + HT_GROUP_X - 1) / HT_GROUP_X),
                          (GLuint)((h + HT_GROUP_Y - 1) / HT_GROUP_Y), 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                        GL_TEXTURE_UPDATE_BARRIER_BIT);
    }
    p->pyr_src = img.texture;
    p->pyr_generation = generation;
    return true;
}

void pass_human_pyramid_stale(pass_human *p)
{
    p->pyr_src = 0;
}

unsigned pass_human_pyramid_texture(const pass_human *p, int *levels)
{
    *levels = p->pyramid ? p->levels : 0;
    return p->pyramid;
}

void pass_human_bind(const pass_human *p, unsigned prog, const ht_human_grids *g, ht_source img)
{
    int levels = stage_levels(g, img);
    unsigned stages = g->stages;
    if (levels < 1)   /* no level to blur from: the CPU reference builds none either */
        stages &= ~(unsigned)HT_HUMAN_ACUITY;
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, levels > 0 ? p->pyramid : 0);
    glActiveTexture(GL_TEXTURE0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_VEIL, g->veil);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_SAMPLE_RADII, g->sample_radii);
    pass_set_int(prog, "u_human_stages", (int)stages);
    pass_set_int(prog, "u_human_levels", levels);
    pass_set_ivec2(prog, "u_human_grid", g->fw, g->fh);
    pass_set_ivec2(prog, "u_human_pic", img.width, img.height);
}

bool pass_human_prepare(pass_human *p, ht_source img, const ht_human_grids *g,
                        const tonemap_params *params, ht_source *out, char *err,
                        size_t errlen)
{
    gpu_tex_recreate(&p->prepared, img.width, img.height, GL_RGBA32F, 1);
    bind_source(img);   /* after the recreate, which binds the output to unit 0 */
    unsigned prog = pass_use(&p->base, PROG_PREPARE, 1, err, errlen);
    if (!prog)
        return false;
    pass_human_bind(p, prog, g, img);
    pass_set_colour(prog, params);
    pass_set_float(prog, "u_scale", (float)params->scale);
    glBindImageTexture(0, p->prepared.id, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
    glDispatchCompute((GLuint)((img.width + HT_GROUP_X - 1) / HT_GROUP_X),
                      (GLuint)((img.height + HT_GROUP_Y - 1) / HT_GROUP_Y), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    *out = (ht_source){p->prepared.id, img.width, img.height, 1};
    return true;
}
