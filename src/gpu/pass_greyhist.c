/* 256-bin grey histogram of the tone-mapped output, three strategies of one shader
 * (greyhist.comp): global atomics, a shared histogram per group, private 8-bit
 * sub-histograms per thread. */
#include <stdio.h>

#include <glad/gl.h>

#include "imgstats_pass.h"
#include "gpu_shared.h"

struct pass_greyhist {
    pass_base base;        /* [0] HT_GREY_GLOBAL, [1] HT_GREY_SHARED */
    pass_program priv;     /* HT_GREY_PRIVATE */
};

static pass_program *program_of(pass_greyhist *p, int kernel)
{
    return kernel == HT_GREY_PRIVATE ? &p->priv : &p->base.prog[kernel == HT_GREY_SHARED];
}

pass_greyhist *pass_greyhist_create(char *err, size_t errlen)
{
    pass_greyhist *p = pass_create(sizeof *p, NULL, NULL, err, errlen);
    const int kernels[] = {HT_GREY_GLOBAL, HT_GREY_SHARED, HT_GREY_PRIVATE};
    for (int i = 0; p && i < 3; i++) {
        char def[64];
        snprintf(def, sizeof def, "#define HT_GREY_KERNEL %d\n", kernels[i]);
        if (!imgstats_program_build(program_of(p, kernels[i]), "greyhist.comp", def, err, errlen))
            pass_greyhist_destroy(&p);
    }
    return p;
}

void pass_greyhist_run(pass_greyhist *p, int kernel, ht_source out, const imgstats_buffers *b)
{
    imgstats_bind_source(out.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_HIST, b->hist);
    unsigned prog = pass_program_use(program_of(p, kernel), 1, NULL, 0);
    pass_set_ivec2(prog, "u_size", out.width, out.height);
    /* global: one thread per pixel; shared and private: one group per 64x64 tile. */
    int gx = kernel == HT_GREY_GLOBAL ? HT_GROUP_X : HT_TILE_X;
    int gy = kernel == HT_GREY_GLOBAL ? HT_GROUP_Y : HT_TILE_Y;
    glDispatchCompute((GLuint)((out.width + gx - 1) / gx), (GLuint)((out.height + gy - 1) / gy), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void pass_greyhist_destroy(pass_greyhist **p)
{
    if (p && *p)
        pass_program_destroy(&(*p)->priv);
    pass_destroy((pass_base **)p);
}
