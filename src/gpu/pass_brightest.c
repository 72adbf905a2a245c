/* Brightest/darkest search (brightest.comp) and the local maxima of the peaks
 * (brightest_peaks.comp): a work group per tile, and a thread per pixel. */
#include <glad/gl.h>

#include "imgstats_pass.h"

struct pass_brightest {
    pass_base base;
};

enum { EXTREMA, PEAKS };
static const pass_desc desc = {"brightest", {
    [EXTREMA] = {"brightest.comp", NULL, false},
    [PEAKS] = {"brightest_peaks.comp", NULL, false},
}};

pass_brightest *pass_brightest_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_brightest), &desc, err, errlen);
}

/* The luminance weights W of the pixels (common.glsl's u_lum_w) on PROG. */
static void set_weights(unsigned prog, const float w[3])
{
    glProgramUniform3f(prog, glGetUniformLocation(prog, "u_lum_w"), w[0], w[1], w[2]);
}

bool pass_brightest_run(pass_brightest *p, ht_source src, const float w[3],
                        const imgstats_buffers *b, char *err, size_t errlen)
{
    imgstats_bind_source(src.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_EXTREMA_TILES, b->tiles.id);
    unsigned prog = pass_use(&p->base, EXTREMA, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    set_weights(prog, w);
    glDispatchCompute((GLuint)b->tiles_x, (GLuint)b->tiles_y, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return true;
}

bool pass_brightest_run_peaks(pass_brightest *p, ht_source src, const float w[3],
                              const imgstats_buffers *b, char *err, size_t errlen)
{
    ht_peaks_head head = {0, b->peaks_capacity};
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->peaks.id);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof head, &head);
    imgstats_bind_source(src.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_PEAKS, b->peaks.id);
    unsigned prog = pass_use(&p->base, PEAKS, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    set_weights(prog, w);
    glDispatchCompute((GLuint)((src.width + HT_GROUP_X - 1) / HT_GROUP_X),
                      (GLuint)((src.height + HT_GROUP_Y - 1) / HT_GROUP_Y), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return true;
}

void pass_brightest_destroy(pass_brightest **p)
{
    pass_destroy((pass_base **)p);
}
