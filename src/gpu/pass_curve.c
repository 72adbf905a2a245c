/* Curve pass: ceiling iteration and response curve, one group (curve.comp). */
#include <glad/gl.h>

#include "pass.h"

/* Bin counts up to this run in a group of this many threads instead of HT_MAX_BINS: the
 * ceiling loop's barriers then wait for 4 warps, not 32. */
#define SMALL_GROUP 128
#define STR_(x) #x
#define STR(x) STR_(x)

struct pass_curve {
    pass_base base;
};

enum { FULL, SMALL };
static const pass_desc desc = {"curve", {
    [FULL] = {"curve.comp", NULL},   /* HT_MAX_BINS threads */
    [SMALL] = {"curve.comp", "#define HT_CURVE_THREADS " STR(SMALL_GROUP) "\n"},
}};

pass_curve *pass_curve_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_curve), &desc, err, errlen);
}

bool pass_curve_run(pass_curve *p, const ht_buffers *b, const tonemap_params *params, char *err,
                    size_t errlen)
{
    unsigned prog = pass_use(&p->base, params->bins <= SMALL_GROUP ? SMALL : FULL, 1, err, errlen);
    if (!prog)
        return false;
    pass_set_float(prog, "u_ldmax", (float)params->ldmax);
    pass_set_float(prog, "u_drange", (float)params->drange);
    pass_set_int(prog, "u_ceiling", params->ceiling);
    pass_set_int(prog, "u_force_linear", params->force_linear);
    pass_set_int(prog, "u_range_fits", b->range_fits);
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
    pass_destroy((pass_base **)p);
}
