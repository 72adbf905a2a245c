/* RGBA histogram of the tone-mapped output (colorhist.comp) and the clear of both
 * histograms (colorhist_clear.comp). */
#include <glad/gl.h>

#include "imgstats_pass.h"

struct pass_colorhist {
    pass_base base;
};

enum { CLEAR, COUNT };
static const pass_desc desc = {"colorhist", {
    [CLEAR] = {"colorhist_clear.comp", NULL, false},
    [COUNT] = {"colorhist.comp", NULL, false},
}};

pass_colorhist *pass_colorhist_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_colorhist), &desc, err, errlen);
}

bool pass_colorhist_clear(pass_colorhist *p, const imgstats_buffers *b, char *err, size_t errlen)
{
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_HIST, b->hist.id);
    if (!pass_use(&p->base, CLEAR, 1, err, errlen))
        return false;
    glDispatchCompute(4, 1, 1); /* 4 x HT_COLOR_BINS threads: one per RGBA bin */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

bool pass_colorhist_run(pass_colorhist *p, ht_source out, const imgstats_buffers *b, char *err,
                        size_t errlen)
{
    imgstats_bind_source(out.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_HIST, b->hist.id);
    unsigned prog = pass_use(&p->base, COUNT, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_size", out.width, out.height);
    glDispatchCompute((GLuint)((out.width + HT_TILE_X - 1) / HT_TILE_X),
                      (GLuint)((out.height + HT_TILE_Y - 1) / HT_TILE_Y), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return true;
}

void pass_colorhist_destroy(pass_colorhist **p)
{
    pass_destroy((pass_base **)p);
}
