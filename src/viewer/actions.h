/* The viewer's one action table (HDRView's registry): every thing a user can do, with its
 * label, group and shortcuts. Key dispatch, the menus, the F1 help, `view --help`, the
 * key table of docs/viewer.md and the man page are all generated from it; panels and menus
 * change the viewer's state only by running actions. */
#ifndef HT_ACTIONS_H
#define HT_ACTIONS_H

#include <stdbool.h>
#include <stdio.h>

struct viewer;
struct session;

typedef enum action_group {
    GROUP_FILE, GROUP_VIEW, GROUP_COMPARE, GROUP_TONE, GROUP_HUMAN, GROUP_ANALYSIS,
    GROUP_SEQUENCE, GROUP_HELP,
    GROUP_COUNT,
    GROUP_HIDDEN = GROUP_COUNT   /* setters the panels run with a value: no menu, no help */
} action_group;

typedef enum action_id {
    /* File */
    ACT_OPEN, ACT_CLOSE, ACT_NEXT_IMAGE, ACT_PREV_IMAGE, ACT_NEXT_NEIGHBOUR,
    ACT_PREV_NEIGHBOUR, ACT_SELECT_NTH, ACT_NEXT_PART, ACT_PREV_PART, ACT_NEXT_LAYER,
    ACT_PREV_LAYER, ACT_RELOAD, ACT_WATCH, ACT_EXPORT, ACT_SESSION_SAVE,
    ACT_COPY_PATH, ACT_QUIT,
    /* View */
    ACT_FIT, ACT_ONE_TO_ONE, ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_PAN_LEFT, ACT_PAN_RIGHT,
    ACT_PAN_UP, ACT_PAN_DOWN, ACT_ADAPT_VIEW, ACT_MSAA, ACT_PANELS, ACT_VIEW_TONEMAP,
    ACT_VIEW_EXPOSURE, ACT_VIEW_FALSECOLOR, ACT_VIEW_CHANNEL, ACT_EXPOSURE_UP,
    ACT_EXPOSURE_DOWN, ACT_LAYOUT, ACT_LAYOUT_SINGLE, ACT_LAYOUT_SIDE, ACT_LAYOUT_GRID,
    /* Compare */
    ACT_REFERENCE, ACT_COMPARE, ACT_WIPE_AXIS, ACT_FLIP,
    /* Tone mapping */
    ACT_RANGE_DOWN, ACT_RANGE_UP, ACT_RANGE_NARROW, ACT_RANGE_WIDEN, ACT_RANGE_FIT,
    ACT_RANGE_AUTO, ACT_LDMAX_UP, ACT_LDMAX_DOWN, ACT_DRANGE_UP, ACT_DRANGE_DOWN,
    ACT_CEILING, ACT_LINEAR, ACT_SAMPLING, ACT_POINTS, ACT_WEIGHTS, ACT_TRANSFER, ACT_BINS_UP,
    ACT_BINS_DOWN, ACT_PCOND,
    /* Human vision */
    ACT_VEIL, ACT_ACUITY, ACT_COLOR_LOSS, ACT_HUMAN,
    /* Analysis */
    ACT_HIST_MODE, ACT_MARKS, ACT_PINS_CLEAR, ACT_REGION_CLEAR,
    /* Sequence */
    ACT_PLAY, ACT_FRAME_PREV, ACT_FRAME_NEXT, ACT_FRAME_FIRST, ACT_FRAME_LAST,
    /* Help */
    ACT_HELP,
    /* Setters (GROUP_HIDDEN): the value comes from the panel */
    ACT_SELECT_IMAGE, ACT_CLOSE_IMAGE, ACT_SET_PART, ACT_SET_LAYER, ACT_SET_LMIN, ACT_SET_LMAX,
    ACT_SET_LDMAX, ACT_SET_DRANGE, ACT_SET_CEILING, ACT_SET_SAMPLING, ACT_SET_WEIGHTS,
    ACT_SET_TRANSFER, ACT_SET_MSAA, ACT_SET_HIST_MODE, ACT_SET_BINS, ACT_OPEN_TYPED,
    ACT_SET_REFERENCE, ACT_SET_COMPARE, ACT_SET_WIPE, ACT_SET_VIEW, ACT_SET_EXPOSURE,
    ACT_SET_OFFSET, ACT_SET_FC_MAX, ACT_SET_FC_DECADES, ACT_SET_FC_STEPS, ACT_SET_FC_STYLE,
    ACT_SET_CHANNEL, ACT_SET_CH_PALETTE, ACT_REGION_DONE, ACT_SET_NEIGHBOUR,
    ACT_SET_PPD, ACT_SET_FLIP_TONEMAPPER, ACT_SET_OCIO_DISPLAY, ACT_SET_OCIO_VIEW,
    ACT_SET_OCIO_LOOK, ACT_SET_OCIO_INPUT, ACT_PIN, ACT_SET_PIN_VALUES,
    ACT_COUNT
} action_id;

enum { ACTION_MAX_KEYS = 9 };

/* What an action runs: a function of the session alone (the switches and setters that change
 * only what is looked at and how: the compiler holds them to it), or of the whole viewer (it
 * also loads or closes files, says a message, reads the renderer's record, the document or
 * the viewport). Exactly one is set. */
typedef struct action_fn {
    void (*viewer)(struct viewer *v, double arg);
    void (*session)(struct session *s, double arg);
} action_fn;

typedef struct shortcut {
    int key, mods;   /* GLFW key and modifier bits; key 0 ends the list */
} shortcut;

typedef struct action {
    const char *id;        /* stable name: "view.fit" */
    const char *label;     /* the help and the menus' tooltips: "Fit the image to the
                              viewport"; a menu entry is its text before the first " (" or
                              ": " (action_menu_label); Markdown: `code` in backticks */
    action_group group;
    shortcut keys[ACTION_MAX_KEYS];
    action_fn run;
    double arg;            /* passed to run by keys and menus; setters get the panel's value */
    bool key_index;        /* keys pass the index of the pressed shortcut instead (1..9) */
    bool (*enabled)(const struct viewer *v);   /* NULL: always */
    bool (*checked)(const struct viewer *v);   /* a switch: whether it is on (NULL: none) */
    const char *tev;       /* tev's key for the same action, for its users (NULL: none) */
    bool hold;             /* runs with 1 when its key goes down, 0 when it comes up */
} action;

/* The table entry of ID. */
const action *action_get(action_id id);
/* The group's menu title ("File"). */
const char *action_group_name(action_group g);
/* Whether ID can run now (its enabled test). */
bool action_enabled(const struct viewer *v, action_id id);

/* Runs ID with its table argument (keys, menus, buttons), or with VALUE (setters); nothing
 * when disabled. Marks the window for redrawing. */
void action_run(struct viewer *v, action_id id);
void action_set(struct viewer *v, action_id id, double value);
/* The key dispatch: the action with the shortcut KEY + MODS, run; false when none has it.
 * Where actions share a shortcut the first enabled one in the table runs (Backspace: the pins,
 * then the region). A key that comes up ends a held action (action_key_up). */
bool action_key(struct viewer *v, int key, int mods);
void action_key_up(struct viewer *v, int key);

/* ID's menu entry: its label's text before the first " (" or ": " ("Export PNG"). */
void action_menu_label(action_id id, char *buf, size_t len);
/* ID's label as plain text (the Markdown backticks left out), for the help and tooltips. */
void action_plain_label(action_id id, char *buf, size_t len);

/* The shortcuts of ID as the help shows them ("F, Ctrl+0"), "" when none. */
void action_keys_text(action_id id, char *buf, size_t len);
/* The key table as text lines (`view --help`), grouped, and as Markdown (docs/viewer.md;
 * hdrtone --help-keys-markdown). */
void actions_print(FILE *f);
void actions_print_markdown(FILE *f);
/* tev's keys beside hdrtone's for the actions both have, as Markdown (docs/viewer.md; hdrtone
 * --help-tev-markdown). */
void actions_print_tev_markdown(FILE *f);

#endif
