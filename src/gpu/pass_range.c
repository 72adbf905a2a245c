/* Range pass: the histogram range from the histogram pass's min/max, and the decision whether
 * the image must be binned again (range.comp). */
#include <glad/gl.h>

#include "pass.h"

struct pass_range {
    pass_base base;
};

static const pass_desc desc = {"range", {{"range.comp", NULL, false}}};

pass_range *pass_range_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_range), &desc, err, errlen);
}

/* The uniforms of analysis.glsl's range and tile count. */
static void range_uniforms(unsigned prog, unsigned total, const ht_buffers *b,
                         const tonemap_params *params)
{
    pass_set_uint(prog, "u_total", total);
    pass_set_int(prog, "u_bins", params->bins);
    pass_set_vec2(prog, "u_user_range", (float)params->lmin, (float)params->lmax);
    pass_set_uint(prog, "u_tile_count", (unsigned)(b->tiles_x * b->tiles_y));
}

bool pass_range_run(pass_range *p, unsigned total, const ht_buffers *b,
                    const tonemap_params *params, char *err, size_t errlen)
{
    unsigned prog = pass_use(&p->base, 0, 1, err, errlen);
    if (!prog)
        return false;
    pass_bind((ht_source){0, 0, 0, 1}, b);
    range_uniforms(prog, total, b, params);
    pass_set_uint(prog, "u_pieces", (unsigned)b->pieces);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    return true;
}

void pass_range_destroy(pass_range **p)
{
    pass_destroy((pass_base **)p);
}
