/* The GUI's renderer (ui_draw.h). */
#include "ui_draw.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "shaders.h"

enum { UI_MAX_TEXTURES = 8 };

struct ui_draw {
    unsigned prog, vao, vbo, ebo;
    int loc_fb, loc_tex;
    unsigned textures[UI_MAX_TEXTURES];
    int ntextures;
};

ui_draw *ui_draw_create(char *err, size_t errlen)
{
    ui_draw *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (!(u->prog = shaders_graphics("ui.vert", "ui.frag", NULL, err, errlen))) {
        free(u);
        return NULL;
    }
    u->loc_fb = glGetUniformLocation(u->prog, "fb_size");
    u->loc_tex = glGetUniformLocation(u->prog, "tex");
    glGenVertexArrays(1, &u->vao);
    glGenBuffers(1, &u->vbo);
    glGenBuffers(1, &u->ebo);
    glBindVertexArray(u->vao);
    glBindBuffer(GL_ARRAY_BUFFER, u->vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, u->ebo);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ui_vertex),
                          (void *)offsetof(ui_vertex, pos));
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ui_vertex),
                          (void *)offsetof(ui_vertex, uv));
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ui_vertex),
                          (void *)offsetof(ui_vertex, col));
    glBindVertexArray(0);
    return u;
}

void ui_draw_destroy(ui_draw **pu)
{
    ui_draw *u = *pu;
    if (!u)
        return;
    glDeleteTextures(u->ntextures, u->textures);
    glDeleteBuffers(1, &u->vbo);
    glDeleteBuffers(1, &u->ebo);
    glDeleteVertexArrays(1, &u->vao);
    glDeleteProgram(u->prog);
    free(u);
    *pu = NULL;
}

unsigned ui_draw_texture(ui_draw *u, const void *pixels, int w, int h)
{
    if (u->ntextures == UI_MAX_TEXTURES)
        return 0;
    unsigned t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    u->textures[u->ntextures++] = t;
    return t;
}

void ui_draw_render(ui_draw *u, int fb_w, int fb_h, const ui_vertex *vtx, size_t nvtx,
                    const uint32_t *idx, size_t nidx, const ui_cmd *cmds, size_t ncmds)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_w, fb_h);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_SCISSOR_TEST);
    glUseProgram(u->prog);
    glUniform2f(u->loc_fb, (float)fb_w, (float)fb_h);
    glUniform1i(u->loc_tex, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(u->vao);
    glBindBuffer(GL_ARRAY_BUFFER, u->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(nvtx * sizeof *vtx), vtx, GL_STREAM_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, u->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(nidx * sizeof *idx), idx,
                 GL_STREAM_DRAW);
    size_t offset = 0;
    for (size_t i = 0; i < ncmds; i++) {
        const ui_cmd *c = &cmds[i];
        if (c->count == 0)
            continue;
        glBindTexture(GL_TEXTURE_2D, c->texture);
        /* Scissor boxes are in GL's bottom-up rows. */
        int x = (int)c->clip[0], y = (int)c->clip[1], w = (int)c->clip[2], h = (int)c->clip[3];
        glScissor(x < 0 ? 0 : x, fb_h - (y + h), w < 0 ? 0 : w, h < 0 ? 0 : h);
        glDrawElements(GL_TRIANGLES, (GLsizei)c->count, GL_UNSIGNED_INT,
                       (void *)(offset * sizeof *idx));
        offset += c->count;
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
}
