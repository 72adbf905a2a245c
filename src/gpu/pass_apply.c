/* Apply pass: tone-map every sample, resolve, encode into RGBA8 or RGBA16 (apply.comp). */
#include <glad/gl.h>

#include "pass_human.h"

struct pass_apply {
    pass_base base;
};

enum { PLAIN, BIN, HUMAN };
static const pass_desc desc = {"apply", {
    [PLAIN] = {"apply.comp", NULL, false},
    [BIN] = {"apply.comp", "#define HT_APPLY_BIN 1\n", false},
    [HUMAN] = {"apply.comp", "#define HT_HUMAN 1\n", true},   /* the stage (common.glsl) */
}};

pass_apply *pass_apply_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_apply), &desc, err, errlen);
}

/* Makes PROGRAM current with its uniforms for SRC, OUT and PARAMS; 0 (reason in err) when it
 * cannot be built. */
static unsigned prepare(pass_apply *p, int program, ht_source src, const ht_buffers *b,
                        unsigned out, unsigned out_format, const tonemap_params *params, char *err,
                        size_t errlen)
{
    pass_bind(src, b);
    unsigned prog = pass_use(&p->base, program, src.samples, err, errlen);
    if (!prog)
        return 0;
    pass_set_int(prog, "u_luminance", params->luminance);
    glBindImageTexture(0, out, 0, GL_FALSE, 0, GL_WRITE_ONLY, out_format);
    pass_set_float(prog, "u_levels", out_format == GL_RGBA16 ? 65535.0f : 255.0f);
    pass_set_ivec2(prog, "u_size", src.width, src.height);
    pass_set_float(prog, "u_scale", (float)params->scale);
    pass_set_float(prog, "u_ldmax", (float)params->ldmax);
    pass_set_float(prog, "u_drange", (float)params->drange);
    pass_set_int(prog, "u_samples", src.samples);
    pass_set_int(prog, "u_transfer", params->transfer);
    pass_set_float(prog, "u_gamma", (float)params->gamma);
    return prog;
}

static void barrier_after(void)
{
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

bool pass_apply_run(pass_apply *p, ht_source src, const ht_buffers *b,
                    const pipeline_human *human, unsigned out, unsigned out_format,
                    const tonemap_params *params, char *err, size_t errlen)
{
    unsigned prog = prepare(p, human ? HUMAN : PLAIN, src, b, out, out_format, params, err,
                            errlen);
    if (!prog)
        return false;
    if (human)
        pass_human_bind(human->pass, prog, &human->grids, src);
    const int gx = HT_GROUP_X * HT_APPLY_STEP, gy = HT_GROUP_Y * HT_APPLY_STEP;
    glDispatchCompute((GLuint)((src.width + gx - 1) / gx), (GLuint)((src.height + gy - 1) / gy), 1);
    barrier_after();
    return true;
}

bool pass_apply_run_binned(pass_apply *p, ht_source src, const ht_buffers *b, unsigned out,
                           unsigned out_format, const tonemap_params *params, char *err,
                           size_t errlen)
{
    unsigned prog = prepare(p, BIN, src, b, out, out_format, params, err, errlen);
    if (!prog)
        return false;
    pass_set_uint(prog, "u_tiles_x", (unsigned)b->tiles_x);
    pass_set_ivec2(prog, "u_tile_origin", 0, 0);
    glDispatchCompute((GLuint)b->tiles_x, (GLuint)b->tiles_y, 1);
    barrier_after();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void pass_apply_destroy(pass_apply **p)
{
    pass_destroy((pass_base **)p);
}
