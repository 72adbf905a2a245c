/* The viewer's GUI toolkit (Nuklear, src/viewer/nk.h) with its text font and renderer: input
 * from the platform's events, output through the GPU layer's ui_draw. Everything in
 * framebuffer pixels (y down). */
#ifndef HT_UI_H
#define HT_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "nk.h"

typedef struct ui ui;

/* Text height in points (at 96 dpi, 1 pt = 4/3 px) before the scales. */
#define UI_TEXT_PT 10.0f

/* The toolkit with DejaVu Sans (fontconfig) baked at UI_TEXT_PT times SCALE (the monitor's
 * content scale times --ui-scale), on the current GL context. NULL with the reason in err. */
ui *ui_create(float scale, char *err, size_t errlen);
/* Frees everything (GL objects too: the context must be current); *U = NULL; accepts NULL. */
void ui_destroy(ui **u);

struct nk_context *ui_ctx(ui *u);
/* The text height in pixels and the scale it was made for. */
float ui_text_px(const ui *u);
float ui_scale(const ui *u);

/* Input of one frame: begin, the events, end (then the panels are built). */
void ui_input_begin(ui *u);
void ui_input_motion(ui *u, double x, double y);
void ui_input_button(ui *u, int glfw_button, bool down, double x, double y);
void ui_input_scroll(ui *u, double dx, double dy);
void ui_input_char(ui *u, unsigned codepoint);
/* A key the GUI uses for editing text (GLFW key, pressed or released, GLFW modifiers). */
void ui_input_key(ui *u, int glfw_key, bool down, int mods);
void ui_input_end(ui *u);

/* Whether the GUI uses the keyboard now (a text field is being edited): the viewer's
 * shortcuts then stay off. */
bool ui_wants_keyboard(const ui *u);

/* Draws what the panels built this frame over the framebuffer of FB_W x FB_H and starts the
 * next frame (nk_clear). */
void ui_render(ui *u, int fb_w, int fb_h);

#endif
