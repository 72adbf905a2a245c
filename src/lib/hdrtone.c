/* libhdrtone's public API (include/hdrtone/hdrtone.h) over the io, ref and gpu layers: the
 * settings become tonemap_params, a frame is pipeline_frame writing the caller's texture
 * (pipeline_set_output), and the analysis travels through the gpu layer's fenced read-back
 * (readback.h), so that reading it never waits for the GPU. */
#include "hdrtone/hdrtone.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <glad/gl.h>

#include "encode.h"
#include "gl_context.h"
#include "image.h"
#include "pipeline.h"
#include "png_export.h"
#include "readback.h"
#include "tonemap.h"

_Static_assert(HDRTONE_MAX_BINS == HT_MAX_BINS, "hdrtone.h's bins limit is the pipeline's");
#define SAME_MAPPING_(pub, ht) _Static_assert((int)HDRTONE_MAPPING_##pub == HT_MAP_##ht, #pub);
SAME_MAPPING_(NONE, NONE)
SAME_MAPPING_(HISTOGRAM, HISTOGRAM)
SAME_MAPPING_(LINEAR_FITS, LINEAR_FITS)
SAME_MAPPING_(LINEAR_GAVE_UP, LINEAR_GAVE_UP)
SAME_MAPPING_(EQUALIZE, EQUALIZE)
SAME_MAPPING_(LINEAR_FORCED, LINEAR_FORCED)
#undef SAME_MAPPING_

/* Frames whose analysis copies are in flight: the GPU may run this many frames behind before
 * hdrtone_read_analysis reports an older one. */
enum { RING = 3 };

/* A frame whose analysis is read back, or was. */
typedef struct analysis_of {
    uint64_t frame;             /* the hdrtone_run, 0: none */
    tonemap_params params;      /* the settings it ran with (the curve needs them) */
} analysis_of;

struct hdrtone {
    pipeline *pipe;
    tonemap_params params;
    gpu_readback *rb;           /* RING slots, each a copy of the frame buffer (ht_frame) */
    analysis_of pending[RING];  /* by slot: the frame its copy holds, 0 when none is on its way */
    analysis_of newest;         /* the newest analysis collected, in result */
    tonemap_result result;
    uint64_t frames;            /* hdrtone_run calls so far */
};

struct hdrtone_egl {
    gl_context *gl;
};

static _Thread_local char last_error[HT_ERR_MAX + 128];

const char *hdrtone_last_error(void)
{
    return last_error;
}

/* Records the reason of a failure and returns STATUS. */
static hdrtone_status fail(hdrtone_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

const char *hdrtone_status_name(hdrtone_status status)
{
    static const char *const names[] = {"ok", "invalid argument", "GL error", "I/O error",
                                        "out of memory", "not ready"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "unknown status";
}

/* A luminance-like setting: 0 (the default) or positive and finite. */
static bool positive_or_zero(double v)
{
    return v == 0.0 || (v > 0.0 && isfinite(v));
}

/* S (NULL: the defaults) as tonemap_params: the defaults of tonemap_params_default, each
 * replaced by S's field where that is not zero. */
static hdrtone_status params_of(const hdrtone_settings *s, tonemap_params *p)
{
    static const hdrtone_settings defaults;
    static const int ceilings[] = {HT_CEILING_LINEAR, HT_CEILING_LINEAR, HT_CEILING_NONE,
                                   HT_CEILING_HUMAN};
    static const int transfers[] = {HT_TRANSFER_SRGB, HT_TRANSFER_SRGB, HT_TRANSFER_GAMMA};
    static const int luminances[] = {HT_LUMINANCE_REC709, HT_LUMINANCE_REC709,
                                     HT_LUMINANCE_RADIANCE};
    if (!s)
        s = &defaults;
    if (s->bins && (s->bins < HT_MIN_BINS || s->bins > HT_MAX_BINS))
        return fail(HDRTONE_INVALID_ARGUMENT, "bins %d: not in %d..%d", s->bins, HT_MIN_BINS,
                    HT_MAX_BINS);
    if ((unsigned)s->ceiling > HDRTONE_CEILING_HUMAN ||
        (unsigned)s->transfer > HDRTONE_TRANSFER_GAMMA ||
        (unsigned)s->luminance > HDRTONE_LUMINANCE_RADIANCE)
        return fail(HDRTONE_INVALID_ARGUMENT, "a ceiling, transfer or luminance out of range");
    if (!positive_or_zero(s->ldmax) || !positive_or_zero(s->gamma) ||
        !positive_or_zero(s->scale) || !positive_or_zero(s->lmin) ||
        !positive_or_zero(s->lmax) ||
        !(s->drange == 0.0 || (s->drange > 1.0 && isfinite(s->drange))))
        return fail(HDRTONE_INVALID_ARGUMENT,
                    "ldmax, gamma, scale, lmin and lmax must be positive and drange above 1 "
                    "(or 0, the default)");
    if ((s->lmin > 0) != (s->lmax > 0) || s->lmin > s->lmax)
        return fail(HDRTONE_INVALID_ARGUMENT, "lmin (%g) and lmax (%g): both 0, or lmin < lmax",
                    s->lmin, s->lmax);
    tonemap_params_default(p);
    p->ceiling = ceilings[s->ceiling];
    p->transfer = transfers[s->transfer];
    p->luminance = luminances[s->luminance];
    p->force_linear = s->force_linear != 0;
    p->lmin = s->lmin;
    p->lmax = s->lmax;
#define SET_IF_(field, value) if (value) p->field = value;
    SET_IF_(bins, s->bins)
    SET_IF_(ldmax, s->ldmax)
    SET_IF_(drange, s->drange)
    SET_IF_(gamma, s->gamma)
    SET_IF_(scale, s->scale)
#undef SET_IF_
    return HDRTONE_OK;
}

static hdrtone_gl_proc egl_proc(const char *name)
{
    return (hdrtone_gl_proc)eglGetProcAddress(name);
}

/* The library's own GL function pointers, for the current context (gl_load would also turn
 * on GL debug output, a setting of the caller's context). */
static hdrtone_status load_gl(hdrtone_gl_loader loader)
{
    int version = gladLoadGL((GLADloadfunc)(loader ? loader : egl_proc));
    if (!version)
        return fail(HDRTONE_GL_ERROR, "no current OpenGL context (or no GL functions found)");
    if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 43 ||
        !GLAD_GL_VERSION_4_3)
        return fail(HDRTONE_GL_ERROR, "OpenGL 4.3 core is needed; found: %s (%s)",
                    gl_version(), gl_renderer());
    return HDRTONE_OK;
}

hdrtone_status hdrtone_create(const hdrtone_desc *desc, hdrtone **out)
{
    static const hdrtone_desc defaults;
    char err[HT_ERR_MAX];
    if (!out)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_create: OUT is NULL");
    *out = NULL;
    if (!desc)
        desc = &defaults;
    tonemap_params params;
    hdrtone_status st = params_of(&desc->settings, &params);
    if (st != HDRTONE_OK || (st = load_gl(desc->gl_loader)) != HDRTONE_OK)
        return st;
    hdrtone *t = calloc(1, sizeof *t);
    if (!t)
        return fail(HDRTONE_OUT_OF_MEMORY, "out of memory");
    t->params = params;
    if (!(t->pipe = pipeline_create(err, sizeof err))) {
        free(t);
        return fail(HDRTONE_GL_ERROR, "%s", err);
    }
    if (!(t->rb = gpu_readback_create(RING))) {
        pipeline_destroy(&t->pipe);
        free(t);
        return fail(HDRTONE_OUT_OF_MEMORY, "out of memory");
    }
    *out = t;
    return HDRTONE_OK;
}

hdrtone_status hdrtone_set_settings(hdrtone *t, const hdrtone_settings *settings)
{
    if (!t)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_set_settings: T is NULL");
    tonemap_params params;
    hdrtone_status st = params_of(settings, &params);
    if (st == HDRTONE_OK)
        t->params = params;
    return st;
}

void hdrtone_destroy(hdrtone *t)
{
    if (!t)
        return;
    gpu_readback_destroy(&t->rb);
    pipeline_destroy(&t->pipe);
    free(t);
}

/* The caller's GL state the passes change and hdrtone_run puts back. */
typedef struct gl_state {
    GLint program, active, tex2d, tex_ms;
} gl_state;

static gl_state save_state(void)
{
    gl_state s;
    glGetIntegerv(GL_CURRENT_PROGRAM, &s.program);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &s.active);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &s.tex2d);
    glGetIntegerv(GL_TEXTURE_BINDING_2D_MULTISAMPLE, &s.tex_ms);
    return s;
}

static void restore_state(const gl_state *s)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, (GLuint)s->tex2d);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, (GLuint)s->tex_ms);
    glActiveTexture((GLenum)s->active);
    glUseProgram((GLuint)s->program);
}

/* Whether TEX is a texture of TARGET (on texture unit 0, whose binding it changes), level 0
 * at least W x H with SAMPLES samples (0: any) in one of FORMATS (0-terminated). */
static bool texture_is(unsigned tex, GLenum target, GLenum binding, int w, int h, int samples,
                       const GLint *formats)
{
    GLint bound = 0, fmt = 0, tw = 0, th = 0, ts = 0;
    if (!tex || !glIsTexture(tex))
        return false;
    glBindTexture(target, tex);   /* a texture of another target stays unbound */
    glGetIntegerv(binding, &bound);
    if ((unsigned)bound != tex)
        return false;
    glGetTexLevelParameteriv(target, 0, GL_TEXTURE_INTERNAL_FORMAT, &fmt);
    glGetTexLevelParameteriv(target, 0, GL_TEXTURE_WIDTH, &tw);
    glGetTexLevelParameteriv(target, 0, GL_TEXTURE_HEIGHT, &th);
    glGetTexLevelParameteriv(target, 0, GL_TEXTURE_SAMPLES, &ts);
    bool format_ok = false;
    for (const GLint *f = formats; *f; f++)
        format_ok |= fmt == *f;
    return format_ok && tw >= w && th >= h && (!samples || ts == samples);
}

/* Checks hdrtone_run's textures (changing unit 0's bindings). */
static hdrtone_status check_run(unsigned src, int w, int h, int samples, unsigned dst)
{
    static const GLint hdr[] = {GL_RGBA16F, GL_RGBA32F, 0}, rgba8[] = {GL_RGBA8, 0};
    if (w < 1 || h < 1 || samples < 1)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_run: %d x %d, %d samples", w, h,
                    samples);
    bool ms = samples > 1;
    if (!texture_is(src, ms ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D,
                    ms ? GL_TEXTURE_BINDING_2D_MULTISAMPLE : GL_TEXTURE_BINDING_2D, w, h,
                    ms ? samples : 0, hdr))
        return fail(HDRTONE_INVALID_ARGUMENT,
                    "hdrtone_run: source %u is not an RGBA16F or RGBA32F %s of at least "
                    "%d x %d%s", src, ms ? "GL_TEXTURE_2D_MULTISAMPLE" : "GL_TEXTURE_2D", w, h,
                    ms ? " with that many samples" : "");
    if (!texture_is(dst, GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D, w, h, 0, rgba8))
        return fail(HDRTONE_INVALID_ARGUMENT,
                    "hdrtone_run: destination %u is not an RGBA8 GL_TEXTURE_2D of at least "
                    "%d x %d", dst, w, h);
    return HDRTONE_OK;
}

/* The frame buffer read back into a free slot; when the GPU runs RING frames behind, the
 * oldest copy on its way gives its slot up. */
static void queue_analysis(hdrtone *t)
{
    char err[HT_ERR_MAX];
    int slot = gpu_readback_start_buffer(t->rb, pipeline_frame_buffer(t->pipe),
                                         sizeof(tonemap_result), err, sizeof err);
    if (slot < 0) {
        int oldest = 0;
        for (int i = 1; i < RING; i++)
            if (t->pending[i].frame < t->pending[oldest].frame)
                oldest = i;
        gpu_readback_cancel(t->rb, oldest);
        slot = gpu_readback_start_buffer(t->rb, pipeline_frame_buffer(t->pipe),
                                         sizeof(tonemap_result), err, sizeof err);
    }
    t->pending[slot] = (analysis_of){++t->frames, t->params};
}

hdrtone_status hdrtone_run(hdrtone *t, unsigned src_texture, int width, int height, int samples,
                           unsigned dst_texture)
{
    char err[HT_ERR_MAX];
    if (!t)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_run: T is NULL");
    gl_state saved = save_state();
    hdrtone_status st = check_run(src_texture, width, height, samples, dst_texture);
    if (st == HDRTONE_OK) {
        ht_source src = {src_texture, width, height, samples};
        pipeline_set_output(t->pipe, dst_texture);
        bool ok = pipeline_frame(t->pipe, src, src, &t->params, err, sizeof err);
        pipeline_set_output(t->pipe, 0);
        if (ok)
            queue_analysis(t);
        else
            st = fail(HDRTONE_GL_ERROR, "%s", err);
    }
    restore_state(&saved);
    return st;
}

/* The analysis of frame R (run with P) into *A. */
static void fill_analysis(const tonemap_result *r, const tonemap_params *p, uint64_t frame,
                          hdrtone_analysis *a)
{
    memset(a, 0, sizeof *a);
    a->frame = frame;
    a->pixels = r->n_total;
    a->valid = r->n_valid;
    a->lw_min = r->lw_min;
    a->lw_max = r->lw_max;
    a->range_min = expf(r->bw_min);
    a->range_max = expf(r->bw_max);
    a->log_average = expf(r->ln_avg);
    a->mapping = (hdrtone_mapping)r->mapping;
    a->mapping_name = tonemap_mapping_name(r->mapping);
    a->bins = r->bins <= HT_MAX_BINS ? (int)r->bins : HT_MAX_BINS;
    memcpy(a->histogram, r->hist, (size_t)a->bins * sizeof a->histogram[0]);
    for (int i = 0; i <= a->bins; i++) {
        double b = r->bw_min + ((double)r->bw_max - r->bw_min) * i / (a->bins ? a->bins : 1);
        a->curve[i] = (float)tonemap_curve_ld(r, p, exp(b));
    }
}

hdrtone_status hdrtone_read_analysis(hdrtone *t, hdrtone_analysis *analysis)
{
    if (!t || !analysis)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_read_analysis: a NULL argument");
    /* Every copy the GPU has finished is collected; the newest is kept. */
    for (int i = 0; i < RING; i++) {
        char err[HT_ERR_MAX];
        tonemap_result r;
        if (!t->pending[i].frame || !gpu_readback_ready(t->rb, i))
            continue;
        bool ok = gpu_readback_finish(t->rb, i, &r, err, sizeof err);
        if (ok && t->pending[i].frame > t->newest.frame) {
            t->newest = t->pending[i];
            t->result = r;
        }
        t->pending[i].frame = 0;
    }
    if (!t->newest.frame)
        return fail(HDRTONE_NOT_READY, "no frame finished yet");
    fill_analysis(&t->result, &t->newest.params, t->newest.frame, analysis);
    return HDRTONE_OK;
}

hdrtone_status hdrtone_egl_create(hdrtone_egl **out)
{
    char err[HT_ERR_MAX];
    if (!out)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_egl_create: OUT is NULL");
    if (!(*out = calloc(1, sizeof **out)))
        return fail(HDRTONE_OUT_OF_MEMORY, "out of memory");
    if (!((*out)->gl = gl_context_create_headless(err, sizeof err))) {
        free(*out);
        *out = NULL;
        return fail(HDRTONE_GL_ERROR, "%s", err);
    }
    return HDRTONE_OK;
}

void hdrtone_egl_destroy(hdrtone_egl *egl)
{
    if (!egl)
        return;
    gl_context_destroy(&egl->gl);
    free(egl);
}

hdrtone_status hdrtone_image_load(const char *path, hdrtone_image *img)
{
    char err[HT_ERR_MAX];
    if (!path || !img)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_image_load: a NULL argument");
    memset(img, 0, sizeof *img);
    hdr_image *h = calloc(1, sizeof *h);
    if (!h)
        return fail(HDRTONE_OUT_OF_MEMORY, "out of memory");
    if (!image_load(path, NULL, h, err, sizeof err)) {
        free(h);
        return fail(HDRTONE_IO_ERROR, "%s", err);
    }
    *img = (hdrtone_image){h->width, h->height, h->rgba, h};
    return HDRTONE_OK;
}

void hdrtone_image_free(hdrtone_image *img)
{
    if (!img)
        return;
    if (img->loaded_) {
        image_free(img->loaded_);
        free(img->loaded_);
    }
    memset(img, 0, sizeof *img);
}

hdrtone_status hdrtone_tonemap_image(hdrtone *t, const hdrtone_image *img, uint8_t *rgb)
{
    char err[HT_ERR_MAX];
    if (!t || !img || !img->rgba || !rgb || img->width < 1 || img->height < 1)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_tonemap_image: a NULL or empty argument");
    /* A loaded image as it was loaded (half_exact: uploaded as RGBA16F, as export does). */
    hdr_image view = {.width = img->width, .height = img->height, .rgba = (float *)img->rgba};
    const hdr_image *h = img->loaded_ ? img->loaded_ : &view;
    tonemap_params p = t->params;   /* with the loaded file's colour space */
    if (!tonemap_set_colour(&p, &h->colour, err, sizeof err))
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_tonemap_image: %s", err);
    gl_state saved = save_state();
    hdrtone_status st = HDRTONE_OK;
    if (!pipeline_upload(t->pipe, h, err, sizeof err))
        st = fail(HDRTONE_OUT_OF_MEMORY, "%s", err);
    else if (!pipeline_tonemap_uploaded(t->pipe, &p, NULL, rgb, err, sizeof err))
        st = fail(HDRTONE_GL_ERROR, "%s", err);
    pipeline_release_textures(t->pipe);
    restore_state(&saved);
    return st;
}

hdrtone_status hdrtone_write_png(const char *path, const uint8_t *rgb, int width, int height,
                                 const hdrtone_settings *settings)
{
    char err[HT_ERR_MAX];
    tonemap_params p;
    if (!path || !rgb || width < 1 || height < 1)
        return fail(HDRTONE_INVALID_ARGUMENT, "hdrtone_write_png: a NULL or empty argument");
    hdrtone_status st = params_of(settings, &p);
    if (st != HDRTONE_OK)
        return st;
    encode_image im = {rgb, width, height, 3, 8,
                       p.transfer == HT_TRANSFER_GAMMA ? p.gamma : 0.0};
    encode_buffer buf;
    if (!encode_image_to(ENCODE_PNG, ENCODE_JPEG_QUALITY_DEFAULT, &im, &buf, err, sizeof err))
        return fail(HDRTONE_OUT_OF_MEMORY, "%s: %s", path, err);
    bool ok = file_write_atomic(path, buf.data, buf.len, err, sizeof err);
    free(buf.data);
    return ok ? HDRTONE_OK : fail(HDRTONE_IO_ERROR, "%s", err);
}
