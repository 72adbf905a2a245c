#include "pass.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "shaders.h"

unsigned pass_use(pass_base *p, int i, int samples, char *err, size_t errlen)
{
    pass_program *pp = &p->prog[i];
    int v = samples > 1 ? 1 : 0;
    if (!pp->prog[v]) {
        char defines[1024];
        snprintf(defines, sizeof defines, "#define HT_SRC_%s 1\n%s", v ? "MS" : "2D",
                 pp->desc->defines ? pp->desc->defines : "");
        char why[HT_ERR_MAX];
        if (!(pp->prog[v] = shaders_compute(pp->desc->shader, defines, why, sizeof why)))
            snprintf(err, errlen, "%s pass: %s", p->desc->name, why);
    }
    if (pp->prog[v])
        glUseProgram(pp->prog[v]);
    return pp->prog[v];
}

void pass_bind(ht_source src, const ht_buffers *b)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(src.samples > 1 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D, src.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_PARTIALS, b->partials.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_TILE_HIST, b->tile_hist.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_TILE_SUMS, b->tile_sums.id);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_FRAME, b->frame.id);
    if (b->dispatch.id)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_DISPATCH, b->dispatch.id);
}

void pass_set_int(unsigned prog, const char *name, int v)
{
    glProgramUniform1i(prog, glGetUniformLocation(prog, name), v);
}

void pass_set_uint(unsigned prog, const char *name, unsigned v)
{
    glProgramUniform1ui(prog, glGetUniformLocation(prog, name), v);
}

void pass_set_float(unsigned prog, const char *name, float v)
{
    glProgramUniform1f(prog, glGetUniformLocation(prog, name), v);
}

void pass_set_ivec2(unsigned prog, const char *name, int x, int y)
{
    glProgramUniform2i(prog, glGetUniformLocation(prog, name), x, y);
}

void pass_set_vec2(unsigned prog, const char *name, float x, float y)
{
    glProgramUniform2f(prog, glGetUniformLocation(prog, name), x, y);
}

void pass_set_colour(unsigned prog, const tonemap_params *p)
{
    float w[3], m[9];
    double dl[3];
    tonemap_float_weights(p, w);
    glProgramUniform3f(prog, glGetUniformLocation(prog, "u_lum_w"), w[0], w[1], w[2]);
    for (int i = 0; i < 9; i++)
        m[i] = (float)p->colour.to_display[i];
    /* Row-major in C: GL transposes it into its column-major mat3. */
    glProgramUniformMatrix3fv(prog, glGetUniformLocation(prog, "u_to_display"), 1, GL_TRUE, m);
    colour_display_lum(p->display_space, dl);
    glProgramUniform3f(prog, glGetUniformLocation(prog, "u_display_lum"), (float)dl[0],
                       (float)dl[1], (float)dl[2]);
    glProgramUniform1i(prog, glGetUniformLocation(prog, "u_gamut"), p->gamut);
    glProgramUniform1i(prog, glGetUniformLocation(prog, "u_convert"),
                       !colour_xform_is_identity(&p->colour));
}

void *pass_create(size_t size, const pass_desc *desc, char *err, size_t errlen)
{
    pass_base *p = calloc(1, size);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->desc = desc;
    for (int i = 0; i < PASS_MAX_PROGRAMS && desc->program[i].shader; i++) {
        p->prog[i].desc = &desc->program[i];
        if (!desc->program[i].lazy && !pass_use(p, i, 1, err, errlen)) {
            pass_destroy(&p);
            return NULL;
        }
    }
    return p;
}

void pass_destroy(pass_base **pass)
{
    if (!pass || !*pass)
        return;
    for (int i = 0; i < PASS_MAX_PROGRAMS; i++)
        for (int v = 0; v < 2; v++)
            if ((*pass)->prog[i].prog[v])
                glDeleteProgram((*pass)->prog[i].prog[v]);
    free(*pass);
    *pass = NULL;
}
