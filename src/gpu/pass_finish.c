/* Finish pass: range, merge and curve in one dispatch (finish.comp), in one group or in the
 * merge pass's groups with the last one finishing. */
#include <glad/gl.h>

#include "pass.h"

struct pass_finish {
    pass_base base;
};

/* Groups hand each other the frame and the tiles' sums inside the dispatch. */
#define SHARED_ACCESS "#define HT_LAST_GROUP 1\n#define HT_FRAME_ACCESS coherent\n"

enum { ONE, LAST_FULL, LAST_SMALL };
static const pass_desc desc = {"finish", {
    [ONE] = {"finish.comp", SHARED_ACCESS "#define HT_FINISH_ONE_GROUP 1\n"
             "#define HT_FINISH_THREADS HT_MAX_BINS\n", false},
    [LAST_FULL] = {"finish.comp", SHARED_ACCESS "#define HT_FINISH_THREADS HT_MAX_BINS\n", false},
    [LAST_SMALL] = {"finish.comp",
                    SHARED_ACCESS "#define HT_FINISH_THREADS " PASS_STR(PASS_CURVE_SMALL) "\n",
                    false},
}};

_Static_assert(PASS_CURVE_SMALL >= HT_MERGE_TILES, "a merge group gives each tile a thread");

pass_finish *pass_finish_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_finish), &desc, err, errlen);
}

bool pass_finish_run(pass_finish *p, int form, unsigned total, const ht_buffers *b,
                     const tonemap_params *params, bool curve, char *err, size_t errlen)
{
    bool one = form == PIPELINE_FINISH_ONE_GROUP;
    int i = one ? ONE : pass_curve_small(params) ? LAST_SMALL : LAST_FULL;
    unsigned prog = pass_use(&p->base, i, 1, err, errlen);
    if (!prog)
        return false;
    pass_bind((ht_source){0, 0, 0, 1}, b);
    pass_range_uniforms(prog, total, b, params);
    pass_curve_uniforms(prog, b, params);
    pass_set_int(prog, "u_curve", curve);
    pass_set_uint(prog, "u_pieces", (unsigned)b->pieces);
    glDispatchCompute(one ? 1 : (GLuint)b->merge_groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    return true;
}

void pass_finish_destroy(pass_finish **p)
{
    pass_destroy((pass_base **)p);
}
