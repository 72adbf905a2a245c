/* RGBA histogram of the tone-mapped output (colorhist.comp) and the clear of both
 * histograms (colorhist_clear.comp). */
#include <glad/gl.h>

#include "imgstats_pass.h"

struct pass_colorhist {
    pass_base base;        /* [0] clear, [1] count */
};

pass_colorhist *pass_colorhist_create(char *err, size_t errlen)
{
    pass_colorhist *p = pass_create(sizeof *p, NULL, NULL, err, errlen);
    if (p && (!imgstats_program_build(&p->base.prog[0], "colorhist_clear.comp", NULL, err, errlen) ||
              !imgstats_program_build(&p->base.prog[1], "colorhist.comp", NULL, err, errlen)))
        pass_colorhist_destroy(&p);
    return p;
}

void pass_colorhist_clear(pass_colorhist *p, const imgstats_buffers *b)
{
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_HIST, b->hist);
    pass_program_use(&p->base.prog[0], 1, NULL, 0);
    glDispatchCompute(4, 1, 1); /* 4 x HT_COLOR_BINS threads: one per RGBA bin */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void pass_colorhist_run(pass_colorhist *p, ht_source out, const imgstats_buffers *b)
{
    imgstats_bind_source(out.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_HIST, b->hist);
    unsigned prog = pass_program_use(&p->base.prog[1], 1, NULL, 0);
    pass_set_ivec2(prog, "u_size", out.width, out.height);
    glDispatchCompute((GLuint)((out.width + HT_TILE_X - 1) / HT_TILE_X),
                      (GLuint)((out.height + HT_TILE_Y - 1) / HT_TILE_Y), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void pass_colorhist_destroy(pass_colorhist **p)
{
    pass_destroy((pass_base **)p);
}
