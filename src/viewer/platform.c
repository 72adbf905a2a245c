/* The platform: the GLFW window, its events handed to the handlers the loop gives
 * (input.c's), the clock, the title and the clipboard. The only file that calls GLFW; it calls
 * no other file of the viewer (the handlers come as pointers), so every part may use it. */

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_context.h"
#include "viewer_internal.h"

/* ---------------------------------------------------------------------------------------
 * The events: GLFW's callbacks, in framebuffer pixels, to the loop's handlers */

static const platform_events *g_events;

static viewer *from(GLFWwindow *w) { return glfwGetWindowUserPointer(w); }

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    g_events->key(from(w), key, action, mods);
}

static void on_char(GLFWwindow *w, unsigned codepoint) { g_events->chr(from(w), codepoint); }

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

static void on_cursor(GLFWwindow *w, double x, double y)
{
    to_fb(w, &x, &y);
    g_events->cursor(from(w), x, y);
}

static void on_enter(GLFWwindow *w, int entered) { g_events->enter(from(w), entered != 0); }

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    double x, y;
    glfwGetCursorPos(w, &x, &y);
    to_fb(w, &x, &y);
    g_events->button(from(w), button, action, mods, x, y);
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    double x, y;
    glfwGetCursorPos(w, &x, &y);
    to_fb(w, &x, &y);
    g_events->scroll(from(w), dx, dy, x, y);
}

static void on_drop(GLFWwindow *w, int n, const char **paths) { g_events->drop(from(w), n, paths); }
static void on_refresh(GLFWwindow *w) { g_events->redraw(from(w)); }
static void on_fb_size(GLFWwindow *w, int width, int height)
{
    (void)width, (void)height;
    g_events->redraw(from(w));
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

float platform_content_scale(const viewer *v)
{
    float xs = 1, ys = 1;
    if (v->win)
        glfwGetWindowContentScale(v->win, &xs, &ys);
    return fmaxf(1.0f, xs);
}

bool platform_open_window(viewer *v, const ht_options *o, const platform_events *events)
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
    glfwSwapInterval(1);
    g_events = events;
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
