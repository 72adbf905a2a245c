/* Curve pass: ceiling iteration and response curve, one group (curve.comp). */
#include <glad/gl.h>

#include "pass.h"

struct pass_curve {
    pass_base base;
};

enum { FULL, SMALL };
static const pass_desc desc = {"curve", {
    [FULL] = {"curve.comp", NULL, false},   /* HT_MAX_BINS threads */
    [SMALL] = {"curve.comp", "#define HT_CURVE_THREADS " PASS_STR(PASS_CURVE_SMALL) "\n", false},
}};

pass_curve *pass_curve_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_curve), &desc, err, errlen);
}

/* Whether PARAMS's bins make the curve in PASS_CURVE_SMALL threads. */
static bool curve_small(const tonemap_params *params)
{
    return params->bins <= PASS_CURVE_SMALL;
}

/* The uniforms of analysis.glsl's curve (u_range_fits: b->range_fits). */
static void curve_uniforms(unsigned prog, const ht_buffers *b, const tonemap_params *params)
{
    pass_set_float(prog, "u_ldmax", (float)params->ldmax);
    pass_set_float(prog, "u_drange", (float)params->drange);
    pass_set_int(prog, "u_ceiling", params->ceiling);
    pass_set_int(prog, "u_force_linear", params->force_linear);
    pass_set_int(prog, "u_range_fits", b->range_fits);
    unsigned width = 1;
    while (width < (unsigned)params->bins)
        width <<= 1;
    pass_set_uint(prog, "u_width", width);
}

bool pass_curve_run(pass_curve *p, const ht_buffers *b, const tonemap_params *params, char *err,
                    size_t errlen)
{
    unsigned prog = pass_use(&p->base, curve_small(params) ? SMALL : FULL, 1, err, errlen);
    if (!prog)
        return false;
    curve_uniforms(prog, b, params);
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
