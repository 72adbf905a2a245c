/* The input: the window's events (platform.c hands them over through input_events, in
 * framebuffer pixels) routed to the GUI or to the picture, and the scripted keys of the tests
 * (--keys). It changes the state through the actions only; it writes the input's part
 * (v->in: the pointer, drags, presses). The key codes and modifier bits are GLFW's numbers,
 * the action table's vocabulary; no GLFW function is called here. */
#define _XOPEN_SOURCE 700   /* strdup, strtok_r */

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "keynames.h"
#include "panels.h"
#include "viewer_act.h"
#include "viewer_internal.h"

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

static void on_key(viewer *v, int key, int action, int mods)
{
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

static void on_char(viewer *v, unsigned codepoint)
{
    size_t n = strlen(v->pnl.help_filter);
    if (v->in.help_swallow) {
        v->in.help_swallow = false;
        return;
    }
    if (v->s.show_help && codepoint >= 32 && codepoint < 127 &&
        n + 1 < sizeof v->pnl.help_filter) {
        v->pnl.help_filter[n] = (char)codepoint;
        v->pnl.help_filter[n + 1] = '\0';
    } else if (ui_wants_keyboard(v->pnl.gui)) {
        ui_input_char(v->pnl.gui, codepoint);
    }
    v->dirty = true;
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
    double at = viewer_wipe_pos_at(&v->s, v->vp);
    double d = v->s.wipe_horizontal ? y - v->vp.y - at : x - v->vp.x - at;
    return fabs(d) <= 8 * ui_scale(v->pnl.gui);
}

static void on_cursor(viewer *v, double x, double y)
{
    ui_input_motion(v->pnl.gui, x, y);
    /* another tile: the same place of the shown image's (the Pixel section reads its file) */
    v->in.mouse_tile = viewer_tiles_point(v, &x, &y);
    double lx = x - v->vp.x, ly = y - v->vp.y;
    if (v->in.region_drag)
        viewer_image_pixel(v, lx, ly, &v->in.region_b[0], &v->in.region_b[1]);
    else if (v->in.wipe_drag)
        action_set(v, ACT_SET_WIPE, v->s.wipe_horizontal ? ly / v->vp.h : lx / v->vp.w);
    else if (v->in.dragging)
        viewer_pan_by(v, lx - v->in.mouse_x, ly - v->in.mouse_y);
    v->in.mouse_x = lx;
    v->in.mouse_y = ly;
    v->in.mouse_in = on_picture(v, x, y);
    v->dirty = true;   /* the inspector follows the cursor, widgets light up */
}

static void on_enter(viewer *v, bool entered)
{
    if (!entered)
        v->in.mouse_in = false;
    v->dirty = true;
}

/* A press on the picture: Shift starts a region, Ctrl pins the pixel, near the divider a
 * wipe's drag; else a pan (or, ending where it began, a click). */
static void left_button(viewer *v, bool pressed, bool released, int mods, double x, double y,
                        int tile)
{
    bool press = pressed && on_picture(v, x, y) && v->doc.have_image;
    if (v->in.region_drag && released)
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
    if (released && v->in.dragging && tile >= 0 && tile == v->in.press_tile &&
        tile != v->rnd.tile_cur && hypot(x - v->in.press_at[0], y - v->in.press_at[1]) < 3)
        action_set(v, ACT_SELECT_IMAGE, v->rnd.tiles[tile].entry);
    v->in.dragging = press && !v->in.region_drag && !pin && !v->in.wipe_drag;
    v->in.press_tile = v->in.dragging ? tile : -1;
    v->in.press_at[0] = x;
    v->in.press_at[1] = y;
}

static void on_button(viewer *v, int button, int action, int mods, double x, double y)
{
    ui_input_motion(v->pnl.gui, x, y);
    ui_input_button(v->pnl.gui, button, action == GLFW_PRESS);
    int tile = viewer_tiles_point(v, &x, &y);
    if (action == GLFW_PRESS)
        v->in.press_mods = mods;   /* a panel's click reads them (Shift+click in the list) */
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        left_button(v, action == GLFW_PRESS, action == GLFW_RELEASE, mods, x, y, tile);
    v->dirty = true;
    v->pnl.ui_frames = 2;
}

static void on_scroll(viewer *v, double dx, double dy, double x, double y)
{
    viewer_tiles_point(v, &x, &y);
    if (!on_picture(v, x, y))
        ui_input_scroll(v->pnl.gui, dx, dy);
    else
        viewer_zoom_by(v, pow(2.0, dy / 4), v->in.mouse_x, v->in.mouse_y);
    v->dirty = true;
}

static void on_drop(viewer *v, int n, const char **paths)
{
    viewer_drop(v, (char **)paths, n);
}

static void on_redraw(viewer *v) { v->dirty = true; }

const platform_events input_events = {on_key, on_char, on_cursor, on_enter, on_button,
                                      on_scroll, on_drop, on_redraw};

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
