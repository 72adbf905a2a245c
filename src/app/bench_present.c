/* The present experiments of bench's viewer frame (bench_present.h). */
#include "bench_present.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "gpu_resource.h"
#include "shaders.h"

#define BENCH_PRESENT_NAME_(n) #n,
const char *const bench_present_names[BENCH_PRESENT_COUNT] = {
    BENCH_PRESENTS(BENCH_PRESENT_NAME_)};
#undef BENCH_PRESENT_NAME_

struct bench_present {
    gpu_tex window;             /* the window's stand-in, RGBA8 */
    unsigned fbo[2];            /* read (the output), draw (the window) */
    unsigned prog, vao;         /* the triangle's */
};

bench_present *bench_present_create(char *err, size_t errlen)
{
    bench_present *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (!(p->prog = shaders_graphics("present.vert", "present.frag", "#define HT_NO_FRAME\n",
                                     err, errlen))) {
        free(p);
        return NULL;
    }
    glGenFramebuffers(2, p->fbo);
    glGenVertexArrays(1, &p->vao);
    return p;
}

void bench_present_destroy(bench_present **pp)
{
    if (!pp || !*pp)
        return;
    bench_present *p = *pp;
    gpu_tex_destroy(&p->window);
    glDeleteFramebuffers(2, p->fbo);
    glDeleteVertexArrays(1, &p->vao);
    glDeleteProgram(p->prog);
    free(p);
    *pp = NULL;
}

unsigned bench_present_window(bench_present *p, int w, int h)
{
    if (gpu_tex_recreate(&p->window, w, h, GL_RGBA8, 1)) {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, p->fbo[1]);
        glFramebufferTexture(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, p->window.id, 0);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    }
    return p->window.id;
}

void bench_present_run(bench_present *p, int how, unsigned output, int w, int h)
{
    bench_present_window(p, w, h);
    switch (how) {
    case BENCH_PRESENT_blit:
        glBindFramebuffer(GL_READ_FRAMEBUFFER, p->fbo[0]);
        glFramebufferTexture(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, output, 0);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, p->fbo[1]);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        break;
    case BENCH_PRESENT_copy:
        glCopyImageSubData(output, GL_TEXTURE_2D, 0, 0, 0, 0, p->window.id, GL_TEXTURE_2D, 0, 0,
                           0, 0, w, h, 1);
        break;
    case BENCH_PRESENT_triangle:
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, p->fbo[1]);
        glViewport(0, 0, w, h);
        glUseProgram(p->prog);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, output);
        glBindVertexArray(p->vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        break;
    default:   /* apply: the apply pass wrote the window */
        break;
    }
}
