/* Apply pass: tone-map every sample (or show it in another display mode), resolve, encode
 * into RGBA8 or RGBA16 (apply.comp, apply_display.glsl). */
#include <glad/gl.h>
#include <math.h>
#include <stdio.h>

#include "falsecolor.h"
#include "ocio_gpu.h"
#include "pass_human.h"

struct pass_apply {
    pass_base base;
    ocio_gpu *ocio;   /* the OCIO view's program and LUTs: made on its first frame */
};

enum { PLAIN, BIN, HUMAN, DISPLAY };
static const pass_desc desc = {"apply", {
    [PLAIN] = {"apply.comp", NULL, false},
    [BIN] = {"apply.comp", "#define HT_APPLY_BIN 1\n", false},
    [HUMAN] = {"apply.comp", "#define HT_HUMAN 1\n", true},   /* the stage (common.glsl) */
    /* The other display modes: their own program, so the tone mapping's stays as it was. */
    [DISPLAY] = {"apply.comp", "#define HT_DISPLAY 1\n", true},
}};

pass_apply *pass_apply_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_apply), &desc, err, errlen);
}

/* The OCIO view's program for SRC and DISP, current (ocio_gpu_use); 0 with the reason. */
static unsigned use_ocio(pass_apply *p, ht_source src, const display_params *disp, char *err,
                         size_t errlen)
{
    if (!p->ocio && !(p->ocio = ocio_gpu_create())) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    return ocio_gpu_use(p->ocio, disp, src.samples, err, errlen);
}

/* Makes PROGRAM (-1: the OCIO view of DISP) current with its uniforms for SRC, OUT and
 * PARAMS; 0 (reason in err) when it cannot be built. */
static unsigned prepare(pass_apply *p, int program, ht_source src, const ht_buffers *b,
                        unsigned out, unsigned out_format, const tonemap_params *params,
                        const display_params *disp, char *err, size_t errlen)
{
    pass_bind(src, b);
    unsigned prog = program < 0 ? use_ocio(p, src, disp, err, errlen)
                                : pass_use(&p->base, program, src.samples, err, errlen);
    if (!prog)
        return 0;
    pass_set_colour(prog, params);
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

/* DISPLAY's uniforms from D. */
static void set_display(unsigned prog, const display_params *d)
{
    pass_set_int(prog, "u_view_mode", d->mode);
    pass_set_float(prog, "u_white", (float)d->white);
    pass_set_float(prog, "u_exposure_mul", (float)exp2(d->exposure));
    pass_set_float(prog, "u_offset", (float)d->offset);
    pass_set_float(prog, "u_fc_max", (float)d->fc_max);
    pass_set_int(prog, "u_fc_decades", d->fc_decades);
    pass_set_int(prog, "u_fc_steps", d->fc_steps);
    pass_set_int(prog, "u_fc_style", d->fc_style);
    pass_set_float(prog, "u_units_scale", (float)d->units_scale);
    glUniform3f(glGetUniformLocation(prog, "u_weights"), (float)d->weights[0],
                (float)d->weights[1], (float)d->weights[2]);
    pass_set_int(prog, "u_channel", d->channel);
    pass_set_int(prog, "u_ch_palette", d->ch_palette);
    pass_set_float(prog, "u_ch_min", (float)d->ch_min);
    pass_set_float(prog, "u_ch_max", (float)d->ch_max);
    glUniform3fv(glGetUniformLocation(prog, "u_palette"), HT_FC_PALETTE_N,
                 &falsecolor_palette[0][0]);
    float div[3][3];
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++)
            div[i][c] = (float)display_diverging[i][c];
    glUniform3fv(glGetUniformLocation(prog, "u_diverging"), 3, &div[0][0]);
}

static void barrier_after(void)
{
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

bool pass_apply_run(pass_apply *p, ht_source src, const ht_buffers *b,
                    const pipeline_human *human, unsigned out, unsigned out_format,
                    const tonemap_params *params, const display_params *disp, char *err,
                    size_t errlen)
{
    bool other = disp && disp->mode != HT_VIEW_TONEMAP;
    int program = !other ? (human ? HUMAN : PLAIN) : disp->mode == HT_VIEW_OCIO ? -1 : DISPLAY;
    unsigned prog = prepare(p, program, src, b, out, out_format, params, disp, err, errlen);
    if (!prog)
        return false;
    if (other)
        set_display(prog, disp);
    else if (human)
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
    unsigned prog = prepare(p, BIN, src, b, out, out_format, params, NULL, err, errlen);
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
    if (p && *p)
        ocio_gpu_destroy(&(*p)->ocio);
    pass_destroy((pass_base **)p);
}
