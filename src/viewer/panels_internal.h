/* What the panels' files share (panels*.cpp, their widgets in panels_widgets.cpp): C++ with
 * Dear ImGui, over the viewer's C headers. */
#ifndef HT_PANELS_INTERNAL_H
#define HT_PANELS_INTERNAL_H

#ifndef __cplusplus
#error "the panels are C++ (ImGui); C code includes panels.h"
#endif

/* The C++ forms of the C library's headers first, so that the C headers' includes of them
 * inside the extern "C" block below add nothing. */
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <imgui.h>

/* The C headers: C11's _Static_assert is C++'s static_assert; the anonymous struct of
 * viewer_internal.h is standard C11 and a GNU extension of C++. */
#define _Static_assert static_assert
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
extern "C" {
#include "actions.h"
#include "ht_enum.h"
#include "ocio.h"
#include "panels.h"
#include "settings.h"
#include "viewer_internal.h"
}
#pragma GCC diagnostic pop
#undef _Static_assert

/* Text colours on the panels' grey (#2B2B2E), each at 4.5:1 or more. */
#define PANELS_RED IM_COL32(255, 130, 120, 255)     /* 6.0:1 */
#define PANELS_GREEN IM_COL32(130, 225, 140, 255)   /* 9.6:1 */
#define PANELS_DIM IM_COL32(168, 168, 168, 255)     /* 6.3:1 */

/* A typed-value field's text while it is edited (immediate mode keeps no state). */
struct typed_field {
    char text[32];
    bool editing;   /* the field held the keyboard last frame */
};

/* Setting ID's label, its tooltip (with its option and limits) when hovered. */
void panels_setting_label(ht_setting_id id);
/* Setting ID's VALUE on a log10 slider over the setting's span with a typed field F beside it
 * (Enter applies any number: the setter clamps it to the limits); the chosen value, or NAN
 * when neither changed it. */
double panels_log_slider(ht_setting_id id, double value, typed_field *f);
/* Asks for action ID to run after the panels are drawn (panels_build), with VALUE (a
 * setter's) or with its table argument (panels_run). */
void panels_act(viewer_panel *p, action_id id, double value);
void panels_run(viewer_panel *p, action_id id);
/* A row of the label NAME and a combo of ITEMS (N, SHOWN at once when open) with CUR
 * chosen: the index chosen when it changed, else -1. */
int panels_combo_row(const char *name, const char *const *items, int n, int cur, int shown);
/* A combo of TABLE's labels with VALUE chosen; a choice runs the setter SET with its value. */
void panels_enum_combo(viewer_panel *p, const char *name, const ht_enum *table, int value,
                       action_id set);
/* Setting ID's label and a count with - and + buttons in the next cell (panels_cell); the
 * new count (clamped to the setting's limits), VALUE when unchanged. */
int panels_count(ht_setting_id id, int value);
/* The next item in a row of columns: from FROM to FROM + WIDTH of the row's width
 * (fractions), with the item spacing between columns. */
void panels_cell(float from, float width);
/* A plot's room: the row's width, H high, with a dark background; its corner and size, or
 * false when it is scrolled out of sight. */
bool panels_plot_area(float h, ImVec2 *a, ImVec2 *size);
/* An entry of a list (images, parts, layers), highlighted when SELECTED, WIDTH wide (0: the
 * row's); whether it was clicked. */
bool panels_selectable(const char *label, bool selected, float width);
/* A checkbox showing action ID's state; a click runs it. */
void panels_toggle(const viewer *v, viewer_panel *p, action_id id, const char *name);

/* The height of one row of widgets (text and frame padding). */
float panels_row(const viewer *v);
/* TEXT as lines (one per '\n', each wrapped at the dock's edge), red when ERROR. */
void panels_text(const char *text, bool error);
/* panels_widgets.cpp holds the widgets above and the HT_TEST_LAYOUT hook: a frame's notes
 * begin (the viewport and the tiles' places first) and end (the file written whole); the
 * last item's place under NAME (printf-like), and TEXT's lines under NAME ("NAME: line"),
 * which the window tests read; whether the hook is on. */
void panels_layout_begin(const viewer *v);
void panels_layout_end(void);
void panels_note(const char *fmt, ...) IM_FMTARGS(1);
void panels_note_text(const char *name, const char *text);
bool panels_noting(void);
/* The histogram section: log-luminance histogram and the curve, or the output's RGBA or
 * grey histogram (Tab), with the mode as a combo. */
void panels_histogram(const viewer *v, viewer_panel *p);
/* The help window: every action by group with its keys, and a search field. */
void panels_help(const viewer *v);
/* What is drawn over the picture (no input) into DL: the display window's frame, the marks
 * (X), the region, the wipe's labels, the message of an image that failed to load. */
void panels_canvas(const viewer *v, ImDrawList *dl);

/* panels_display.cpp: the display mode's section of the dock; the false-colour legend or the
 * error map's colour bar (drawn left of the picture, in the room panels_legend_width keeps
 * there: 0 in other modes). */
void panels_display(const viewer *v, viewer_panel *p);
void panels_legend(const viewer *v, ImDrawList *dl);
int panels_legend_width(const viewer *v);
/* The comparison's settings (FLIP's viewing conditions, HDR-FLIP's tone mapper) and numbers
 * of the picture shown and of the region, with FLIP's weighted histogram. */
void panels_compare_numbers(const viewer *v, viewer_panel *p);
/* FLIP's pooled values (when FLIP) and the metrics as the Compare section shows them. */
void panels_numbers_text(const flip_pooled *fp, bool flip, const metrics_values *m, char *buf,
                         size_t len);
/* Outside the image the scene is zero, which the display modes other than tone mapping
 * colour (falsecolor's bottom colour, a diverging palette's middle): covered in viewport AT,
 * where P places the W x H image, with black, as tone mapping shows it. */
void panels_cover_outside(const viewer *v, ImDrawList *dl, viewport at, view_place p, int w,
                          int h);
/* TEXT with a background box at (X, Y) of the window; WRAP > 0: its lines broken at spaces to
 * fit WRAP pixels, the box included. */
void panels_label(ImDrawList *dl, float x, float y, const char *text, ImU32 bg, ImU32 fg,
                  float wrap = 0.0f);
/* The Region section: the dragged rectangle's statistics, or how to drag one. */
void panels_region(const viewer *v, viewer_panel *p);
void panels_region_text(const viewer *v, char *buf, size_t len);

/* panels_pins.cpp: the pinned pixels' list with each open image's values (the Pixel
 * section) and their marks over the picture; and zoomed in to VALUES_MIN_PT points a pixel
 * or more, each visible pixel's R, G, B drawn on it, in every tile of a layout (the test
 * hook's "pixel_values: COUNT X Y SX SY R G B" for the shown image, "tile_pixel_values: ..."
 * for each other tile: the labels drawn, the middle one's pixel, its centre in the window,
 * its values). */
void panels_pins(const viewer *v, viewer_panel *pnl);
void panels_pin_marks(const viewer *v, ImDrawList *dl);
void panels_pixel_values(const viewer *v, ImDrawList *dl);

/* panels_tiles.cpp: over each tile of a layout its name and its file's whole-image numbers
 * against the reference, the shown tile outlined; the whole image's numbers in the Compare
 * section (each tile's in a layout). panels_whole_text: list entry ENTRY's numbers (FULL:
 * every value, else one line), "computing..." or why they failed, "" without a reference;
 * returns viewer_whole_get's state. */
void panels_tiles(const viewer *v, viewer_panel *p, ImDrawList *dl);
void panels_whole_numbers(const viewer *v, viewer_panel *p);
int panels_whole_text(const viewer *v, viewer_panel *p, int entry, bool full, char *buf,
                      size_t len);

#endif
