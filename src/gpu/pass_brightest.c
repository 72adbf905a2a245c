/* Brightest/darkest search (brightest.comp, two levels) and the local maxima of the peaks
 * (brightest_peaks.comp). */
#include <glad/gl.h>

#include "imgstats_pass.h"

struct pass_brightest {
    pass_base base;        /* [0] level 1, [1] level 2 */
    pass_program peaks;
};

pass_brightest *pass_brightest_create(char *err, size_t errlen)
{
    pass_brightest *p = pass_create(sizeof *p, NULL, NULL, err, errlen);
    if (p && (!imgstats_program_build(&p->base.prog[0], "brightest.comp",
                                      "#define HT_EXTREMA_LEVEL 1\n", err, errlen) ||
              !imgstats_program_build(&p->base.prog[1], "brightest.comp",
                                      "#define HT_EXTREMA_LEVEL 2\n", err, errlen) ||
              !imgstats_program_build(&p->peaks, "brightest_peaks.comp", NULL, err, errlen)))
        pass_brightest_destroy(&p);
    return p;
}

void pass_brightest_run(pass_brightest *p, ht_source src, const imgstats_buffers *b)
{
    imgstats_bind_source(src.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_EXTREMA_TILES, b->tiles);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_EXTREMA, b->extrema);
    unsigned prog = pass_program_use(&p->base.prog[0], 1, NULL, 0);
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    glDispatchCompute((GLuint)b->tiles_x, (GLuint)b->tiles_y, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    prog = pass_program_use(&p->base.prog[1], 1, NULL, 0);
    pass_set_uint(prog, "u_tiles", (unsigned)(b->tiles_x * b->tiles_y));
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void pass_brightest_run_peaks(pass_brightest *p, ht_source src, const imgstats_buffers *b)
{
    ht_peaks_head head = {0, b->peaks_capacity};
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->peaks);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof head, &head);
    imgstats_bind_source(src.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_PEAKS, b->peaks);
    unsigned prog = pass_program_use(&p->peaks, 1, NULL, 0);
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    glDispatchCompute((GLuint)((src.width + HT_GROUP_X - 1) / HT_GROUP_X),
                      (GLuint)((src.height + HT_GROUP_Y - 1) / HT_GROUP_Y), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void pass_brightest_destroy(pass_brightest **p)
{
    if (p && *p)
        pass_program_destroy(&(*p)->peaks);
    pass_destroy((pass_base **)p);
}
