/* The numeric settings as data (after mpv's typed option table): each row gives a setting's
 * name (its command-line option --NAME and its key in saved sessions), whether it is an
 * integer, its limits, its default (which options_default, tonemap_params_default and
 * display_params_default take from here), the span and scale of the viewer's slider, the step of its keys and
 * its label and tooltip in the viewer. The option parser (src/app/options.c) refuses values
 * outside the limits and the viewer's setters (src/viewer/viewer_act.c) clamp to them; no
 * other file writes a limit of these settings. Enumerated settings are ht_enum tables. */
#ifndef HT_SETTINGS_H
#define HT_SETTINGS_H

#include <stdbool.h>

#include "ht_enum.h"

typedef enum {
    HT_SET_NONE = 0,   /* an option that is no setting of this table */
    HT_SET_BINS,
    HT_SET_LMIN,
    HT_SET_LMAX,
    HT_SET_LDMAX,
    HT_SET_DRANGE,
    HT_SET_FOV,
    HT_SET_EXPOSURE,
    HT_SET_OFFSET,
    HT_SET_FC_MAX,
    HT_SET_FC_LOG,
    HT_SET_FC_STEPS,
    HT_SET_PPD,
    HT_SET_MSAA,
    HT_SET_UI_SCALE,
    HT_SET_COUNT
} ht_setting_id;

typedef struct ht_setting {
    const char *name;          /* --NAME; the session file's key */
    bool integer;
    double min, max;           /* the limits: refused beyond (CLI), clamped to (viewer) */
    double def;                /* the default; 0 for lmin, lmax and ppd, outside their
                                  limits: automatic (the range measured; FLIP's observer) */
    double span_lo, span_hi;   /* the viewer slider's span, within the limits */
    bool log;                  /* the slider moves in log10 of the value */
    double step;               /* a key press's change (EV, count); 0: no key steps it */
    const char *label;         /* the viewer's name for it */
    const char *tooltip;       /* the viewer's hint */
} ht_setting;

/* The viewer's layout (--layout, the View menu, J, the session): one picture (the wipe and
 * the error maps show there), the shown image beside the reference (else beside the next
 * open image), or a grid of the open images, at most HT_GRID_MAX (a page of the list); pan,
 * zoom and the display settings are the same in every tile. */
enum { HT_LAYOUT_SINGLE, HT_LAYOUT_SIDE, HT_LAYOUT_GRID };
enum { HT_GRID_MAX = 9 };
extern const ht_enum ht_layouts[];

/* Indexed by ht_setting_id; row HT_SET_NONE is empty. */
extern const ht_setting ht_settings[HT_SET_COUNT];

/* X clamped to the limits of setting ID (rounded to an integer for integer settings); NaN
 * becomes the lower limit. */
double ht_setting_clamp(ht_setting_id id, double x);

/* Whether X lies within ID's limits (an integer where ID takes integers). */
bool ht_setting_valid(ht_setting_id id, double x);

#endif
