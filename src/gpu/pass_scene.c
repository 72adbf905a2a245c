/* Scene pass: the image with zoom/pan into a (multisampled) float target (scene.vert/frag). */
#include "pass_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "gpu_resource.h"
#include "gpu_timer.h"
#include "shaders.h"

/* Intervals the timer holds unread: the frames the GPU may run behind, and then some. */
enum { TIMER_DEPTH = 4 };

/* Programs by sample count (1, 2, 4, 8, 16: index log2), format and pieces, built on first
 * use: the sample count and the image format are compile-time constants of scene.comp. */
enum { SAMPLE_KINDS = 5 };

struct pass_scene {
    unsigned prog[SAMPLE_KINDS][2][2];   /* [log2 samples][float32][pieces] */
    unsigned fbo;        /* the target as a framebuffer: its sample positions, its clear */
    gpu_tex target;      /* GL_TEXTURE_2D (samples 1) or GL_TEXTURE_2D_MULTISAMPLE */
    float pos[16][2];    /* the target's sample positions within a pixel (y up) */
    char err[HT_ERR_MAX];   /* why the last run drew nothing ("" when it drew) */
    gpu_timer *timer;
    double last_ms;
};

pass_scene *pass_scene_create(char *err, size_t errlen)
{
    pass_scene *s = calloc(1, sizeof *s);
    if (!s || !(s->timer = gpu_timer_create(TIMER_DEPTH))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* Built now for the common case, so a driver that cannot compile it fails here. */
    char defines[160];
    snprintf(defines, sizeof defines, "#define HT_NO_FRAME\n#define HT_SCENE_SAMPLES 1\n"
                                      "#define HT_SCENE_FORMAT rgba16f\n");
    if (!(s->prog[0][0][0] = shaders_compute("scene.comp", defines, err, errlen))) {
        pass_scene_destroy(&s);
        return NULL;
    }
    glGenFramebuffers(1, &s->fbo);
    return s;
}

void pass_scene_destroy(pass_scene **sp)
{
    if (!sp || !*sp)
        return;
    pass_scene *s = *sp;
    for (int k = 0; k < SAMPLE_KINDS; k++)
        for (int f = 0; f < 2; f++)
            for (int p = 0; p < 2; p++)
                glDeleteProgram(s->prog[k][f][p]);
    glDeleteFramebuffers(1, &s->fbo);
    gpu_tex_destroy(&s->target);
    gpu_timer_destroy(&s->timer);
    free(s);
    *sp = NULL;
}

int pass_scene_samples(pass_scene *s, int requested, bool float32)
{
    (void)s;
    if (requested <= 1)
        return 1;
    /* The driver lists the sample counts it supports for the format, largest first. */
    GLenum fmt = float32 ? GL_RGBA32F : GL_RGBA16F;
    GLint n = 0, counts[16] = {0};
    glGetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, fmt, GL_NUM_SAMPLE_COUNTS, 1, &n);
    if (n > 16)
        n = 16;
    glGetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, fmt, GL_SAMPLES, n, counts);
    /* The compute pass stores every sample: image samples bound it too (16 at most here). */
    GLint max_samples = 1, max_color = 1, max_image = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &max_color);
    glGetIntegerv(GL_MAX_IMAGE_SAMPLES, &max_image);
    for (GLint i = 0; i < n; i++)
        if (counts[i] <= requested && counts[i] <= max_samples && counts[i] <= max_color &&
            counts[i] <= max_image && counts[i] <= 16)
            return counts[i];
    return 1;
}

/* A piece of the image: texture, size and top-left corner in the whole image. */
typedef struct scene_piece {
    ht_source src;
    int x, y;
} scene_piece;

/* The program for SAMPLES, the format and PIECES, built on first use (0: reason in err). */
static unsigned program(pass_scene *s, int samples, bool float32, bool pieces, char *err,
                        size_t errlen)
{
    int k = 0;
    while ((1 << k) < samples && k < SAMPLE_KINDS - 1)
        k++;
    unsigned *prog = &s->prog[k][float32][pieces];
    if (!*prog) {
        char defines[192];
        snprintf(defines, sizeof defines,
                 "#define HT_NO_FRAME\n#define HT_SCENE_SAMPLES %d\n"
                 "#define HT_SCENE_FORMAT %s\n%s",
                 samples, float32 ? "rgba32f" : "rgba16f",
                 pieces ? "#define HT_SCENE_PIECES 1\n" : "");
        *prog = shaders_compute("scene.comp", defines, err, errlen);
    }
    return *prog;
}

/* A new target: its sample positions (fixed for every pixel), as the rasteriser would use
 * them. */
static void new_target(pass_scene *s)
{
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, s->target.id, 0);
    for (int i = 0; i < s->target.samples && i < 16; i++) {
        s->pos[i][0] = s->pos[i][1] = 0.5f;
        if (s->target.samples > 1)
            glGetMultisamplefv(GL_SAMPLE_POSITION, (GLuint)i, s->pos[i]);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

/* The window rectangle (x, y up, w, h) of PC in the view, a pixel more each way so rounding
 * cannot put one of its samples outside, clipped to the target; false when off screen. */
static bool piece_rect(const scene_piece *pc, scene_view view, int width, int height,
                       int r[4])
{
    double x0 = fmax(floor(view.x + pc->x * view.zoom) - 1, 0);
    double x1 = fmin(ceil(view.x + (pc->x + pc->src.width) * view.zoom) + 1, width);
    double y0 = fmax(floor(view.y + pc->y * view.zoom) - 1, 0);
    double y1 = fmin(ceil(view.y + (pc->y + pc->src.height) * view.zoom) + 1, height);
    r[0] = (int)x0, r[1] = (int)(height - y1), r[2] = (int)(x1 - x0), r[3] = (int)(y1 - y0);
    return x1 > x0 && y1 > y0;
}

/* Draws N pieces of the IMAGE_W x IMAGE_H image with one view: one piece, one dispatch over
 * the whole target; several, a cleared target and one dispatch per piece over its place. A
 * zoomed-out image in pieces is downsampled exactly as one texture would be. */
static ht_source draw(pass_scene *s, const scene_piece *pieces, int n, int image_w,
                      int image_h, bool float32, int width, int height, int samples,
                      scene_view view)
{
    s->last_ms = gpu_timer_poll(s->timer);
    gpu_timer_begin(s->timer);
    unsigned format = float32 ? GL_RGBA32F : GL_RGBA16F;
    if (gpu_tex_recreate(&s->target, width, height, format, samples))
        new_target(s);
    s->err[0] = '\0';
    unsigned prog = n > 0 && pieces[0].src.texture
                        ? program(s, samples, float32, n > 1, s->err, sizeof s->err) : 0;
    if (!prog || n > 1) {   /* nothing to draw (or no program), or pieces: start from 0 */
        static const float zero[4] = {0, 0, 0, 0};
        glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
        glClearBufferfv(GL_COLOR, 0, zero);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    if (prog) {
        glUseProgram(prog);
        glUniform2i(glGetUniformLocation(prog, "u_size"), width, height);
        glUniform2f(glGetUniformLocation(prog, "u_origin"), (float)view.x, (float)view.y);
        glUniform1f(glGetUniformLocation(prog, "u_zoom"), (float)view.zoom);
        glUniform2f(glGetUniformLocation(prog, "u_image"), (float)image_w, (float)image_h);
        glUniform2fv(glGetUniformLocation(prog, "u_pos"), samples, &s->pos[0][0]);
        glBindImageTexture(0, s->target.id, 0, GL_FALSE, 0, GL_WRITE_ONLY, format);
        glActiveTexture(GL_TEXTURE0);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
        for (int i = 0; i < n; i++) {
            int r[4] = {0, 0, width, height};
            if (n > 1 && !piece_rect(&pieces[i], view, width, height, r))
                continue;   /* off screen */
            glUniform2i(glGetUniformLocation(prog, "u_offset"), r[0], r[1]);
            glUniform2i(glGetUniformLocation(prog, "u_extent"), r[2], r[3]);
            glUniform2i(glGetUniformLocation(prog, "u_piece"), pieces[i].x, pieces[i].y);
            glBindTexture(GL_TEXTURE_2D, pieces[i].src.texture);
            glDispatchCompute((GLuint)(r[2] + 15) / 16, (GLuint)(r[3] + 15) / 16, 1);
        }
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        glUseProgram(0);
    }
    gpu_timer_end(s->timer);
    return (ht_source){s->target.id, width, height, samples};
}

ht_source pass_scene_run(pass_scene *s, ht_source image, bool float32, int width, int height,
                         int samples, scene_view view)
{
    scene_piece one = {image, 0, 0};
    return draw(s, &one, 1, image.width, image.height, float32, width, height, samples, view);
}

ht_source pass_scene_run_image(pass_scene *s, const pipeline *p, bool float32, int width,
                               int height, int samples, scene_view view)
{
    scene_piece stack[64], *list = stack;
    int n = pipeline_image_pieces(p);
    if (n > 64 && !(list = malloc(sizeof *list * (size_t)n))) {
        list = stack;
        n = 1;   /* out of memory: the first piece rather than nothing */
    }
    int image_w = 0, image_h = 0;
    for (int i = 0; i < n; i++) {
        list[i].src = pipeline_image_piece(p, i, &list[i].x, &list[i].y);
        /* The last piece is the bottom-right one. */
        image_w = list[i].x + list[i].src.width;
        image_h = list[i].y + list[i].src.height;
    }
    ht_source out = draw(s, list, n, image_w, image_h, float32, width, height, samples, view);
    if (list != stack)
        free(list);
    return out;
}

double pass_scene_last_ms(const pass_scene *s)
{
    return s->last_ms;
}

const char *pass_scene_error(const pass_scene *s)
{
    return s->err;
}
