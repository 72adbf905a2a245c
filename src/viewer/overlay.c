/* Overlay: batched rectangles and text (overlay_flat.*), the histogram panel drawn from
 * the frame SSBO (overlay_norm.comp, overlay_plot.*), and the panel of the output's 8-bit
 * histograms drawn from imgstats' SSBO (overlay_histnorm.comp, overlay_hist.vert). */
#include "overlay.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>
#include <stb_easy_font.h>

#include "shaders.h"

/* The output's histograms read imgstats' buffer, not the frame. */
#define OVERLAY_HIST_DEFINES "#define HT_NO_FRAME\n"

enum { CURVE_POINTS = 1024 };

typedef struct flat_vertex {
    float x, y;
    uint8_t rgba[4];
} flat_vertex;

struct overlay {
    unsigned flat_prog, plot_prog, norm_prog;
    unsigned hist_prog, histnorm_prog;   /* the output's 8-bit histograms */
    unsigned flat_vao, flat_vbo;
    unsigned plot_vao;          /* empty: the panel's vertices come from gl_VertexID */
    unsigned norm_buf;          /* one float: the histogram's height scale */
    flat_vertex *verts;         /* the pending batch */
    size_t nverts, cap;
    char *font_buf;             /* stb_easy_font's quads for one line */
    int width, height;
};

enum { FONT_BUF_SIZE = 1 << 17 };

overlay *overlay_create(char *err, size_t errlen)
{
    overlay *o = calloc(1, sizeof *o);
    if (!o || !(o->font_buf = malloc(FONT_BUF_SIZE))) {
        free(o);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    o->flat_prog = shaders_graphics("overlay_flat.vert", "overlay_flat.frag",
                                    "#define HT_NO_FRAME\n", err, errlen);
    if (o->flat_prog)
        o->plot_prog = shaders_graphics("overlay_plot.vert", "overlay_plot.frag", NULL, err,
                                        errlen);
    if (o->plot_prog)
        o->norm_prog = shaders_compute("overlay_norm.comp", NULL, err, errlen);
    if (o->norm_prog)
        o->hist_prog = shaders_graphics("overlay_hist.vert", "overlay_plot.frag",
                                        OVERLAY_HIST_DEFINES, err, errlen);
    if (o->hist_prog)
        o->histnorm_prog = shaders_compute("overlay_histnorm.comp", OVERLAY_HIST_DEFINES, err,
                                           errlen);
    if (!o->histnorm_prog) {
        overlay_destroy(&o);
        return NULL;
    }
    glGenVertexArrays(1, &o->flat_vao);
    glGenBuffers(1, &o->flat_vbo);
    glBindVertexArray(o->flat_vao);
    glBindBuffer(GL_ARRAY_BUFFER, o->flat_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(flat_vertex),
                          (void *)offsetof(flat_vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(flat_vertex),
                          (void *)offsetof(flat_vertex, rgba));
    glBindVertexArray(0);
    glGenVertexArrays(1, &o->plot_vao);
    glGenBuffers(1, &o->norm_buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, o->norm_buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(float), NULL, GL_DYNAMIC_COPY);
    return o;
}

void overlay_destroy(overlay **op)
{
    if (!op || !*op)
        return;
    overlay *o = *op;
    glDeleteProgram(o->flat_prog);
    glDeleteProgram(o->plot_prog);
    glDeleteProgram(o->norm_prog);
    glDeleteProgram(o->hist_prog);
    glDeleteProgram(o->histnorm_prog);
    glDeleteVertexArrays(1, &o->flat_vao);
    glDeleteVertexArrays(1, &o->plot_vao);
    glDeleteBuffers(1, &o->flat_vbo);
    glDeleteBuffers(1, &o->norm_buf);
    free(o->verts);
    free(o->font_buf);
    free(o);
    *op = NULL;
}

static void set_blend(void)
{
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
}

void overlay_begin(overlay *o, int width, int height)
{
    o->width = width;
    o->height = height;
    o->nverts = 0;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, width, height);
    glDisable(GL_SCISSOR_TEST);
}

/* Draws and empties the pending batch. */
static void flush(overlay *o)
{
    if (o->nverts == 0)
        return;
    set_blend();
    glUseProgram(o->flat_prog);
    glUniform2f(glGetUniformLocation(o->flat_prog, "u_viewport"), (float)o->width,
                (float)o->height);
    glBindVertexArray(o->flat_vao);
    glBindBuffer(GL_ARRAY_BUFFER, o->flat_vbo);
    /* Orphan and refill: the driver may still be reading the previous batch. */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(o->nverts * sizeof(flat_vertex)), o->verts,
                 GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)o->nverts);
    glBindVertexArray(0);
    glUseProgram(0);
    o->nverts = 0;
}

void overlay_end(overlay *o)
{
    flush(o);
    glDisable(GL_BLEND);
}

static bool reserve(overlay *o, size_t more)
{
    if (o->nverts + more <= o->cap)
        return true;
    size_t cap = o->cap ? o->cap * 2 : 4096;
    while (cap < o->nverts + more)
        cap *= 2;
    flat_vertex *v = realloc(o->verts, cap * sizeof *v);
    if (!v)
        return false;
    o->verts = v;
    o->cap = cap;
    return true;
}

static void push_quad(overlay *o, float x0, float y0, float x1, float y1, const uint8_t c[4])
{
    if (!reserve(o, 6))
        return;
    const float xy[6][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y0}, {x1, y1}, {x0, y1}};
    for (int i = 0; i < 6; i++) {
        flat_vertex *v = &o->verts[o->nverts++];
        v->x = xy[i][0];
        v->y = xy[i][1];
        memcpy(v->rgba, c, 4);
    }
}

static void to_bytes(const float rgba[4], uint8_t c[4])
{
    for (int i = 0; i < 4; i++) {
        float v = rgba[i] < 0 ? 0 : rgba[i] > 1 ? 1 : rgba[i];
        c[i] = (uint8_t)lrintf(v * 255.0f);
    }
}

void overlay_rect(overlay *o, float x, float y, float w, float h, const float rgba[4])
{
    uint8_t c[4];
    to_bytes(rgba, c);
    push_quad(o, x, y, x + w, y + h, c);
}

void overlay_outline(overlay *o, float x, float y, float w, float h, float t, const float rgba[4])
{
    uint8_t c[4];
    to_bytes(rgba, c);
    t = fminf(t, fminf(w, h) / 2);
    push_quad(o, x, y, x + w, y + t, c);
    push_quad(o, x, y + h - t, x + w, y + h, c);
    push_quad(o, x, y + t, x + t, y + h - t, c);
    push_quad(o, x + w - t, y + t, x + w, y + h - t, c);
}

/* stb_easy_font writes quads of 4 vertices of 16 bytes: x, y, z (floats) and a colour. */
typedef struct font_vertex {
    float x, y, z;
    uint8_t c[4];
} font_vertex;

void overlay_text(overlay *o, float x, float y, float scale, const char *text,
                  const float rgba[4])
{
    uint8_t c[4];
    to_bytes(rgba, c);
    char line[1024];
    float ly = y;
    /* Line by line, so a long text never overruns the font buffer. */
    while (*text) {
        size_t n = strcspn(text, "\n");
        size_t m = n < sizeof line - 1 ? n : sizeof line - 1;
        memcpy(line, text, m);
        line[m] = '\0';
        int quads = stb_easy_font_print(0, 0, line, NULL, o->font_buf, FONT_BUF_SIZE);
        const font_vertex *fv = (const font_vertex *)(void *)o->font_buf;
        for (int q = 0; q < quads; q++, fv += 4)
            push_quad(o, x + fv[0].x * scale, ly + fv[0].y * scale, x + fv[2].x * scale,
                      ly + fv[2].y * scale, c);
        ly += 12.0f * scale;
        text += n + (text[n] == '\n');
    }
}

float overlay_text_width(const char *text, float scale)
{
    (void)stb_easy_font_spacing; /* the font's API is all static; this one stays unused */
    return (float)stb_easy_font_width((char *)text) * scale;
}

float overlay_text_height(const char *text, float scale)
{
    int lines = 1;
    for (const char *p = text; *p; p++)
        lines += *p == '\n' && p[1] != '\0';
    return 12.0f * (float)lines * scale;
}

/* "0.01", "1", "1000", "1e+05": a decade, short. */
static void decade_label(int k, char *buf, size_t len)
{
    if (k >= -3 && k <= 4)
        snprintf(buf, len, "%g", pow(10.0, k));
    else
        snprintf(buf, len, "1e%d", k);
}

static void plot_draw(overlay *o, int mode, GLenum prim, int count, int instances,
                      const float color[4])
{
    glUniform1i(glGetUniformLocation(o->plot_prog, "u_mode"), mode);
    glUniform4fv(glGetUniformLocation(o->plot_prog, "u_color"), 1, color);
    glDrawArraysInstanced(prim, 0, count, instances);
}

/* The colours of the panel's parts, shared by the plot and its legend. */
static const float C_HIST[4] = {0.55f, 0.58f, 0.62f, 0.75f};
static const float C_TRIM[4] = {0.20f, 0.55f, 0.95f, 0.85f};
static const float C_CEILING[4] = {0.20f, 0.55f, 0.95f, 0.9f};
static const float C_RANGE[4] = {1.0f, 0.35f, 0.30f, 0.9f};
static const float C_CURVE[4] = {1.0f, 0.85f, 0.25f, 1.0f};
static const float C_CURSOR[4] = {0.3f, 1.0f, 0.4f, 0.95f};
static const float C_PANEL[4] = {0.08f, 0.08f, 0.09f, 0.78f};
static const float C_GRID[4] = {1, 1, 1, 0.14f};
static const float C_LABEL[4] = {0.85f, 0.85f, 0.85f, 1};

/* The plot area inside a panel, pixels (y down). */
typedef struct plot_area {
    float x, y, w, h;
} plot_area;

/* The x axis: decades of world luminance (LO..HI, ln cd/m^2), grid lines and labels, thinned
 * out when they would touch. */
static void plot_lw_axis(overlay *o, const plot_area *a, float s, double lo, double hi)
{
    const double ln10 = log(10.0);
    int k0 = (int)ceil(lo / ln10), k1 = (int)floor(hi / ln10);
    float per_decade = (float)(a->w * ln10 / (hi - lo));
    int step = 1;
    while (step < 64 && per_decade * (float)step < 34 * s)
        step *= 2;
    for (int k = k0; k <= k1; k++) {
        if (k % step != 0)
            continue;
        float x = a->x + (float)((k * ln10 - lo) / (hi - lo)) * a->w;
        overlay_rect(o, x, a->y, 1, a->h, C_GRID);
        char buf[32];
        decade_label(k, buf, sizeof buf);
        overlay_text(o, x - overlay_text_width(buf, s) / 2, a->y + a->h + 4 * s, s, buf, C_LABEL);
    }
    overlay_text(o, a->x, a->y + a->h + 16 * s, s,
                 "x: world luminance Lw   y: display luminance Ld (cd/m^2)", C_LABEL);
}

/* The y axis: display luminance, Ldmin at the bottom, Ldmax at the top, decades between. */
static void plot_ld_axis(overlay *o, const plot_area *a, float s, double ldmax, double drange)
{
    const double ln10 = log(10.0);
    double ldmin = ldmax / drange;
    char buf[48];
    for (int k = (int)ceil(log10(ldmin) + 1e-9); k <= (int)floor(log10(ldmax) - 1e-9); k++) {
        float y = a->y + a->h * (1 - (float)((k * ln10 - log(ldmin)) / log(drange)));
        overlay_rect(o, a->x, y, a->w, 1, C_GRID);
        decade_label(k, buf, sizeof buf);
        overlay_text(o, a->x + a->w + 4 * s, y - 4 * s, s, buf, C_LABEL);
    }
    snprintf(buf, sizeof buf, "%.3g", ldmax);
    overlay_text(o, a->x + a->w + 4 * s, a->y - 3 * s, s, buf, C_LABEL);
    snprintf(buf, sizeof buf, "%.3g", ldmin);
    overlay_text(o, a->x + a->w + 4 * s, a->y + a->h - 9 * s, s, buf, C_LABEL);
}

/* The GPU part: the bars' height scale (overlay_norm.comp), then every part of the panel
 * (overlay_plot.vert, one draw per HT_PLOT_* mode) from FRAME_BUFFER, clipped to the area. */
static void plot_frame(overlay *o, unsigned frame_buffer, const overlay_plot_info *in,
                       const plot_area *a, double lo, double hi)
{
    const float s = in->scale;
    /* The curve pass wrote the frame with shader stores: make them visible. */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_FRAME, frame_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_OVERLAY, o->norm_buf);
    glUseProgram(o->norm_prog);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    set_blend();
    glEnable(GL_SCISSOR_TEST);
    glScissor((GLint)floorf(a->x), (GLint)floorf((float)o->height - (a->y + a->h)),
              (GLsizei)ceilf(a->w), (GLsizei)ceilf(a->h + 1));
    unsigned prog = o->plot_prog;
    glUseProgram(prog);
    glUniform2f(glGetUniformLocation(prog, "u_viewport"), (float)o->width, (float)o->height);
    glUniform4f(glGetUniformLocation(prog, "u_rect"), a->x, a->y, a->w, a->h);
    glUniform2f(glGetUniformLocation(prog, "u_axis"), (float)lo, (float)hi);
    glUniform1i(glGetUniformLocation(prog, "u_points"), CURVE_POINTS);
    glUniform1f(glGetUniformLocation(prog, "u_ldmax"), (float)in->ldmax);
    glUniform1f(glGetUniformLocation(prog, "u_drange"), (float)in->drange);
    glUniform1f(glGetUniformLocation(prog, "u_cursor"), (float)in->cursor_ln_lw);
    glUniform1f(glGetUniformLocation(prog, "u_dot"), 7 * s);
    glBindVertexArray(o->plot_vao);
    plot_draw(o, HT_PLOT_HIST, GL_TRIANGLES, 6, HT_MAX_BINS, C_HIST);
    plot_draw(o, HT_PLOT_TRIMMED, GL_TRIANGLES, 6, HT_MAX_BINS, C_TRIM);
    plot_draw(o, HT_PLOT_CEILING, GL_LINES, 2, 1, C_CEILING);
    plot_draw(o, HT_PLOT_RANGE, GL_LINES, 4, 1, C_RANGE);
    /* Wide lines are optional in core profiles: ask for what the driver offers. */
    float widths[2] = {1, 1};
    glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, widths);
    glLineWidth(fminf(fmaxf(2 * s, 1), widths[1]));
    plot_draw(o, HT_PLOT_CURVE, GL_LINE_STRIP, CURVE_POINTS, 1, C_CURVE);
    glLineWidth(1);
    if (in->cursor) {
        plot_draw(o, HT_PLOT_CURSOR, GL_LINES, 2, 1, C_CURSOR);
        plot_draw(o, HT_PLOT_DOT, GL_TRIANGLES, 6, 1, C_CURSOR);
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_SCISSOR_TEST);
}

/* The legend, right-aligned on the title's line. */
static void plot_legend(overlay *o, const overlay_plot_info *in)
{
    const float s = in->scale;
    float lx = in->x + in->w - 8 * s;
    const struct { const char *name; const float *c; } legend[] = {
        {"curve", C_CURVE}, {"range", C_RANGE}, {"trimmed/ceiling", C_TRIM},
        {"histogram", C_HIST}};
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) {
        float w = overlay_text_width(legend[i].name, s);
        lx -= w;
        overlay_text(o, lx, in->y + 5 * s, s, legend[i].name, legend[i].c);
        lx -= 10 * s;
    }
}

void overlay_plot(overlay *o, unsigned frame_buffer, const overlay_plot_info *in)
{
    const float s = in->scale;
    /* Plot area inside the panel: room for the title above, the Lw labels below and the Ld
     * labels to the right. */
    plot_area a = {in->x + 8 * s, in->y + 20 * s, in->w - 8 * s - 44 * s, in->h - 20 * s - 30 * s};
    if (a.w < 20 || a.h < 20)
        return;
    double lo = in->axis_lo, hi = in->axis_hi > in->axis_lo ? in->axis_hi : in->axis_lo + 1;
    overlay_rect(o, in->x, in->y, in->w, in->h, C_PANEL);
    if (in->title)
        overlay_text(o, in->x + 8 * s, in->y + 5 * s, s, in->title, C_LABEL);
    plot_lw_axis(o, &a, s, lo, hi);
    plot_ld_axis(o, &a, s, in->ldmax, in->drange);
    flush(o);
    plot_frame(o, frame_buffer, in, &a, lo, hi);
    plot_legend(o, in);
}

void overlay_plot_output(overlay *o, unsigned hist_buffer, int kind, const overlay_plot_info *in)
{
    const float s = in->scale;
    const float *bg = C_PANEL, *grid = C_GRID, *label = C_LABEL;
    float px = in->x + 8 * s, py = in->y + 20 * s;
    float pw = in->w - 16 * s, ph = in->h - 20 * s - 30 * s;
    if (pw < 20 || ph < 20)
        return;
    overlay_rect(o, in->x, in->y, in->w, in->h, bg);
    if (in->title)
        overlay_text(o, in->x + 8 * s, in->y + 5 * s, s, in->title, label);
    /* The 8-bit levels: a grid line and a label every 32 (every 64 when narrow). */
    int step = pw / 8 < 30 * s ? 64 : 32;
    for (int k = 0; k <= 256; k += step) {
        float x = px + (float)k / 256 * pw;
        overlay_rect(o, x, py, 1, ph, grid);
        char buf[16];
        snprintf(buf, sizeof buf, "%d", k == 256 ? 255 : k);
        float tw = overlay_text_width(buf, s);
        overlay_text(o, fminf(x - tw / 2, px + pw - tw), py + ph + 4 * s, s, buf, label);
    }
    overlay_text(o, px, py + ph + 16 * s, s,
                 kind == OVERLAY_OUTPUT_GREY
                     ? "x: grey level (54 R + 183 G + 19 B) / 256 of the output   y: pixels (sqrt)"
                     : "x: 8-bit value of the output   y: pixels (sqrt)",
                 label);
    flush(o);

    /* The statistics passes wrote the counts with atomics: make them visible. */
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_OVERLAY_HIST, hist_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_OVERLAY, o->norm_buf);
    glUseProgram(o->histnorm_prog);
    glUniform1i(glGetUniformLocation(o->histnorm_prog, "u_grey"), kind == OVERLAY_OUTPUT_GREY);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    glEnable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_SCISSOR_TEST);
    glScissor((GLint)floorf(px), (GLint)floorf((float)o->height - (py + ph)), (GLsizei)ceilf(pw),
              (GLsizei)ceilf(ph + 1));
    unsigned prog = o->hist_prog;
    glUseProgram(prog);
    glUniform2f(glGetUniformLocation(prog, "u_viewport"), (float)o->width, (float)o->height);
    glUniform4f(glGetUniformLocation(prog, "u_rect"), px, py, pw, ph);
    glBindVertexArray(o->plot_vao);
    int ch_loc = glGetUniformLocation(prog, "u_channel");
    int c_loc = glGetUniformLocation(prog, "u_color");
    static const float colours[5][4] = {
        {1.0f, 0.25f, 0.2f, 0.75f}, {0.2f, 1.0f, 0.25f, 0.75f}, {0.3f, 0.45f, 1.0f, 0.85f},
        {0.6f, 0.6f, 0.6f, 0.35f}, {0.8f, 0.8f, 0.82f, 0.85f}};
    if (kind == OVERLAY_OUTPUT_GREY) {
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUniform1i(ch_loc, 4);
        glUniform4fv(c_loc, 1, colours[4]);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, HT_GREY_BINS);
    } else {
        /* A under, then R, G and B added up: where all three agree the bars are white. */
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUniform1i(ch_loc, 3);
        glUniform4fv(c_loc, 1, colours[3]);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, HT_COLOR_BINS);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE);
        for (int c = 0; c < 3; c++) {
            glUniform1i(ch_loc, c);
            glUniform4fv(c_loc, 1, colours[c]);
            glDrawArraysInstanced(GL_TRIANGLES, 0, 6, HT_COLOR_BINS);
        }
    }
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_SCISSOR_TEST);

    /* The legend. */
    float lx = in->x + in->w - 8 * s;
    const char *names[4] = {"A", "B", "G", "R"};
    const int idx[4] = {3, 2, 1, 0};
    int n = kind == OVERLAY_OUTPUT_GREY ? 0 : 4;
    for (int i = 0; i < n; i++) {
        float w = overlay_text_width(names[i], s);
        lx -= w;
        float c[4] = {colours[idx[i]][0], colours[idx[i]][1], colours[idx[i]][2], 1};
        overlay_text(o, lx, in->y + 5 * s, s, names[i], c);
        lx -= 8 * s;
    }
}
