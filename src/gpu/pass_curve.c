/* Curve pass: ceiling iteration and response curve, one group (curve.comp). */
#include <stdio.h>

#include <glad/gl.h>

#include "pass.h"
#include "shaders.h"

/* Bin counts up to this run in a group of this many threads instead of HT_MAX_BINS: the
 * ceiling loop's barriers then wait for 4 warps, not 32. */
enum { SMALL_GROUP = 128 };

struct pass_curve {
    pass_base base;      /* curve.comp with HT_MAX_BINS threads */
    unsigned small;      /* the same with SMALL_GROUP threads */
};

pass_curve *pass_curve_create(char *err, size_t errlen)
{
    pass_curve *p = pass_create(sizeof(pass_curve), "curve.comp", NULL, err, errlen);
    char defines[64];
    snprintf(defines, sizeof defines, "#define HT_CURVE_THREADS %d\n", SMALL_GROUP);
    if (p && !(p->small = shaders_compute("curve.comp", defines, err, errlen)))
        pass_curve_destroy(&p);
    return p;
}

bool pass_curve_run(pass_curve *p, const ht_buffers *b, const tonemap_params *params, char *err,
                    size_t errlen)
{
    unsigned prog = params->bins <= SMALL_GROUP ? p->small
                                                : pass_program_use(&p->base.prog[0], 1, err, errlen);
    if (!prog)
        return false;
    glUseProgram(prog);
    pass_set_float(prog, "u_ldmax", (float)params->ldmax);
    pass_set_float(prog, "u_drange", (float)params->drange);
    pass_set_int(prog, "u_ceiling", params->ceiling);
    pass_set_int(prog, "u_force_linear", params->force_linear);
    unsigned width = 1;
    while (width < (unsigned)params->bins)
        width <<= 1;
    pass_set_uint(prog, "u_width", width);
    pass_set_uint(prog, "u_partials", (unsigned)b->merge_groups);
    pass_bind((ht_source){0, 0, 0, 1}, b);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void pass_curve_destroy(pass_curve **p)
{
    if (p && *p)
        glDeleteProgram((*p)->small);
    pass_destroy((pass_base **)p);
}
