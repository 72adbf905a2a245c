/* The OCIO view's program and LUT textures (ocio_gpu.h). */
#include "ocio_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "colour.h"
#include "ocio.h"
#include "ocio_view.h"
#include "shaders.h"

/* The first texture unit of the LUTs: 0 and 1 are the apply pass's own (u_src and
 * u_human_pyramid, common.glsl). */
enum { FIRST_UNIT = 2 };
#define FUNCTION "ht_ocio"   /* apply_display.glsl calls it */

struct ocio_gpu {
    char *key;            /* the choice built (NULL: none) */
    char why[HT_ERR_MAX]; /* the reason it failed ("": it did not) */
    ocio_shader shader;   /* its GLSL (the textures' data freed once uploaded) */
    unsigned prog[2];     /* sampler2D and sampler2DMS sources, built on first use */
    unsigned *tex;        /* shader.ntex textures */
};

ocio_gpu *ocio_gpu_create(void)
{
    return calloc(1, sizeof(ocio_gpu));
}

/* Deletes G's GL objects and forgets its choice. */
static void release(ocio_gpu *g)
{
    for (int v = 0; v < 2; v++)
        if (g->prog[v])
            glDeleteProgram(g->prog[v]);
    if (g->tex)
        glDeleteTextures(g->shader.ntex, g->tex);
    free(g->tex);
    ocio_shader_free(&g->shader);
    free(g->key);
    g->key = NULL;
    g->tex = NULL;
    g->prog[0] = g->prog[1] = 0;
    g->why[0] = '\0';
}

void ocio_gpu_destroy(ocio_gpu **g)
{
    if (!g || !*g)
        return;
    release(*g);
    free(*g);
    *g = NULL;
}

static const GLenum targets[4] = {0, GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D};

/* Texture T as GL texture ID, bound to its own unit (the pass's units keep theirs). */
static void upload(unsigned id, int unit, const ocio_texture *t)
{
    GLenum target = targets[t->dims];
    GLenum ifmt = t->channels == 1 ? GL_R32F : GL_RGB32F, fmt = t->channels == 1 ? GL_RED : GL_RGB;
    GLint filter = t->linear ? GL_LINEAR : GL_NEAREST;
    glActiveTexture(GL_TEXTURE0 + (unsigned)unit);
    glBindTexture(target, id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (t->dims == 1)
        glTexImage1D(target, 0, (GLint)ifmt, t->width, 0, fmt, GL_FLOAT, t->data);
    else if (t->dims == 2)
        glTexImage2D(target, 0, (GLint)ifmt, t->width, t->height, 0, fmt, GL_FLOAT, t->data);
    else
        glTexImage3D(target, 0, (GLint)ifmt, t->width, t->height, t->depth, 0, fmt, GL_FLOAT,
                     t->data);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(target, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    glActiveTexture(GL_TEXTURE0);
}

/* D's choice as one string (the key of what is built). */
static char *choice_key(const display_params *d)
{
    const char *f[] = {d->ocio_config ? d->ocio_config : getenv("OCIO"), d->ocio_input,
                       d->ocio_display, d->ocio_view, d->ocio_look};
    size_t len = 1;
    for (int i = 0; i < 5; i++)
        len += (f[i] ? strlen(f[i]) : 0) + 1;
    char *k = malloc(len);
    if (!k)
        return NULL;
    k[0] = '\0';
    for (int i = 0; i < 5; i++) {
        strcat(k, f[i] ? f[i] : "");
        strcat(k, "\x1f");
    }
    return k;
}

/* OCIO's shader of D's choice into G, its textures uploaded. False with the reason. */
static bool build(ocio_gpu *g, const display_params *d, char *err, size_t errlen)
{
    GLint units = 0;
    glGetIntegerv(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, &units);
    ocio_config *cfg = ocio_config_load(d->ocio_config, err, errlen);
    /* No input named (a caller that did not ask ocio_view_input): linear Rec. 709, which the
     * apply pass's matrix makes of the image on an sRGB display. */
    ocio_choice ch = ocio_view_choice(d, d->ocio_input ? d->ocio_input : colour_spaces[0].ocio);
    ocio_processor *p = cfg ? ocio_processor_make(cfg, &ch, err, errlen) : NULL;
    bool ok = p && ocio_processor_shader(p, FUNCTION, &g->shader, err, errlen);
    ocio_processor_free(&p);
    ocio_config_free(&cfg);
    if (!ok)
        return false;
    if (FIRST_UNIT + g->shader.ntex > units) {
        snprintf(err, errlen, "the OCIO view needs %d LUT textures, more than the GPU's %d "
                 "units leave", g->shader.ntex, units - FIRST_UNIT);
        return false;
    }
    if (!(g->tex = calloc((size_t)g->shader.ntex + 1, sizeof *g->tex))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    glGenTextures(g->shader.ntex, g->tex);
    for (int i = 0; i < g->shader.ntex; i++) {
        upload(g->tex[i], FIRST_UNIT + i, &g->shader.tex[i]);
        free(g->shader.tex[i].data);   /* on the GPU now */
        g->shader.tex[i].data = NULL;
    }
    return true;
}

/* HEAD, then OCIO's shader TEXT with its global constant float arrays (its B-spline curves'
 * knots and coefficients, which it indexes per pixel) made work-group shared arrays that the
 * function ht_ocio_init, called first by apply.comp's main, fills: a constant array indexed
 * per pixel is read a distinct index at a time by a warp, or copied into each thread's local
 * memory; shared memory serves distinct indices at once (BENCHMARKS.md, "OCIO views": 1.6x
 * faster on an H200). The int arrays (offsets OCIO indexes by constants) stay, for the
 * compiler to fold. A new string (NULL: out of memory). */
static char *with_shared_arrays(const char *head, const char *text)
{
    size_t hlen = strlen(head), len = strlen(text);
    char *out = malloc(hlen + 2 * len + 128), *init = malloc(len + 1);
    if (!out || !init) {
        free(out);
        free(init);
        return NULL;
    }
    char *o = out + hlen, *in = init;
    memcpy(out, head, hlen);
    *in = '\0';
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n'), *rhs = strstr(line, " = ");
        size_t n = end ? (size_t)(end - line + 1) : strlen(line);
        char name[96];
        int count = 0;
        if (rhs && rhs < line + n &&
            sscanf(line, "const float %95[^[ ][%d] =", name, &count) == 2) {
            o += sprintf(o, "shared float %s[%d];\n", name, count);
            size_t r = n - (size_t)(rhs + 3 - line);   /* "float[N](...);\n" */
            in += sprintf(in, "        %s = ", name);
            memcpy(in, rhs + 3, r);
            *(in += r) = '\0';
        } else {
            memcpy(o, line, n);
            o += n;
        }
        line += n;
    }
    sprintf(o, "\nvoid ht_ocio_init()\n{\n    if (gl_LocalInvocationIndex == 0u) {\n%s    }\n"
               "    memoryBarrierShared();\n    barrier();\n}\n", init);
    free(init);
    return out;
}

/* G's program for variant V (1: multisampled source), built on first use. */
static unsigned program(ocio_gpu *g, int v, char *err, size_t errlen)
{
    if (g->prog[v])
        return g->prog[v];
    char head[96];
    snprintf(head, sizeof head, "#define HT_SRC_%s 1\n#define HT_DISPLAY 1\n#define HT_OCIO 1\n",
             v ? "MS" : "2D");
    char *defines = with_shared_arrays(head, g->shader.text);
    if (!defines) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    char why[HT_ERR_MAX - 64];
    g->prog[v] = shaders_compute("apply.comp", defines, why, sizeof why);
    free(defines);
    if (!g->prog[v]) {
        snprintf(err, errlen, "the OCIO view's program: %s", why);
        return 0;
    }
    for (int i = 0; i < g->shader.ntex; i++)
        glProgramUniform1i(g->prog[v], glGetUniformLocation(g->prog[v], g->shader.tex[i].sampler),
                           FIRST_UNIT + i);
    return g->prog[v];
}

unsigned ocio_gpu_use(ocio_gpu *g, const display_params *d, int samples, char *err,
                      size_t errlen)
{
    char *key = choice_key(d);
    if (!key) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    if (!g->key || strcmp(key, g->key) != 0) {
        release(g);
        g->key = key;
        if (!build(g, d, g->why, sizeof g->why) && !g->why[0])
            snprintf(g->why, sizeof g->why, "the OCIO view could not be built");
    } else {
        free(key);
    }
    unsigned prog = g->why[0] ? 0 : program(g, samples > 1, g->why, sizeof g->why);
    if (!prog) {
        snprintf(err, errlen, "%s", g->why);
        return 0;
    }
    glUseProgram(prog);
    for (int i = 0; i < g->shader.ntex; i++) {
        glActiveTexture(GL_TEXTURE0 + FIRST_UNIT + (unsigned)i);
        glBindTexture(targets[g->shader.tex[i].dims], g->tex[i]);
    }
    glActiveTexture(GL_TEXTURE0);
    return prog;
}
