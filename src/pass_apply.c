/* Apply pass: tone-map every sample, resolve, encode into RGBA8 (apply.comp). */
#include <glad/gl.h>

#include "pass.h"

struct pass_apply {
    pass_base base;
    unsigned encode;            /* SSBO: the encoding thresholds for these: */
    int transfer;
    double gamma;
};

pass_apply *pass_apply_create(char *err, size_t errlen)
{
    pass_apply *p = pass_create(sizeof(pass_apply), "apply.comp", NULL, err, errlen);
    if (p) {
        glGenBuffers(1, &p->encode);
        p->transfer = -1;
    }
    return p;
}

bool pass_apply_run(pass_apply *p, ht_source src, const ht_buffers *b, unsigned out,
                    const tonemap_params *params, char *err, size_t errlen)
{
    pass_bind(src, b);
    unsigned prog = pass_program_use(&p->base.prog[0], src.samples, err, errlen);
    if (!prog)
        return false;
    if (params->transfer != p->transfer || params->gamma != p->gamma) {
        float t[256];
        tonemap_encode_thresholds(params, t);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->encode);
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof t, t, GL_STATIC_DRAW);
        p->transfer = params->transfer;
        p->gamma = params->gamma;
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_ENCODE, p->encode);
    glBindImageTexture(0, out, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    pass_set_float(prog, "u_scale", (float)params->scale);
    pass_set_float(prog, "u_ldmax", (float)params->ldmax);
    pass_set_float(prog, "u_drange", (float)params->drange);
    pass_set_int(prog, "u_samples", src.samples);
    pass_set_int(prog, "u_transfer", params->transfer);
    pass_set_float(prog, "u_gamma", (float)params->gamma);
    const int gx = HT_GROUP_X * HT_APPLY_STEP, gy = HT_GROUP_Y * HT_APPLY_STEP;
    glDispatchCompute((GLuint)((src.width + gx - 1) / gx), (GLuint)((src.height + gy - 1) / gy), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    return true;
}

void pass_apply_destroy(pass_apply **p)
{
    if (p && *p)
        glDeleteBuffers(1, &(*p)->encode);
    pass_destroy((pass_base **)p);
}
