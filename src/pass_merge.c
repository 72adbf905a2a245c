/* Merge pass: the per-tile histograms and sums into the frame (merge.comp). */
#include <glad/gl.h>

#include "pass.h"

struct pass_merge {
    pass_base base;
};

pass_merge *pass_merge_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_merge), "merge.comp", NULL, err, errlen);
}

bool pass_merge_run(pass_merge *p, const ht_buffers *b, char *err, size_t errlen)
{
    unsigned prog = pass_program_use(&p->base.prog[0], 1, err, errlen);
    if (!prog)
        return false;
    pass_set_uint(prog, "u_tiles", (unsigned)(b->tiles_x * b->tiles_y));
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void pass_merge_destroy(pass_merge **p)
{
    pass_destroy((pass_base **)p);
}
