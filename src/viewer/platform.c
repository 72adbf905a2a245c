/* The platform: the GLFW window, its events routed to the GUI or to the picture, and the
 * scripted event source of the tests (--keys). The only file that knows about windows. */
#define _XOPEN_SOURCE 700   /* strdup, strtok_r */

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "gl_context.h"
#include "keynames.h"
#include "panels.h"
#include "viewer_internal.h"

static viewer *from(GLFWwindow *w) { return glfwGetWindowUserPointer(w); }

/* While the help shows, letters type its search: only Esc, F1 and Backspace act. */
static bool help_key(viewer *v, int key)
{
    if (!v->s.show_help || key == GLFW_KEY_ESCAPE || key == GLFW_KEY_F1)
        return false;
    size_t n = strlen(v->pnl.help_filter);
    if (key == GLFW_KEY_BACKSPACE && n > 0)
        v->pnl.help_filter[n - 1] = '\0';
    return true;
}

void viewer_key(viewer *v, int key, int mods)
{
    if (help_key(v, key))
        return;
    if (v->pnl.gui && ui_wants_keyboard(v->pnl.gui)) {
        if (key == GLFW_KEY_ESCAPE && v->s.show_open)   /* Esc closes the open box */
            action_run(v, ACT_OPEN);
        return;   /* a typed field's keys are its own: Esc there never quits */
    }
    action_key(v, key, mods);
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    viewer *v = from(w);
    bool down = action == GLFW_PRESS || action == GLFW_REPEAT;
    ui_input_key(v->pnl.gui, key, down);
    bool help = v->s.show_help;
    if (down)
        viewer_key(v, key, mods);
    else if (action == GLFW_RELEASE)
        action_key_up(v, key);
    /* A printable key (GLFW's codes below Escape's) that opened the help (?) also comes as a
     * character: not typed into the search. F1 or a menu sends none: nothing is dropped. */
    if (down)
        v->in.help_swallow = !help && v->s.show_help && key < GLFW_KEY_ESCAPE;
    v->dirty = true;
    v->pnl.ui_frames = 2;
}

static void on_char(GLFWwindow *w, unsigned codepoint)
{
    viewer *v = from(w);
    size_t n = strlen(v->pnl.help_filter);
    if (v->in.help_swallow) {
        v->in.help_swallow = false;
        return;
    }
    if (v->s.show_help && codepoint >= 32 && codepoint < 127 && n + 1 < sizeof v->pnl.help_filter) {
        v->pnl.help_filter[n] = (char)codepoint;
        v->pnl.help_filter[n + 1] = '\0';
    } else if (ui_wants_keyboard(v->pnl.gui)) {
        ui_input_char(v->pnl.gui, codepoint);
    }
    v->dirty = true;
}

/* Window coordinates -> framebuffer pixels (they differ on HiDPI screens). */
static void to_fb(GLFWwindow *w, double *x, double *y)
{
    int ww, wh, fw, fh;
    glfwGetWindowSize(w, &ww, &wh);
    glfwGetFramebufferSize(w, &fw, &fh);
    if (ww > 0 && wh > 0) {
        *x *= (double)fw / ww;
        *y *= (double)fh / wh;
    }
}

/* Framebuffer point (X, Y) on the picture (not a panel)? */
static bool on_picture(const viewer *v, double x, double y)
{
    return x >= v->vp.x && y >= v->vp.y && x < v->vp.x + v->vp.w && y < v->vp.y + v->vp.h &&
           !panels_hovered(v, x, y);
}

/* Framebuffer point (X, Y) within grabbing distance of the wipe's divider? */
static bool near_divider(const viewer *v, double x, double y)
{
    if (v->s.compare != COMPARE_WIPE || v->s.ref < 0)
        return false;
    double at = viewer_wipe_pos(v), d = v->s.wipe_horizontal ? y - v->vp.y - at : x - v->vp.x - at;
    return fabs(d) <= 8 * ui_scale(v->pnl.gui);
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    viewer *v = from(w);
    to_fb(w, &x, &y);
    ui_input_motion(v->pnl.gui, x, y);
    /* another tile: the same place of the shown image's (the Pixel section reads its file) */
    v->in.mouse_tile = viewer_tiles_point(v, &x, &y);
    double lx = x - v->vp.x, ly = y - v->vp.y;
    if (v->in.region_drag)
        viewer_image_pixel(v, lx, ly, &v->in.region_b[0], &v->in.region_b[1]);
    else if (v->in.wipe_drag)
        action_set(v, ACT_SET_WIPE, v->s.wipe_horizontal ? ly / v->vp.h : lx / v->vp.w);
    else if (v->in.dragging) {
        v->s.view = view_pan(v->s.view, lx - v->in.mouse_x, ly - v->in.mouse_y);
        v->s.fitted = false;
    }
    v->in.mouse_x = lx;
    v->in.mouse_y = ly;
    v->in.mouse_in = on_picture(v, x, y);
    v->dirty = true;   /* the inspector follows the cursor, widgets light up */
}

static void on_enter(GLFWwindow *w, int entered)
{
    viewer *v = from(w);
    if (!entered)
        v->in.mouse_in = false;
    v->dirty = true;
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    viewer *v = from(w);
    double x, y;
    glfwGetCursorPos(w, &x, &y);
    to_fb(w, &x, &y);
    ui_input_motion(v->pnl.gui, x, y);
    ui_input_button(v->pnl.gui, button, action == GLFW_PRESS);
    int tile = viewer_tiles_point(v, &x, &y);
    if (action == GLFW_PRESS)
        v->in.press_mods = mods;   /* a panel's click reads them (Shift+click in the list) */
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        bool press = action == GLFW_PRESS && on_picture(v, x, y) && v->doc.have_image;
        if (v->in.region_drag && action == GLFW_RELEASE)
            action_run(v, ACT_REGION_DONE);
        v->in.region_drag = press && (mods & GLFW_MOD_SHIFT);
        if (v->in.region_drag) {   /* Shift+drag: a region, from the pixel under the press */
            viewer_image_pixel(v, x - v->vp.x, y - v->vp.y, &v->in.region_a[0], &v->in.region_a[1]);
            v->in.region_b[0] = v->in.region_a[0];
            v->in.region_b[1] = v->in.region_a[1];
        }
        /* Ctrl+click: a pin on the pixel under the press (no pan). */
        bool pin = press && !v->in.region_drag && (mods & GLFW_MOD_CONTROL);
        if (pin) {
            v->in.pin_at[0] = x - v->vp.x;
            v->in.pin_at[1] = y - v->vp.y;
            action_run(v, ACT_PIN);
        }
        v->in.wipe_drag = press && !v->in.region_drag && !pin && near_divider(v, x, y);
        /* A click on another tile, not a pan (it ends where it began), shows its file. */
        if (action == GLFW_RELEASE && v->in.dragging && tile >= 0 && tile == v->in.press_tile &&
            tile != v->rnd.tile_cur && hypot(x - v->in.press_at[0], y - v->in.press_at[1]) < 3)
            action_set(v, ACT_SELECT_IMAGE, v->rnd.tiles[tile].entry);
        v->in.dragging = press && !v->in.region_drag && !pin && !v->in.wipe_drag;
        v->in.press_tile = v->in.dragging ? tile : -1;
        v->in.press_at[0] = x;
        v->in.press_at[1] = y;
    }
    v->dirty = true;
    v->pnl.ui_frames = 2;
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    viewer *v = from(w);
    double x, y;
    glfwGetCursorPos(w, &x, &y);
    to_fb(w, &x, &y);
    viewer_tiles_point(v, &x, &y);
    if (!on_picture(v, x, y)) {
        ui_input_scroll(v->pnl.gui, dx, dy);
    } else {
        v->s.view = view_zoom_at(v->s.view, pow(2.0, dy / 4),
                                 (view_point){v->in.mouse_x, v->in.mouse_y}, v->vp.w, v->vp.h);
        v->s.fitted = false;
    }
    v->dirty = true;
}

static void on_drop(GLFWwindow *w, int n, const char **paths)
{
    viewer_files_drop(from(w), (char **)paths, n);
}

static void on_refresh(GLFWwindow *w) { from(w)->dirty = true; }
static void on_fb_size(GLFWwindow *w, int width, int height)
{
    (void)width, (void)height;
    from(w)->dirty = true;
}

bool viewer_parse_replay(viewer *v, const char *keys)
{
    size_t len = strlen(keys);
    v->in.replay = calloc(len + 1, sizeof *v->in.replay);
    char *copy = v->in.replay ? strdup(keys) : NULL, *save = NULL;
    if (!copy)
        return false;
    for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        int key, mods;
        if (!keys_parse(tok, &key, &mods)) {
            fprintf(stderr, "hdrtone: --keys: unknown key '%s' (names as xdotool: a, A, "
                            "shift+Up, comma, period, F1, Page_Down, ...)\n", tok);
            free(copy);
            return false;
        }
        v->in.replay[v->in.nreplay][0] = key;
        v->in.replay[v->in.nreplay][1] = mods;
        v->in.nreplay++;
    }
    free(copy);
    return true;
}

/* ---------------------------------------------------------------------------------------
 * The window */

static char g_glfw_error[512];

static void on_glfw_error(int code, const char *desc)
{
    (void)code;
    snprintf(g_glfw_error, sizeof g_glfw_error, "%s", desc);
}

void platform_set_error_callback(void) { glfwSetErrorCallback(on_glfw_error); }
const char *platform_glfw_error(void) { return g_glfw_error; }

/* After a failed 4.3 core window: what does the machine offer? "GL_VERSION, GL_RENDERER" of
 * a default context, or the GLFW error. */
static void describe_gl(char *buf, size_t len)
{
    snprintf(buf, len, "%s", g_glfw_error[0] ? g_glfw_error : "unknown");
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow *w = glfwCreateWindow(64, 64, "hdrtone", NULL, NULL);
    if (!w)
        return;
    glfwMakeContextCurrent(w);
    typedef const unsigned char *(*get_string_fn)(unsigned);
    get_string_fn get = (get_string_fn)glfwGetProcAddress("glGetString");
    if (get && get(GL_VERSION))
        snprintf(buf, len, "found OpenGL %s (%s)", (const char *)get(GL_VERSION),
                 get(GL_RENDERER) ? (const char *)get(GL_RENDERER) : "?");
    glfwMakeContextCurrent(NULL);
    glfwDestroyWindow(w);
}

/* The window's size: --window WxH, else 960x600 (the image is fitted into its viewport). */
static void window_size(const ht_options *o, int *ww, int *wh)
{
    *ww = 960;
    *wh = 600;
    int w, h;
    if (o->window && sscanf(o->window, "%dx%d", &w, &h) == 2 && w >= 64 && h >= 64 &&
        w <= 16384 && h <= 16384) {
        *ww = w;
        *wh = h;
    } else if (o->window) {
        fprintf(stderr, "hdrtone: --window %s: not WxH (64 to 16384 each); 960x600 instead\n",
                o->window);
    }
}

static void set_callbacks(viewer *v)
{
    glfwSetWindowUserPointer(v->win, v);
    glfwSetKeyCallback(v->win, on_key);
    glfwSetCharCallback(v->win, on_char);
    glfwSetCursorPosCallback(v->win, on_cursor);
    glfwSetCursorEnterCallback(v->win, on_enter);
    glfwSetMouseButtonCallback(v->win, on_button);
    glfwSetScrollCallback(v->win, on_scroll);
    glfwSetDropCallback(v->win, on_drop);
    glfwSetWindowRefreshCallback(v->win, on_refresh);
    glfwSetFramebufferSizeCallback(v->win, on_fb_size);
}

/* The GUI at the monitor's content scale (Xft.dpi / 96 on X11) times --ui-scale. */
static bool open_gui(viewer *v)
{
    float xs = 1, ys = 1;
    glfwGetWindowContentScale(v->win, &xs, &ys);
    char err[HT_ERR_MAX];
    if (!(v->pnl.gui = ui_create(fmaxf(1.0f, xs) * v->pnl.ui_scale, err, sizeof err))) {
        fprintf(stderr, "hdrtone: the GUI cannot start: %s\n", err);
        return false;
    }
    return true;
}

bool platform_open_window(viewer *v, const ht_options *o)
{
    int ww, wh;
    window_size(o, &ww, &wh);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_FALSE);   /* the pipeline encodes; GL must not */
    glfwWindowHint(GLFW_SAMPLES, 0);                 /* MSAA lives in the scene target */
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    v->win = glfwCreateWindow(ww, wh, "hdrtone", NULL, NULL);
    if (!v->win) {
        char found[512];
        describe_gl(found, sizeof found);
        fprintf(stderr,
                "hdrtone: cannot create an OpenGL 4.3 core window: %s\n"
                "hdrtone: `hdrtone export FILE -o OUT.png` may still work (headless EGL).\n",
                found);
        return false;
    }
    glfwMakeContextCurrent(v->win);
    char err[HT_ERR_MAX];
    if (!gl_load((GLADloadfunc)glfwGetProcAddress, err, sizeof err)) {
        fprintf(stderr, "hdrtone: OpenGL 4.3 core is needed: %s\n", err);
        return false;
    }
    if (!(v->rnd.pipe = pipeline_create(err, sizeof err)) ||
        !(v->rnd.scene = pass_scene_create(err, sizeof err))) {
        fprintf(stderr, "hdrtone: GPU setup failed: %s\n", err);
        return false;
    }
    if (!open_gui(v))
        return false;
    pipeline_set_latency(v->rnd.pipe, v->rnd.latency);
    glfwSwapInterval(1);
    set_callbacks(v);
    return true;
}

/* ---------------------------------------------------------------------------------------
 * The window's life, its events and the clock: the rest of the viewer calls GLFW through
 * these only. Without a window (bench's viewer frame: viewer_bench.c) they do nothing. */

bool platform_start(void) { return glfwInit() == GLFW_TRUE; }
void platform_end(void) { glfwTerminate(); }
double platform_time(void) { return glfwGetTime(); }
void platform_wake(void) { glfwPostEmptyEvent(); }

void platform_close_window(viewer *v)
{
    if (v->win)
        glfwDestroyWindow(v->win);
    v->win = NULL;
}

void platform_make_current(viewer *v)
{
    if (v->win)
        glfwMakeContextCurrent(v->win);
}

bool platform_should_close(const viewer *v) { return v->win && glfwWindowShouldClose(v->win); }

void platform_framebuffer_size(viewer *v)
{
    if (v->win)
        glfwGetFramebufferSize(v->win, &v->fb_w, &v->fb_h);
}

void platform_wait(double seconds)
{
    if (seconds == 0)
        glfwPollEvents();
    else if (seconds < 0)
        glfwWaitEvents();
    else
        glfwWaitEventsTimeout(seconds);
}

void platform_swap(viewer *v)
{
    if (v->win)
        glfwSwapBuffers(v->win);
}

void platform_title(viewer *v, const char *title)
{
    if (v->win)
        glfwSetWindowTitle(v->win, title);
}

void platform_clipboard(viewer *v, const char *text)
{
    if (v->win)
        glfwSetClipboardString(v->win, text);
}

void platform_focus(viewer *v)
{
    if (v->win)
        glfwFocusWindow(v->win);
}
