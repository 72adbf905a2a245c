/* Merge pass: the per-tile histograms and sums into the frame, in many groups (merge.comp). */
#include <stddef.h>
#include <stdint.h>

#include <glad/gl.h>

#include "pass.h"

_Static_assert((int)HT_MERGE_TILES <= (int)HT_MERGE_GROUP, "merge.comp gives each tile's sums a thread");

struct pass_merge {
    pass_base base;
};

static const pass_desc desc = {"merge", {{"merge.comp", NULL, false}}};

pass_merge *pass_merge_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_merge), &desc, err, errlen);
}

bool pass_merge_run(pass_merge *p, const ht_buffers *b, char *err, size_t errlen)
{
    unsigned prog = pass_use(&p->base, 0, 1, err, errlen);
    if (!prog)
        return false;
    /* The groups add into frame.hist and n_counted with atomics: start them at zero. */
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->frame.id);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, offsetof(ht_frame, hist),
                         sizeof(((ht_frame *)0)->hist), GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, offsetof(ht_frame, n_counted),
                         sizeof(uint32_t), GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    pass_bind((ht_source){0, 0, 0, 1}, b);
    pass_set_uint(prog, "u_tile_count", (unsigned)(b->tiles_x * b->tiles_y));
    glDispatchCompute((GLuint)b->merge_groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void pass_merge_destroy(pass_merge **p)
{
    pass_destroy((pass_base **)p);
}
