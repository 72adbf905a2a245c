/* 256-bin grey histogram of the tone-mapped output, three strategies of one shader
 * (greyhist.comp): global atomics, a shared histogram per group, private 8-bit
 * sub-histograms per thread. */
#include <glad/gl.h>

#include "imgstats_pass.h"
#include "gpu_shared.h"

struct pass_greyhist {
    pass_base base;
};

/* One program per kernel, in the order of the kernel ids (the preamble defines them). */
_Static_assert(HT_GREY_GLOBAL == 0 && HT_GREY_SHARED == 1 && HT_GREY_PRIVATE == 2,
               "the programs are indexed by kernel id");
static const pass_desc desc = {"greyhist", {
    [HT_GREY_GLOBAL] = {"greyhist.comp", "#define HT_GREY_KERNEL HT_GREY_GLOBAL\n", false},
    [HT_GREY_SHARED] = {"greyhist.comp", "#define HT_GREY_KERNEL HT_GREY_SHARED\n", false},
    [HT_GREY_PRIVATE] = {"greyhist.comp", "#define HT_GREY_KERNEL HT_GREY_PRIVATE\n", false},
}};

pass_greyhist *pass_greyhist_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_greyhist), &desc, err, errlen);
}

bool pass_greyhist_run(pass_greyhist *p, int kernel, ht_source out, const imgstats_buffers *b,
                       char *err, size_t errlen)
{
    imgstats_bind_source(out.texture);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_HIST, b->hist.id);
    unsigned prog = pass_use(&p->base, kernel, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_size", out.width, out.height);
    /* global: one thread per pixel; shared and private: one group per 64x64 tile. */
    int gx = kernel == HT_GREY_GLOBAL ? HT_GROUP_X : HT_TILE_X;
    int gy = kernel == HT_GREY_GLOBAL ? HT_GROUP_Y : HT_TILE_Y;
    glDispatchCompute((GLuint)((out.width + gx - 1) / gx), (GLuint)((out.height + gy - 1) / gy), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return true;
}

void pass_greyhist_destroy(pass_greyhist **p)
{
    pass_destroy((pass_base **)p);
}
