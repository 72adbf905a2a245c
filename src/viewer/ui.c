/* The GUI toolkit's glue (ui.h): the font atlas, input, and conversion to ui_draw. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "font.h"
#include "ui_draw.h"

enum { UI_MAX_VERTS = 1 << 18, UI_MAX_IDX = 1 << 20, UI_MAX_CMDS = 8192 };

struct ui {
    struct nk_context ctx;
    struct nk_font_atlas atlas;
    struct nk_draw_null_texture null_tex;
    struct nk_buffer cmds;
    ui_draw *draw;
    float scale, text_px;
    ui_vertex *vtx;
    uint32_t *idx;
    ui_cmd *dcmds;
    /* A press and its release within one frame (a fast click) would leave the toolkit no
     * frame with the button down, in which it activates the window under it: the release
     * waits for the next frame. */
    bool pressed[3], release_due[3];
    int release_x[3], release_y[3];
};

/* Text and panel colours: light text on dark grey, every text at 4.5:1 contrast or more
 * (the WCAG minimum): #E6E6E6 on #2B2B2E is 11.6:1, the dimmed #A8A8A8 on #2B2B2E 6.3:1. */
static void ui_style(struct nk_context *ctx)
{
    struct nk_color table[NK_COLOR_COUNT];
    table[NK_COLOR_TEXT] = nk_rgb(230, 230, 230);
    table[NK_COLOR_WINDOW] = nk_rgb(43, 43, 46);
    table[NK_COLOR_HEADER] = nk_rgb(55, 55, 60);
    table[NK_COLOR_BORDER] = nk_rgb(70, 70, 76);
    table[NK_COLOR_BUTTON] = nk_rgb(62, 62, 68);
    table[NK_COLOR_BUTTON_HOVER] = nk_rgb(78, 78, 86);
    table[NK_COLOR_BUTTON_ACTIVE] = nk_rgb(40, 90, 150);
    table[NK_COLOR_TOGGLE] = nk_rgb(70, 70, 78);
    table[NK_COLOR_TOGGLE_HOVER] = nk_rgb(90, 90, 98);
    table[NK_COLOR_TOGGLE_CURSOR] = nk_rgb(90, 160, 230);
    table[NK_COLOR_SELECT] = nk_rgb(55, 55, 60);
    table[NK_COLOR_SELECT_ACTIVE] = nk_rgb(40, 90, 150);
    table[NK_COLOR_SLIDER] = nk_rgb(62, 62, 68);
    table[NK_COLOR_SLIDER_CURSOR] = nk_rgb(90, 160, 230);
    table[NK_COLOR_SLIDER_CURSOR_HOVER] = nk_rgb(120, 180, 240);
    table[NK_COLOR_SLIDER_CURSOR_ACTIVE] = nk_rgb(150, 200, 250);
    table[NK_COLOR_PROPERTY] = nk_rgb(55, 55, 60);
    table[NK_COLOR_EDIT] = nk_rgb(30, 30, 33);
    table[NK_COLOR_EDIT_CURSOR] = nk_rgb(230, 230, 230);
    table[NK_COLOR_COMBO] = nk_rgb(55, 55, 60);
    table[NK_COLOR_CHART] = nk_rgb(30, 30, 33);
    table[NK_COLOR_CHART_COLOR] = nk_rgb(90, 160, 230);
    table[NK_COLOR_CHART_COLOR_HIGHLIGHT] = nk_rgb(255, 200, 60);
    table[NK_COLOR_SCROLLBAR] = nk_rgb(43, 43, 46);
    table[NK_COLOR_SCROLLBAR_CURSOR] = nk_rgb(80, 80, 88);
    table[NK_COLOR_SCROLLBAR_CURSOR_HOVER] = nk_rgb(100, 100, 108);
    table[NK_COLOR_SCROLLBAR_CURSOR_ACTIVE] = nk_rgb(120, 120, 128);
    table[NK_COLOR_TAB_HEADER] = nk_rgb(55, 55, 60);
    table[NK_COLOR_KNOB] = table[NK_COLOR_SLIDER];
    table[NK_COLOR_KNOB_CURSOR] = table[NK_COLOR_SLIDER_CURSOR];
    table[NK_COLOR_KNOB_CURSOR_HOVER] = table[NK_COLOR_SLIDER_CURSOR_HOVER];
    table[NK_COLOR_KNOB_CURSOR_ACTIVE] = table[NK_COLOR_SLIDER_CURSOR_ACTIVE];
    nk_style_from_table(ctx, table);
    /* A disabled widget's colours at 70 %: its text, #E6E6E6 dimmed on #2B2B2E, keeps
     * 5.5:1 (Nuklear's 50 % gives 4.3:1, under the 4.5:1 every text must have). */
    struct nk_style *st = &ctx->style;
    float *f[] = {&st->text.disabled_factor, &st->button.disabled_factor,
                  &st->contextual_button.disabled_factor, &st->menu_button.disabled_factor,
                  &st->option.disabled_factor, &st->checkbox.disabled_factor,
                  &st->selectable.disabled_factor, &st->slider.disabled_factor,
                  &st->property.disabled_factor, &st->edit.disabled_factor,
                  &st->combo.disabled_factor};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        *f[i] = 0.7f;
}

static bool bake_font(ui *u, char *err, size_t errlen)
{
    char path[1024];
    if (!font_find(FONT_DEFAULT_PATTERN, path, sizeof path, err, errlen))
        return false;
    nk_font_atlas_init_default(&u->atlas);
    nk_font_atlas_begin(&u->atlas);
    struct nk_font_config cfg = nk_font_config(u->text_px);
    cfg.oversample_h = 2;   /* sharper small text */
    struct nk_font *font = nk_font_atlas_add_from_file(&u->atlas, path, u->text_px, &cfg);
    int w, h;
    const void *px = font ? nk_font_atlas_bake(&u->atlas, &w, &h, NK_FONT_ATLAS_RGBA32) : NULL;
    unsigned tex = px ? ui_draw_texture(u->draw, px, w, h) : 0;
    if (!tex) {
        snprintf(err, errlen, "%s: cannot bake the font", path);
        nk_font_atlas_clear(&u->atlas);
        return false;
    }
    nk_font_atlas_end(&u->atlas, nk_handle_id((int)tex), &u->null_tex);
    return nk_init_default(&u->ctx, &font->handle) ||
           (snprintf(err, errlen, "GUI: out of memory"), false);
}

ui *ui_create(float scale, char *err, size_t errlen)
{
    ui *u = calloc(1, sizeof *u);
    if (u) {
        u->vtx = malloc(UI_MAX_VERTS * sizeof *u->vtx);
        u->idx = malloc(UI_MAX_IDX * sizeof *u->idx);
        u->dcmds = malloc(UI_MAX_CMDS * sizeof *u->dcmds);
    }
    if (!u || !u->vtx || !u->idx || !u->dcmds) {
        snprintf(err, errlen, "GUI: out of memory");
        ui_destroy(&u);
        return NULL;
    }
    u->scale = scale > 0 ? scale : 1;
    u->text_px = UI_TEXT_PT * 4.0f / 3.0f * u->scale;
    if (!(u->draw = ui_draw_create(err, errlen)) || !bake_font(u, err, errlen)) {
        ui_destroy(&u);
        return NULL;
    }
    nk_buffer_init_default(&u->cmds);
    ui_style(&u->ctx);
    return u;
}

void ui_destroy(ui **pu)
{
    ui *u = *pu;
    if (!u)
        return;
    if (u->ctx.memory.memory.ptr) {
        nk_buffer_free(&u->cmds);
        nk_free(&u->ctx);
        nk_font_atlas_clear(&u->atlas);
    }
    ui_draw_destroy(&u->draw);
    free(u->vtx);
    free(u->idx);
    free(u->dcmds);
    free(u);
    *pu = NULL;
}

struct nk_context *ui_ctx(ui *u) { return &u->ctx; }
float ui_text_px(const ui *u) { return u->text_px; }
float ui_scale(const ui *u) { return u->scale; }

void ui_input_begin(ui *u)
{
    nk_input_begin(&u->ctx);
    for (int b = 0; b < 3; b++) {
        u->pressed[b] = false;
        if (u->release_due[b])
            nk_input_button(&u->ctx, (enum nk_buttons)b, u->release_x[b], u->release_y[b], 0);
        u->release_due[b] = false;
    }
}
void ui_input_end(ui *u) { nk_input_end(&u->ctx); }

void ui_input_motion(ui *u, double x, double y) { nk_input_motion(&u->ctx, (int)x, (int)y); }

void ui_input_button(ui *u, int glfw_button, bool down, double x, double y)
{
    enum nk_buttons b = glfw_button == GLFW_MOUSE_BUTTON_RIGHT    ? NK_BUTTON_RIGHT
                        : glfw_button == GLFW_MOUSE_BUTTON_MIDDLE ? NK_BUTTON_MIDDLE
                                                                  : NK_BUTTON_LEFT;
    if (!down && u->pressed[b]) {
        u->release_due[b] = true;
        u->release_x[b] = (int)x;
        u->release_y[b] = (int)y;
        return;
    }
    u->pressed[b] = down;
    nk_input_button(&u->ctx, b, (int)x, (int)y, down);
}

void ui_input_scroll(ui *u, double dx, double dy)
{
    nk_input_scroll(&u->ctx, nk_vec2((float)dx, (float)dy));
}

void ui_input_char(ui *u, unsigned codepoint) { nk_input_unicode(&u->ctx, codepoint); }

void ui_input_key(ui *u, int key, bool down, int mods)
{
    bool ctrl = mods & GLFW_MOD_CONTROL;
    static const struct { int glfw; enum nk_keys nk; } KEYS[] = {
        {GLFW_KEY_BACKSPACE, NK_KEY_BACKSPACE}, {GLFW_KEY_DELETE, NK_KEY_DEL},
        {GLFW_KEY_ENTER, NK_KEY_ENTER},         {GLFW_KEY_KP_ENTER, NK_KEY_ENTER},
        {GLFW_KEY_TAB, NK_KEY_TAB},             {GLFW_KEY_LEFT, NK_KEY_LEFT},
        {GLFW_KEY_RIGHT, NK_KEY_RIGHT},         {GLFW_KEY_HOME, NK_KEY_TEXT_START},
        {GLFW_KEY_END, NK_KEY_TEXT_END},        {GLFW_KEY_UP, NK_KEY_UP},
        {GLFW_KEY_DOWN, NK_KEY_DOWN},           {GLFW_KEY_LEFT_SHIFT, NK_KEY_SHIFT},
        {GLFW_KEY_RIGHT_SHIFT, NK_KEY_SHIFT},   /* text selection with Shift */
    };
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        if (KEYS[i].glfw == key)
            nk_input_key(&u->ctx, KEYS[i].nk, down);
    if (ctrl && key == GLFW_KEY_A)
        nk_input_key(&u->ctx, NK_KEY_TEXT_SELECT_ALL, down);
}

bool ui_wants_keyboard(const ui *u)
{
    /* An edit field that has the focus holds the keyboard (nk_item_is_any_active is true for
     * any widget the mouse holds as well, which must not block the shortcuts). */
    for (const struct nk_window *w = u->ctx.begin; w; w = w->next)
        if (w->edit.active && !(w->flags & (NK_WINDOW_ROM | NK_WINDOW_HIDDEN)))
            return true;
    return false;
}

void ui_render(ui *u, int fb_w, int fb_h)
{
    static const struct nk_draw_vertex_layout_element layout[] = {
        {NK_VERTEX_POSITION, NK_FORMAT_FLOAT, offsetof(ui_vertex, pos)},
        {NK_VERTEX_TEXCOORD, NK_FORMAT_FLOAT, offsetof(ui_vertex, uv)},
        {NK_VERTEX_COLOR, NK_FORMAT_R8G8B8A8, offsetof(ui_vertex, col)},
        {NK_VERTEX_LAYOUT_END}};
    struct nk_convert_config cfg = {0};
    cfg.vertex_layout = layout;
    cfg.vertex_size = sizeof(ui_vertex);
    cfg.vertex_alignment = NK_ALIGNOF(ui_vertex);
    cfg.tex_null = u->null_tex;
    cfg.circle_segment_count = 22;
    cfg.curve_segment_count = 22;
    cfg.arc_segment_count = 22;
    cfg.global_alpha = 1.0f;
    cfg.shape_AA = NK_ANTI_ALIASING_ON;
    cfg.line_AA = NK_ANTI_ALIASING_ON;
    struct nk_buffer vbuf, ebuf;
    nk_buffer_init_fixed(&vbuf, u->vtx, UI_MAX_VERTS * sizeof *u->vtx);
    nk_buffer_init_fixed(&ebuf, u->idx, UI_MAX_IDX * sizeof *u->idx);
    if (nk_convert(&u->ctx, &u->cmds, &vbuf, &ebuf, &cfg) != NK_CONVERT_SUCCESS) {
        /* More than the buffers hold: this frame's GUI is not drawn (never past them). */
        nk_buffer_clear(&u->cmds);
        nk_clear(&u->ctx);
        return;
    }
    size_t n = 0;
    const struct nk_draw_command *c;
    nk_draw_foreach(c, &u->ctx, &u->cmds) {
        if (n == UI_MAX_CMDS)
            break;
        u->dcmds[n++] = (ui_cmd){c->elem_count, (unsigned)c->texture.id,
                                 {c->clip_rect.x, c->clip_rect.y, c->clip_rect.w,
                                  c->clip_rect.h}};
    }
    ui_draw_render(u->draw, fb_w, fb_h, u->vtx, vbuf.needed / sizeof *u->vtx, u->idx,
                   ebuf.needed / sizeof *u->idx, u->dcmds, n);
    nk_buffer_clear(&u->cmds);
    nk_clear(&u->ctx);
}
