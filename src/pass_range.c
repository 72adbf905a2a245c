/* Range pass: per-tile pixel classes and min/max (range_tiles.comp), then one group reduces
 * the tiles into the frame's counts and histogram range (range_reduce.comp). The range must be
 * known before any pixel can be binned, hence a pass of its own before the histogram. */
#include <glad/gl.h>

#include "pass.h"

struct pass_range {
    pass_base base;
};

pass_range *pass_range_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_range), "range_tiles.comp", "range_reduce.comp", err, errlen);
}

bool pass_range_run(pass_range *p, ht_source src, const ht_buffers *b,
                    const tonemap_params *params, char *err, size_t errlen)
{
    pass_bind(src, b);
    unsigned prog = pass_program_use(&p->base.prog[0], src.samples, err, errlen);
    if (!prog)
        return false;
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    pass_set_float(prog, "u_scale", (float)params->scale);
    glDispatchCompute((GLuint)b->tiles_x, (GLuint)b->tiles_y, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    prog = pass_program_use(&p->base.prog[1], 1, err, errlen);
    pass_set_uint(prog, "u_tiles", (unsigned)(b->tiles_x * b->tiles_y));
    pass_set_uint(prog, "u_total", (unsigned)src.width * (unsigned)src.height);
    pass_set_int(prog, "u_bins", params->bins);
    pass_set_vec2(prog, "u_user_range", (float)params->lmin, (float)params->lmax);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void pass_range_destroy(pass_range **p)
{
    pass_destroy((pass_base **)p);
}
