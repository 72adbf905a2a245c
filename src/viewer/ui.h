/* The viewer's GUI toolkit (Dear ImGui, Debian's libimgui-dev) behind a C interface: the font,
 * input from the platform's events, and output through the GPU layer's ui_draw. The panels
 * (panels*.cpp) build their widgets with ImGui between ui_frame_begin and ui_render.
 * Everything in framebuffer pixels (y down). */
#ifndef HT_UI_H
#define HT_UI_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ui ui;

/* Text height in points (at 96 dpi, 1 pt = 4/3 px) before the scales. */
#define UI_TEXT_PT 10.0f

/* The toolkit with DejaVu Sans (fontconfig) rasterised by FreeType at UI_TEXT_PT times SCALE
 * (the monitor's content scale times --ui-scale), on the current GL context; its context is
 * ImGui's current one. NULL with the reason in err. */
ui *ui_create(float scale, char *err, size_t errlen);
/* Frees everything (GL objects too: the context must be current); *U = NULL; accepts NULL. */
void ui_destroy(ui **u);

/* The text height in pixels and the scale it was made for. */
float ui_text_px(const ui *u);
float ui_scale(const ui *u);

/* Input, between frames. A press and its release that arrive before the next frame (a fast
 * click, xdotool's keys) would leave the toolkit no frame with the button or key down: such
 * a release waits for the frame after (ui_input_begin applies it). */
void ui_input_begin(ui *u);
void ui_input_motion(ui *u, double x, double y);
void ui_input_button(ui *u, int glfw_button, bool down);
void ui_input_scroll(ui *u, double dx, double dy);
void ui_input_char(ui *u, unsigned codepoint);
/* A GLFW key pressed or released (editing keys, Ctrl+A and the like for the text fields). */
void ui_input_key(ui *u, int glfw_key, bool down);

/* Whether a text field holds the keyboard (the viewer's shortcuts then stay off). */
bool ui_wants_keyboard(const ui *u);
/* Whether framebuffer point (X, Y) is over a window, menu or popup of the last frame. */
bool ui_over_window(const ui *u, double x, double y);

/* Starts a frame of FB_W x FB_H (the panels build their widgets after it); ui_render ends it
 * and draws it over the framebuffer. */
void ui_frame_begin(ui *u, int fb_w, int fb_h);
void ui_render(ui *u, int fb_w, int fb_h);

#ifdef __cplusplus
}
#endif

#endif
