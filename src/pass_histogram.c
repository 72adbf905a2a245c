/* Histogram pass: per-tile histograms of ln Lw in group-shared memory, plus the pixel classes
 * and min/max of each tile, in one read (histogram.comp); and its re-binning dispatch. */
#include <glad/gl.h>

#include "pass.h"

struct pass_histogram {
    pass_base base;
};

pass_histogram *pass_histogram_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_histogram), "histogram.comp", NULL, err, errlen);
}

static unsigned prepare(pass_histogram *p, ht_source src, const ht_buffers *b,
                        const tonemap_params *params, bool rebin, char *err, size_t errlen)
{
    pass_bind(src, b);
    unsigned prog = pass_program_use(&p->base.prog[0], src.samples, err, errlen);
    if (prog) {
        pass_set_ivec2(prog, "u_size", src.width, src.height);
        pass_set_float(prog, "u_scale", (float)params->scale);
        pass_set_int(prog, "u_rebin", rebin);
    }
    return prog;
}

bool pass_histogram_run(pass_histogram *p, ht_source src, const ht_buffers *b,
                        const tonemap_params *params, char *err, size_t errlen)
{
    if (!prepare(p, src, b, params, false, err, errlen))
        return false;
    glDispatchCompute((GLuint)b->tiles_x, (GLuint)b->tiles_y, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

bool pass_histogram_rebin(pass_histogram *p, ht_source src, const ht_buffers *b,
                          const tonemap_params *params, char *err, size_t errlen)
{
    if (!prepare(p, src, b, params, true, err, errlen))
        return false;
    /* Every tile; each group reads frame.rebinned and leaves at once when it is 0. */
    glDispatchCompute((GLuint)b->tiles_x, (GLuint)b->tiles_y, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void pass_histogram_destroy(pass_histogram **p)
{
    pass_destroy((pass_base **)p);
}
