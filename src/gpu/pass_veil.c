/* Veil and sample-radius passes of the human-vision analysis (veil.comp, sample_radii.comp);
 * pass_veil.h. */
#include "pass_veil.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "readback.h"

struct pass_veil {
    pass_base base;
    gpu_buf dirs;               /* fw * fh vec4 view-ray directions (HT_BIND_RAY_DIRS) */
    int dirs_w, dirs_h;         /* the picture and field of view they were made for */
    double dirs_fov;
    gpu_buf max_sr;             /* each radii group's largest radius, read back */
    unsigned groups;            /* the groups of the pending read */
    gpu_readback *rb;           /* its fenced read-back (made on first use) */
    int slot;                   /* the pending read's slot, -1: none */
    float last_max;             /* the last one collected (0: none yet) */
};

enum { VEIL, VEIL_FOVEAL, RADII, BINNING };
static const pass_desc desc = {"human", {
    [VEIL] = {"veil.comp", "#define HT_VEIL_STAGE 0\n", false},
    [VEIL_FOVEAL] = {"veil.comp", "#define HT_VEIL_STAGE 1\n", false},
    [RADII] = {"sample_radii.comp", NULL, false},
    [BINNING] = {"binning_save.comp", NULL, false},
}};

pass_veil *pass_veil_create(char *err, size_t errlen)
{
    pass_veil *p = pass_create(sizeof(pass_veil), &desc, err, errlen);
    if (p)
        p->slot = -1;
    return p;
}

void pass_veil_destroy(pass_veil **pp)
{
    if (!pp || !*pp)
        return;
    gpu_buf_destroy(&(*pp)->dirs);
    gpu_buf_destroy(&(*pp)->max_sr);
    gpu_readback_destroy(&(*pp)->rb);
    pass_destroy((pass_base **)pp);
}

bool pass_veil_prepare(pass_veil *p, int w, int h, const tonemap_params *params,
                        ht_buffers *b, human_view *view)
{
    int fw, fh;
    human_view_default(w, h, params->fov, view);
    tonemap_foveal_grid(w, h, params->fov, &fw, &fh);
    size_t n = (size_t)fw * fh;
    if (w != p->dirs_w || h != p->dirs_h || params->fov != p->dirs_fov || !p->dirs.id) {
        float *dirs = malloc(n * 3 * sizeof *dirs), *vec4s = malloc(n * 4 * sizeof *vec4s);
        if (!dirs || !vec4s) {
            free(dirs);
            free(vec4s);
            return false;
        }
        human_ray_dirs(view, fw, fh, dirs);
        for (size_t k = 0; k < n; k++)
            for (int c = 0; c < 4; c++)
                vec4s[4 * k + c] = c < 3 ? dirs[3 * k + c] : 0.0f;
        gpu_buf_recreate(&p->dirs, n * 4 * sizeof *vec4s);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(n * 4 * sizeof *vec4s), vec4s);
        free(dirs);
        free(vec4s);
        p->dirs_w = w;
        p->dirs_h = h;
        p->dirs_fov = params->fov;
    }
    gpu_buf_recreate(&b->veil, n * 4 * sizeof(float));
    gpu_buf_recreate(&b->sample_radii, n * sizeof(float));
    b->fov_w = fw;
    b->fov_h = fh;
    return true;
}

bool pass_veil_run(pass_veil *p, ht_source fov, const ht_buffers *b, char *err,
                     size_t errlen)
{
    unsigned n = (unsigned)b->fov_w * (unsigned)b->fov_h;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_RAY_DIRS, p->dirs.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_VEIL, b->veil.id);
    glBindImageTexture(0, fov.texture, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA32F);
    for (int stage = VEIL; stage <= VEIL_FOVEAL; stage++) {
        unsigned prog = pass_use(&p->base, stage, 1, err, errlen);
        if (!prog)
            return false;
        pass_set_ivec2(prog, "u_grid", b->fov_w, b->fov_h);
        /* The CPU keeps (1 - HT_VEIL_ADAPT) F in double before rounding to float. */
        glProgramUniform1d(prog, glGetUniformLocation(prog, "u_keep"), 1.0 - HT_VEIL_ADAPT);
        /* Stage 0: a group per foveal pixel; stage 1: a thread per foveal pixel. */
        glDispatchCompute(stage == VEIL ? n : (n + HT_VEIL_GROUP - 1) / HT_VEIL_GROUP, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                        GL_TEXTURE_FETCH_BARRIER_BIT);
    }
    return true;
}

bool pass_veil_radii(pass_veil *p, ht_source fov, int w, int h, const ht_buffers *b,
                      const tonemap_params *params, char *err, size_t errlen)
{
    unsigned prog = pass_use(&p->base, RADII, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_pic", w, h);
    pass_set_ivec2(prog, "u_grid", b->fov_w, b->fov_h);
    pass_set_float(prog, "u_scale", (float)params->scale);
    pass_set_colour(prog, params);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_RAY_DIRS, p->dirs.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_SAMPLE_RADII, b->sample_radii.id);
    glBindImageTexture(0, fov.texture, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    unsigned n = (unsigned)b->fov_w * (unsigned)b->fov_h;
    p->groups = (n + HT_RADII_GROUP - 1) / HT_RADII_GROUP;
    gpu_buf_recreate(&p->max_sr, p->groups * sizeof(float));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_EXACT, p->max_sr.id);
    glDispatchCompute(p->groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    /* A fenced read instead of glGetBufferSubData, which waits for everything queued before
     * it and leaves the GPU idle until the CPU queues more (a round trip, ~60 us on an H200):
     * the pipeline queues the analysis after the veil before it collects the read. */
    if (!p->rb && !(p->rb = gpu_readback_create(1))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    gpu_readback_cancel(p->rb, p->slot);   /* a frame that stopped before collecting it */
    p->slot =
        gpu_readback_start_buffer(p->rb, p->max_sr.id, p->groups * sizeof(float), err, errlen);
    return p->slot >= 0;
}

bool pass_veil_radii_max(pass_veil *p, float *max_sr, char *err, size_t errlen)
{
    int slot = p->slot;
    p->slot = -1;
    if (slot < 0 && p->last_max > 0.0f) {   /* collected already (bench runs a pass alone) */
        *max_sr = p->last_max;
        return true;
    }
    float *group = p->rb && slot >= 0 ? malloc(p->groups * sizeof *group) : NULL;
    if (!group || !gpu_readback_finish(p->rb, slot, group, err, errlen)) {
        if (!p->rb || slot < 0)
            snprintf(err, errlen, "no sample radii pending");
        else if (!group)
            snprintf(err, errlen, "out of memory");
        free(group);
        return false;
    }
    *max_sr = 1.0f;   /* each group's is at least 1 */
    for (unsigned g = 0; g < p->groups; g++)
        *max_sr = group[g] > *max_sr ? group[g] : *max_sr;
    free(group);
    p->last_max = *max_sr;
    return true;
}

bool pass_veil_binning_save(pass_veil *p, const ht_buffers *b, unsigned binnings, int slot,
                            char *err, size_t errlen)
{
    unsigned prog = pass_use(&p->base, BINNING, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_int(prog, "u_slot", slot);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_FRAME, b->frame.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_POINT_EXACT, binnings);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);   /* after the analysis' writes */
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);    /* the slot is copied back later */
    return true;
}
