#include "pass.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "shaders.h"

unsigned pass_program_use(pass_program *pp, int samples, char *err, size_t errlen)
{
    int v = samples > 1 ? 1 : 0;
    if (!pp->prog[v])
        pp->prog[v] = shaders_compute(pp->name, v ? "#define HT_SRC_MS 1\n" : "#define HT_SRC_2D 1\n",
                                      err, errlen);
    if (pp->prog[v])
        glUseProgram(pp->prog[v]);
    return pp->prog[v];
}

void pass_program_destroy(pass_program *pp)
{
    for (int v = 0; v < 2; v++)
        if (pp->prog[v]) {
            glDeleteProgram(pp->prog[v]);
            pp->prog[v] = 0;
        }
}

void pass_bind(ht_source src, const ht_buffers *b)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(src.samples > 1 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D, src.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_PARTIALS, b->partials);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_TILE_HIST, b->tile_hist);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_TILE_SUMS, b->tile_sums);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_FRAME, b->frame);
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

void *pass_create(size_t size, const char *name0, const char *name1, char *err, size_t errlen)
{
    pass_base *p = calloc(1, size);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->prog[0].name = name0;
    p->prog[1].name = name1;
    for (int i = 0; i < 2; i++)
        if (p->prog[i].name && !pass_program_use(&p->prog[i], 1, err, errlen)) {
            pass_destroy(&p);
            return NULL;
        }
    return p;
}

void pass_destroy(pass_base **pass)
{
    if (!pass || !*pass)
        return;
    for (int i = 0; i < 2; i++)
        pass_program_destroy(&(*pass)->prog[i]);
    free(*pass);
    *pass = NULL;
}
