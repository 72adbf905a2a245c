#include "probe.h"

#include <glad/gl.h>

#include "pass.h"

struct gpu_probe {
    pass_base base;
    gpu_buf sums;    /* the read probe's sum per tile */
    gpu_tex copy;    /* the copy probe's RGBA8 target */
};

enum { READ, COPY };
static const pass_desc desc = {"probe", {
    [READ] = {"probe_read.comp", NULL, false},
    [COPY] = {"probe_copy.comp", NULL, false},
}};

gpu_probe *gpu_probe_create(char *err, size_t errlen)
{
    return pass_create(sizeof(gpu_probe), &desc, err, errlen);
}

void gpu_probe_destroy(gpu_probe **pp)
{
    if (!pp || !*pp)
        return;
    gpu_buf_destroy(&(*pp)->sums);
    gpu_tex_destroy(&(*pp)->copy);
    pass_destroy((pass_base **)pp);
}

/* Binds SRC to texture unit 0. */
static void bind_source(ht_source src)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(src.samples > 1 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D, src.texture);
}

bool gpu_probe_read(gpu_probe *p, ht_source src, int samples, char *err, size_t errlen)
{
    int tx = (src.width + HT_TILE_X - 1) / HT_TILE_X, ty = (src.height + HT_TILE_Y - 1) / HT_TILE_Y;
    gpu_buf_recreate(&p->sums, (size_t)tx * (size_t)ty * sizeof(float));
    unsigned prog = pass_use(&p->base, READ, src.samples, err, errlen);
    if (!prog)
        return false;
    bind_source(src);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_OUT, p->sums.id);
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    pass_set_int(prog, "u_samples", samples);
    glDispatchCompute((GLuint)tx, (GLuint)ty, 1);
    return true;
}

bool gpu_probe_copy(gpu_probe *p, ht_source src, char *err, size_t errlen)
{
    gpu_tex_recreate(&p->copy, src.width, src.height, GL_RGBA8, 1);
    unsigned prog = pass_use(&p->base, COPY, src.samples, err, errlen);
    if (!prog)
        return false;
    bind_source(src);
    glBindImageTexture(0, p->copy.id, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    pass_set_int(prog, "u_samples", src.samples);
    glDispatchCompute((GLuint)((src.width + HT_GROUP_X - 1) / HT_GROUP_X),
                      (GLuint)((src.height + HT_GROUP_Y - 1) / HT_GROUP_Y), 1);
    return true;
}
