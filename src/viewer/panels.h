/* The viewer's panels (C++ with Dear ImGui in panels*.cpp, behind this C interface): the menu
 * bar, the dock beside the picture (images, settings, histogram and curve, parts and layers,
 * pixel inspector), the status bar, the help and the open box. They read the viewer's state
 * and the frame record and change nothing but through actions (actions.h). */
#ifndef HT_PANELS_H
#define HT_PANELS_H

#include <stdbool.h>

struct viewer;
struct viewer_panel;
struct viewport;

/* The picture's viewport *VP (the loop's v->vp) and the dock's width in the panel part P,
 * for the framebuffer's size, the GUI's scale and which panels show: the menu bar above, the
 * status bar below, the dock at the right; the dock never takes more than 3/8 of the width
 * and folds away below 230 points, so the picture keeps most of the window and no text
 * overlaps. */
void panels_layout(const struct viewer *v, struct viewer_panel *p, struct viewport *vp);

/* Builds this frame's panels and what goes over the picture (the display window's frame,
 * the marks of X, the pins, values on pixels, a failed load's message); ui_render draws
 * them. The drawing reads the viewer as const and writes only the panel part (v->pnl); the
 * actions it asks for (and the whole-image numbers it wants) run here after it, in order. */
void panels_build(struct viewer *v);

/* Whether framebuffer point (X, Y) is over a panel, a menu or a window of the GUI (not the
 * picture): the picture's mouse controls then stay off. */
bool panels_hovered(const struct viewer *v, double x, double y);

#endif
