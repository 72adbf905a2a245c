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

struct pass_scene {
    unsigned prog;
    unsigned prog_pieces;   /* HT_SCENE_PIECES: an image in pieces (scene.frag) */
    unsigned vao;        /* empty: the quad comes from gl_VertexID */
    unsigned fbo;
    gpu_tex target;      /* GL_TEXTURE_2D (samples 1) or GL_TEXTURE_2D_MULTISAMPLE */
    gpu_timer *timer;
    double last_ms;
};

pass_scene *pass_scene_create(char *err, size_t errlen)
{
    pass_scene *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* HT_NO_FRAME: the scene pass does not touch the pipeline's frame buffer. */
    s->prog = shaders_graphics("scene.vert", "scene.frag", "#define HT_NO_FRAME\n", err, errlen);
    if (s->prog)
        s->prog_pieces = shaders_graphics("scene.vert", "scene.frag",
                                          "#define HT_NO_FRAME\n#define HT_SCENE_PIECES 1\n", err,
                                          errlen);
    if (!s->prog_pieces || !(s->timer = gpu_timer_create(TIMER_DEPTH))) {
        if (s->prog_pieces)
            snprintf(err, errlen, "out of memory");
        glDeleteProgram(s->prog);
        glDeleteProgram(s->prog_pieces);
        free(s);
        return NULL;
    }
    glGenVertexArrays(1, &s->vao);
    glGenFramebuffers(1, &s->fbo);
    return s;
}

void pass_scene_destroy(pass_scene **sp)
{
    if (!sp || !*sp)
        return;
    pass_scene *s = *sp;
    glDeleteProgram(s->prog);
    glDeleteProgram(s->prog_pieces);
    glDeleteVertexArrays(1, &s->vao);
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
    GLint max_samples = 1, max_color = 1;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &max_color);
    for (GLint i = 0; i < n; i++)
        if (counts[i] <= requested && counts[i] <= max_samples && counts[i] <= max_color)
            return counts[i];
    return 1;
}

/* Draws N pieces (texture, size and top-left corner in the IMAGE_W x IMAGE_H image each)
 * with the same view. One piece: one quad. Several: each draws the whole image's quad (so
 * the interpolation is the one texture's), scissored to the piece's place plus a pixel, and
 * keeps the samples of its own texels (scene.frag): a zoomed-out image in pieces is
 * downsampled on the GPU exactly as one texture would be. */
typedef struct scene_piece {
    ht_source src;
    int x, y;
} scene_piece;

static ht_source draw(pass_scene *s, const scene_piece *pieces, int n, int image_w,
                      int image_h, bool float32, int width, int height, int samples,
                      scene_view view)
{
    s->last_ms = gpu_timer_poll(s->timer);
    gpu_timer_begin(s->timer);
    if (gpu_tex_recreate(&s->target, width, height, float32 ? GL_RGBA32F : GL_RGBA16F, samples)) {
        glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
        glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, s->target.id, 0);
    }
    glBindTexture(samples > 1 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glViewport(0, 0, width, height);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_SCISSOR_TEST);
    static const float zero[4] = {0, 0, 0, 0};
    glClearBufferfv(GL_COLOR, 0, zero);
    if (n > 0 && pieces[0].src.texture) {
        if (samples > 1) {
            glEnable(GL_MULTISAMPLE);
            /* Belt and braces with the 'sample' input: one fragment shader run per sample. */
            glEnable(GL_SAMPLE_SHADING);
            glMinSampleShading(1.0f);
        }
        unsigned prog = n > 1 ? s->prog_pieces : s->prog;
        glUseProgram(prog);
        glUniform2f(glGetUniformLocation(prog, "u_target"), (float)width, (float)height);
        glUniform2f(glGetUniformLocation(prog, "u_origin"), (float)view.x, (float)view.y);
        glUniform1f(glGetUniformLocation(prog, "u_zoom"), (float)view.zoom);
        glUniform2f(glGetUniformLocation(prog, "u_image"), (float)image_w, (float)image_h);
        GLint loc_piece = glGetUniformLocation(prog, "u_piece");
        glActiveTexture(GL_TEXTURE0);
        glBindVertexArray(s->vao);
        if (n > 1)
            glEnable(GL_SCISSOR_TEST);
        for (int i = 0; i < n; i++) {
            const scene_piece *pc = &pieces[i];
            if (n > 1) {
                /* The piece's place in window pixels (y up), a pixel more each way: rounding
                 * cannot put one of its samples outside. */
                double x0 = floor(view.x + pc->x * view.zoom) - 1;
                double x1 = ceil(view.x + (pc->x + pc->src.width) * view.zoom) + 1;
                double y0 = floor(view.y + pc->y * view.zoom) - 1;
                double y1 = ceil(view.y + (pc->y + pc->src.height) * view.zoom) + 1;
                x0 = fmax(x0, 0), y0 = fmax(y0, 0);
                x1 = fmin(x1, width), y1 = fmin(y1, height);
                if (x1 <= x0 || y1 <= y0)
                    continue;   /* off screen */
                glScissor((GLint)x0, (GLint)(height - y1), (GLsizei)(x1 - x0), (GLsizei)(y1 - y0));
                glUniform2i(loc_piece, pc->x, pc->y);
            }
            glBindTexture(GL_TEXTURE_2D, pc->src.texture);
            glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        }
        glDisable(GL_SCISSOR_TEST);
        glBindVertexArray(0);
        glUseProgram(0);
        glDisable(GL_SAMPLE_SHADING);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
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
