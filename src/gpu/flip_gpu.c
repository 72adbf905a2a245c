/* FLIP's GPU passes: per exposure, flip_x (inputs to YCxCz in shared memory, the filters' x
 * halves into four vec4 buffers) and flip_y (the y halves, colour and feature errors,
 * the map). */
#include "flip_gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "gpu_resource.h"
#include "metrics.h"
#include "shaders.h"

enum { X_GROUP = 128, Y_GROUP_X = 16, Y_GROUP_Y = 16 };

struct flip_gpu {
    unsigned prog_x, prog_y;
    gpu_buf inter[4];           /* col_ref, col_test, feat_ref, feat_test: W x H vec4 each */
    gpu_tex map;
    gpu_buf filters;
    float filters_ppd;          /* the ppd the filter buffer holds (0: none) */
    flip_filters f;
};

const char *flip_gpu_defines(void)
{
    static char buf[1024];
    if (!buf[0])
        snprintf(buf, sizeof buf,
                 "#define FLIP_MAX_RADIUS %d\n#define FLIP_MAX_TAPS %d\n#define FLIP_HIST_BINS %d\n"
                 "#define FLIP_FINE_BINS %d\n#define FLIP_GQC %.9g\n#define FLIP_GPT %.9g\n"
                 "#define FLIP_GQF %.9g\n#define FLIP_SRC_LINEAR %d\n#define FLIP_SRC_SRGB %d\n"
                 "#define FLIP_SRC_HDR %d\n#define FLIP_TM_REINHARD %d\n"
                 "#define FLIP_BIND_FILTERS %d\n#define FLIP_BIND_PARTIALS %d\n"
                 "#define FLIP_BIND_TOTALS %d\n#define FLIP_BIND_FINE %d\n#define FLIP_BIND_LUT %d\n"
                 "#define FLIP_BIND_COL_REF %d\n#define FLIP_BIND_COL_TEST %d\n"
                 "#define FLIP_BIND_FEAT_REF %d\n#define FLIP_BIND_FEAT_TEST %d\n"
                 "#define FLIP_X_GROUP %d\n#define FLIP_Y_GROUP_X %d\n#define FLIP_Y_GROUP_Y %d\n"
                 "#define METRICS_MAP_FLIP %d\n#define METRICS_MAP_DIFF %d\n"
                 "#define METRICS_MAP_ABS %d\n#define METRICS_MAP_SQUARED %d\n"
                 "#define METRICS_MAP_RELATIVE %d\n#define METRICS_REL_EPS %.9g\n",
                 FLIP_MAX_RADIUS, FLIP_MAX_TAPS, FLIP_HIST_BINS, FLIP_FINE_BINS,
                 (double)FLIP_GQC, (double)FLIP_GPT, (double)FLIP_GQF, FLIP_SRC_LINEAR,
                 FLIP_SRC_SRGB, FLIP_SRC_HDR, FLIP_TM_REINHARD, FLIP_BIND_FILTERS,
                 FLIP_BIND_PARTIALS, FLIP_BIND_TOTALS, FLIP_BIND_FINE, FLIP_BIND_LUT,
                 FLIP_BIND_COL_REF, FLIP_BIND_COL_TEST, FLIP_BIND_FEAT_REF, FLIP_BIND_FEAT_TEST, X_GROUP,
                 Y_GROUP_X, Y_GROUP_Y, METRICS_MAP_FLIP, METRICS_MAP_DIFF, METRICS_MAP_ABS,
                 METRICS_MAP_SQUARED, METRICS_MAP_RELATIVE, (double)METRICS_REL_EPS);
    return buf;
}

flip_gpu *flip_gpu_create(char *err, size_t errlen)
{
    flip_gpu *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    f->prog_x = shaders_compute("flip_x.comp", flip_gpu_defines(), err, errlen);
    f->prog_y = f->prog_x ? shaders_compute("flip_y.comp", flip_gpu_defines(), err, errlen) : 0;
    if (!f->prog_y)
        flip_gpu_destroy(&f);
    return f;
}

static void set_f(unsigned prog, const char *name, float v)
{
    glUniform1f(glGetUniformLocation(prog, name), v);
}

static void set_i(unsigned prog, const char *name, int v)
{
    glUniform1i(glGetUniformLocation(prog, name), v);
}

static void bind_tex(int unit, unsigned tex)
{
    glActiveTexture(GL_TEXTURE0 + (unsigned)unit);
    glBindTexture(GL_TEXTURE_2D, tex);
}

/* The intermediates and the map at W x H; the filter weights at PPD. */
static void prepare(flip_gpu *f, int w, int h, float ppd)
{
    for (int i = 0; i < 4; i++) {
        gpu_buf_recreate(&f->inter[i], (size_t)w * h * 16);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, FLIP_BIND_COL_REF + (unsigned)i,
                         f->inter[i].id);
    }
    gpu_tex_recreate(&f->map, w, h, GL_R32F, 1);
    if (f->filters_ppd != ppd) {
        flip_filters_make(ppd, &f->f);
        gpu_buf_recreate(&f->filters, sizeof f->f);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof f->f, &f->f);
        f->filters_ppd = ppd;
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, FLIP_BIND_FILTERS, f->filters.id);
}

/* One LDR-FLIP: the x pass at SCALE (HDR's 2^exposure), then the y pass into the map. */
static void run_once(flip_gpu *f, unsigned ref, unsigned test, int w, int h, flip_source_kind kind,
                     const flip_params *p, float scale, bool first)
{
    glUseProgram(f->prog_x);
    bind_tex(0, ref);
    bind_tex(1, test);
    glUniform2i(glGetUniformLocation(f->prog_x, "u_size"), w, h);
    set_i(f->prog_x, "u_mode", kind);
    set_f(f->prog_x, "u_scale", scale);
    set_i(f->prog_x, "u_tm", p->tonemapper);
    glUniform1fv(glGetUniformLocation(f->prog_x, "u_tc"), 6,
                 flip_tonemap_coefficients(p->tonemapper));
    int halo = f->f.spatial_radius > f->f.feature_radius ? f->f.spatial_radius
                                                         : f->f.feature_radius;
    set_i(f->prog_x, "u_halo", halo);
    glDispatchCompute((GLuint)((w + X_GROUP - 1) / X_GROUP), (GLuint)h, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    glUseProgram(f->prog_y);
    glBindImageTexture(0, f->map.id, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32F);
    glUniform2i(glGetUniformLocation(f->prog_y, "u_size"), w, h);
    set_i(f->prog_y, "u_first", first);
    flip_color_consts cc = flip_color_constants();
    set_f(f->prog_y, "u_cmax", cc.cmax);
    set_f(f->prog_y, "u_pccmax", cc.pccmax);
    glDispatchCompute((GLuint)((w + Y_GROUP_X - 1) / Y_GROUP_X),
                      (GLuint)((h + Y_GROUP_Y - 1) / Y_GROUP_Y), 1);
    /* The next exposure's x pass rewrites the intermediates the y pass read; the map is read
     * next by image loads and texture fetches. */
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
}

bool flip_gpu_run(flip_gpu *f, unsigned ref, unsigned test, int w, int h, flip_source_kind kind,
                  const flip_params *p, const flip_exposures *ex, char *err, size_t errlen)
{
    float ppd = p->ppd > 0 ? p->ppd : flip_default_ppd();
    if (!(ppd >= FLIP_MIN_PPD && ppd <= FLIP_MAX_PPD) || w <= 0 || h <= 0) {
        snprintf(err, errlen, "FLIP: %dx%d at %g pixels per degree cannot be computed", w, h,
                 ppd);
        return false;
    }
    if (kind == FLIP_SRC_HDR && (!ex || ex->count < 2)) {
        snprintf(err, errlen, "HDR-FLIP needs its exposures (flip_exposures_for)");
        return false;
    }
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    if ((double)w * h * 16 > (double)max_block) {
        snprintf(err, errlen, "FLIP: a %dx%d image needs %.0f MiB storage blocks; this GPU "
                 "offers %.0f MiB (--backend cpu has no such limit)", w, h,
                 (double)w * h * 16 / 1048576, (double)max_block / 1048576);
        return false;
    }
    prepare(f, w, h, ppd);
    if (kind != FLIP_SRC_HDR) {
        run_once(f, ref, test, w, h, kind, p, 1.0f, true);
        return true;
    }
    for (int i = 0; i < ex->count; i++)
        run_once(f, ref, test, w, h, kind, p, powf(2.0f, flip_exposure_at(ex, i)), i == 0);
    return true;
}

unsigned flip_gpu_map(const flip_gpu *f)
{
    return f->map.id;
}

void flip_gpu_destroy(flip_gpu **f)
{
    if (!f || !*f)
        return;
    flip_gpu *g = *f;
    if (g->prog_x)
        glDeleteProgram(g->prog_x);
    if (g->prog_y)
        glDeleteProgram(g->prog_y);
    for (int i = 0; i < 4; i++)
        gpu_buf_destroy(&g->inter[i]);
    gpu_tex_destroy(&g->map);
    gpu_buf_destroy(&g->filters);
    free(g);
    *f = NULL;
}
