/* What the panels' files share (panels.c, panels_draw.c). */
#ifndef HT_PANELS_INTERNAL_H
#define HT_PANELS_INTERNAL_H

#include <stdbool.h>

#include "ht_enum.h"
#include "ui.h"

struct viewer;

/* Text colours on the panels' grey (#2B2B2E), each at 4.5:1 or more. */
#define PANELS_RED nk_rgb(255, 130, 120)     /* 6.0:1 */
#define PANELS_GREEN nk_rgb(130, 225, 140)   /* 9.6:1 */
#define PANELS_DIM nk_rgb(168, 168, 168)     /* 6.3:1 */

/* A typed-value field's text while it is edited (immediate mode keeps no state). */
typedef struct typed_field {
    char text[32];
    int len;
    bool editing;   /* the field held the keyboard last frame */
} typed_field;

/* A value on a log10 slider from LO to HI with a typed field F beside it (Enter applies);
 * the chosen value, or NAN when neither changed it. */
double panels_log_slider(struct viewer *v, struct nk_context *ctx, const char *name,
                         double value, double lo, double hi, typed_field *f);
/* A combo of TABLE's labels with VALUE chosen; a choice runs the setter SET with its value. */
void panels_enum_combo(struct viewer *v, struct nk_context *ctx, const char *name,
                       const ht_enum *table, int value, int set);
/* A checkbox showing action ID's state; a click runs it. */
void panels_toggle(struct viewer *v, struct nk_context *ctx, int id, const char *name);

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

/* panels_display.c: the display mode's section of the dock; the false-colour legend (drawn
 * left of the picture, in the room panels_legend_width keeps there: 0 in other modes). */
void panels_display(struct viewer *v, struct nk_context *ctx);
void panels_legend(struct viewer *v, struct nk_context *ctx, struct nk_command_buffer *cb);
int panels_legend_width(const struct viewer *v);
/* The comparison's settings (FLIP's viewing conditions, HDR-FLIP's tone mapper) and numbers
 * of the picture shown and of the region, with FLIP's weighted histogram. */
void panels_compare_numbers(struct viewer *v, struct nk_context *ctx);
/* The Region section: the dragged rectangle's statistics, or how to drag one. */
void panels_region(struct viewer *v, struct nk_context *ctx);
void panels_region_text(const struct viewer *v, char *buf, size_t len);
/* HT_TEST_LAYOUT: TEXT's lines under NAME ("NAME: line"), for the window tests. */
void panels_note_text(const char *name, const char *text);

#endif
