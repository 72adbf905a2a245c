/* What the panels' files share (panels.c, panels_draw.c). */
#ifndef HT_PANELS_INTERNAL_H
#define HT_PANELS_INTERNAL_H

#include <stdbool.h>

#include "ui.h"

struct viewer;

/* Text colours on the panels' grey (#2B2B2E), each at 4.5:1 or more. */
#define PANELS_RED nk_rgb(255, 130, 120)     /* 6.0:1 */
#define PANELS_GREEN nk_rgb(130, 225, 140)   /* 9.6:1 */
#define PANELS_DIM nk_rgb(168, 168, 168)     /* 6.3:1 */

/* The height of one row of text and widgets. */
float panels_row(const struct viewer *v);
/* TEXT as wrapped lines (one row per '\n'-separated line), red when ERROR. */
void panels_text(const struct viewer *v, struct nk_context *ctx, const char *text, bool error);
/* The histogram section: log-luminance histogram and the curve, or the output's RGBA or
 * grey histogram (Tab), with the mode as a combo. */
void panels_histogram(struct viewer *v, struct nk_context *ctx);
/* The help window: every action by group with its keys, and a search field. */
void panels_help(struct viewer *v, struct nk_context *ctx);
/* What is drawn over the picture (no input): the display window's frame, the marks (X), the
 * message of an image that failed to load. */
void panels_canvas(struct viewer *v, struct nk_context *ctx);

#endif
