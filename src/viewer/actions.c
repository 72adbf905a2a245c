/* THE action table (actions.h) and what is generated from it: key dispatch, the help lines,
 * `view --help`, docs/viewer.md's key table. Conventions: tev's keys where hdrtone has the same
 * action and the key is free (Ctrl+O, Ctrl+W, Ctrl+C, Up/Down for images, 1-9, F, H for help);
 * pfsview's for the range (, . [ ] \); a lower-case letter raises a value and Shift+letter
 * lowers it (tev); where a letter is no value's, Shift+letter is a switch of its own: Shift+P
 * the pcond preset, Shift+V, A, C, H pcond's Veil, Acuity, Colour loss and all (Human). */
#include "actions.h"

#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "keynames.h"
#include "viewer_act.h"
#include "viewer_internal.h"

#define SHIFT GLFW_MOD_SHIFT
#define CTRL GLFW_MOD_CONTROL

static bool has_image(const viewer *v) { return v->doc.have_image; }
static bool has_files(const viewer *v) { return v->doc.list.nfiles > 0; }
static bool has_several(const viewer *v) { return v->doc.list.nfiles > 1; }
static bool has_parts(const viewer *v) { return v->doc.part_count > 1; }
static bool has_seq(const viewer *v) { return v->seq != NULL; }
static bool has_layers(const viewer *v)
{
    char names[VIEWER_MAX_LAYERS][64];
    return viewer_layer_names(v, names, VIEWER_MAX_LAYERS) > 1;
}
static bool on_adapt(const viewer *v) { return v->s.adapt_view; }
static bool on_linear(const viewer *v) { return v->s.tm.force_linear; }
static bool on_points(const viewer *v) { return v->s.tm.point_samples; }
static bool on_pcond(const viewer *v) { return v->s.tm.pcond; }
static bool on_veil(const viewer *v) { return v->s.tm.veil; }
static bool on_acuity(const viewer *v) { return v->s.tm.acuity; }
static bool on_color(const viewer *v) { return v->s.tm.color_loss; }
static bool on_human(const viewer *v)
{
    return v->s.tm.veil && v->s.tm.acuity && v->s.tm.color_loss;
}
static bool on_marks(const viewer *v) { return v->s.show_marks; }
static bool on_watch(const viewer *v) { return v->watching; }
static bool on_panels(const viewer *v) { return v->s.show_panels; }
static bool on_help(const viewer *v) { return v->s.show_help; }
static bool has_ref(const viewer *v) { return v->s.ref >= 0; }
static bool has_region(const viewer *v) { return v->doc.region_valid; }
static bool has_pins(const viewer *v) { return v->s.npins > 0; }
static bool on_tonemap(const viewer *v) { return v->s.disp.mode == HT_VIEW_TONEMAP; }
static bool on_exposure(const viewer *v) { return v->s.disp.mode == HT_VIEW_EXPOSURE; }
static bool on_falsecolor(const viewer *v) { return v->s.disp.mode == HT_VIEW_FALSECOLOR; }
static bool on_channel(const viewer *v) { return v->s.disp.mode == HT_VIEW_CHANNEL; }
static bool on_ref(const viewer *v) { return v->s.ref >= 0 && v->s.ref == v->doc.list.cur; }
static bool on_wipe_h(const viewer *v) { return v->s.wipe_horizontal; }
static bool on_flip(const viewer *v) { return v->s.flip_held; }
static bool on_single(const viewer *v) { return v->s.layout == HT_LAYOUT_SINGLE; }
static bool on_side(const viewer *v) { return v->s.layout == HT_LAYOUT_SIDE; }
static bool on_grid(const viewer *v) { return v->s.layout == HT_LAYOUT_GRID; }

#define K(k) {GLFW_KEY_##k, 0}
#define KS(k) {GLFW_KEY_##k, SHIFT}
#define KC(k) {GLFW_KEY_##k, CTRL}
#define V(f) {f, NULL}   /* runs on the whole viewer */
#define S(f) {NULL, f}   /* runs on the session alone */

static const action ACTIONS[ACT_COUNT] = {
    [ACT_OPEN] = {"file.open", "Open a file or folder (type its path; or drop files)",
                  GROUP_FILE, {KC(O)}, S(act_open), 0, false, NULL, NULL, "Ctrl+O"},
    [ACT_CLOSE] = {"file.close", "Close the image", GROUP_FILE, {KC(W)}, V(act_close), 0, false,
                   has_files, NULL, "Ctrl+W"},
    [ACT_NEXT_IMAGE] = {"file.next", "Next image", GROUP_FILE, {K(DOWN), K(PAGE_DOWN), K(N)},
                        V(act_file), +1, false, has_several, NULL, "Down, S"},
    [ACT_PREV_IMAGE] = {"file.previous", "Previous image", GROUP_FILE,
                        {K(UP), K(PAGE_UP), K(P)}, V(act_file), -1, false, has_several, NULL,
                        "Up, W"},
    [ACT_NEXT_NEIGHBOUR] = {"file.next_neighbour", "Next file of the image's folder",
                            GROUP_FILE, {KC(PAGE_DOWN)}, V(act_neighbour), +1, false, has_files,
                            NULL},
    [ACT_PREV_NEIGHBOUR] = {"file.previous_neighbour", "Previous file of the image's folder",
                            GROUP_FILE, {KC(PAGE_UP)}, V(act_neighbour), -1, false, has_files,
                            NULL},
    [ACT_SELECT_NTH] = {"file.select", "Image 1-9 of the list", GROUP_FILE,
                        {K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9)}, V(act_select_image),
                        0, true, has_files, NULL, "1-9"},
    [ACT_NEXT_PART] = {"file.next_part", "Next part of a multi-part EXR", GROUP_FILE, {K(E)},
                       V(act_part), +1, false, has_parts, NULL},
    [ACT_PREV_PART] = {"file.previous_part", "Previous part", GROUP_FILE, {KS(E)}, V(act_part),
                       -1, false, has_parts, NULL},
    [ACT_NEXT_LAYER] = {"file.next_layer", "Next layer (channel-name prefix)", GROUP_FILE,
                        {K(Y)}, V(act_layer), +1, false, has_layers, NULL},
    [ACT_PREV_LAYER] = {"file.previous_layer", "Previous layer", GROUP_FILE, {KS(Y)},
                        V(act_layer), -1, false, has_layers, NULL},
    [ACT_RELOAD] = {"file.reload", "Reload the file", GROUP_FILE, {K(R), KC(R)}, V(act_reload), 0,
                    false, has_files, NULL, "Ctrl+R"},
    [ACT_WATCH] = {"file.watch", "Watch the file: reload it when it changes (--watch)",
                   GROUP_FILE, {K(U)}, V(act_watch), 0, false, has_files, on_watch},
    [ACT_EXPORT] = {"file.export",
                    "Export (as `hdrtone export` does: PNG, or the file --hdr and --format "
                    "ask for) to ./NAME_tonemapped.EXT",
                    GROUP_FILE, {K(S), KC(S)}, V(act_export), 0, false, has_image, NULL, "Ctrl+S"},
    [ACT_SESSION_SAVE] = {"file.save_session",
                          "Save session (images, settings, view) to --session's file",
                          GROUP_FILE, {{GLFW_KEY_S, CTRL | SHIFT}}, V(act_session_save), 0, false,
                          has_files, NULL, "Ctrl+Shift+S"},
    [ACT_COPY_PATH] = {"file.copy_path", "Copy the image's path", GROUP_FILE, {KC(C)},
                       V(act_copy_path), 0, false, has_files, NULL, "Ctrl+C (copies the image)"},
    [ACT_QUIT] = {"file.quit", "Quit (Esc first closes a menu, the help or the open box)",
                  GROUP_FILE,
                  {K(ESCAPE), K(Q), KC(Q)}, V(act_quit), 1, false, NULL, NULL, "Ctrl+Q"},

    [ACT_FIT] = {"view.fit", "Fit the image to the viewport", GROUP_VIEW, {K(F)}, V(act_fit), 0,
                 false, has_image, NULL, "F"},
    [ACT_ONE_TO_ONE] = {"view.one_to_one", "Zoom 1:1 (one image pixel per screen pixel)",
                        GROUP_VIEW, {KC(0), K(0)}, S(act_one), 0, false, has_image, NULL},
    [ACT_ZOOM_IN] = {"view.zoom_in", "Zoom in (also the mouse wheel, at the cursor)",
                     GROUP_VIEW, {K(EQUAL), KS(EQUAL), K(KP_ADD)}, V(act_zoom), +1, false,
                     has_image, NULL, "+"},
    [ACT_ZOOM_OUT] = {"view.zoom_out", "Zoom out", GROUP_VIEW, {K(MINUS), K(KP_SUBTRACT)},
                      V(act_zoom), -1, false, has_image, NULL, "-"},
    [ACT_PAN_LEFT] = {"view.pan_left", "Pan left (also: drag with the left button)",
                      GROUP_VIEW, {K(LEFT), KS(LEFT)}, S(act_pan), 2, false, has_image, NULL},
    [ACT_PAN_RIGHT] = {"view.pan_right", "Pan right", GROUP_VIEW, {K(RIGHT), KS(RIGHT)},
                       S(act_pan), 1, false, has_image, NULL},
    [ACT_PAN_UP] = {"view.pan_up", "Pan up", GROUP_VIEW, {KS(UP)}, S(act_pan), 4, false,
                    has_image, NULL},
    [ACT_PAN_DOWN] = {"view.pan_down", "Pan down", GROUP_VIEW, {KS(DOWN)}, S(act_pan), 3, false,
                      has_image, NULL},
    [ACT_ADAPT_VIEW] = {"view.adapt", "Adapt to what is in view (else the whole image)",
                        GROUP_VIEW, {K(V)}, S(act_adapt), 0, false, NULL, on_adapt},
    [ACT_MSAA] = {"view.msaa", "MSAA: 1, 2, 4, 8 samples (as the GPU allows)", GROUP_VIEW,
                  {K(M)}, V(act_msaa), 0, false, has_image, NULL},
    [ACT_PANELS] = {"view.panels", "Show / hide the panels", GROUP_VIEW, {KC(H), K(F2)},
                    S(act_panels), 0, false, NULL, on_panels},

    [ACT_REFERENCE] = {"compare.reference",
                       "Make the shown image the reference (again: none; Shift+click in the list)",
                       GROUP_COMPARE, {KS(R)}, V(act_reference), 0, false, has_files, on_ref},
    [ACT_COMPARE] = {"compare.mode",
                     "Comparison: off / wipe / difference / abs. / squared / rel. error / "
                     "LDR-FLIP / HDR-FLIP", GROUP_COMPARE,
                     {K(T)}, S(act_compare), 0, false, has_ref, NULL},
    [ACT_WIPE_AXIS] = {"compare.wipe_axis", "Wipe divider: vertical / horizontal",
                       GROUP_COMPARE, {KS(T)}, S(act_wipe_axis), 0, false, has_ref, on_wipe_h},
    [ACT_FLIP] = {"compare.flip", "Show the reference while the key is held", GROUP_COMPARE,
                  {K(Z)}, S(act_flip), 1, false, has_ref, on_flip, NULL, true},

    [ACT_VIEW_TONEMAP] = {"view.tonemap", "Show the tone-mapped image (the operator)",
                          GROUP_VIEW, {KC(1)}, S(act_set_view), HT_VIEW_TONEMAP, false, NULL,
                          on_tonemap},
    [ACT_VIEW_EXPOSURE] = {"view.exposure",
                           "Show the plain exposure (stops, offset, sRGB; no tone mapping)",
                           GROUP_VIEW, {KC(2)}, S(act_set_view), HT_VIEW_EXPOSURE, false, NULL,
                           on_exposure},
    [ACT_VIEW_FALSECOLOR] = {"view.falsecolor",
                             "Show false colour of luminance in cd/m2 (Radiance falsecolor)",
                             GROUP_VIEW, {KC(3)}, S(act_set_view), HT_VIEW_FALSECOLOR, false, NULL,
                             on_falsecolor},
    [ACT_VIEW_CHANNEL] = {"view.channel",
                          "Show one channel alone (again: the next channel: R G B A Y)",
                          GROUP_VIEW, {KC(4)}, S(act_view_channel), 0, false, NULL, on_channel},
    [ACT_EXPOSURE_UP] = {"view.exposure_up", "Exposure up (half a stop; the exposure view)",
                         GROUP_VIEW, {KC(E)}, S(act_exposure), +1, false, on_exposure, NULL,
                         "E"},
    [ACT_EXPOSURE_DOWN] = {"view.exposure_down", "Exposure down", GROUP_VIEW,
                           {{GLFW_KEY_E, CTRL | SHIFT}}, S(act_exposure), -1, false,
                           on_exposure, NULL, "Shift+E"},
    [ACT_LAYOUT] = {"view.layout", "Next layout (single, side by side, grid; --layout)",
                    GROUP_VIEW, {K(J)}, S(act_layout), -1, false, NULL, NULL},
    [ACT_LAYOUT_SINGLE] = {"view.layout_single", "Single picture (the wipe, the error maps)",
                           GROUP_VIEW, {{0}}, S(act_layout), HT_LAYOUT_SINGLE, false, NULL,
                           on_single},
    [ACT_LAYOUT_SIDE] = {"view.layout_side",
                         "Side by side (the image and the reference, else the next image)",
                         GROUP_VIEW, {{0}}, S(act_layout), HT_LAYOUT_SIDE, false, NULL, on_side},
    [ACT_LAYOUT_GRID] = {"view.layout_grid", "Grid of the open images (9 at most)", GROUP_VIEW,
                         {{0}}, S(act_layout), HT_LAYOUT_GRID, false, NULL, on_grid},

    [ACT_RANGE_DOWN] = {"tone.range_down", "Luminance range down (1/4 decade)", GROUP_TONE,
                        {K(COMMA)}, V(act_range), -1, false, has_image, NULL},
    [ACT_RANGE_UP] = {"tone.range_up", "Luminance range up (1/4 decade)", GROUP_TONE,
                      {K(PERIOD)}, V(act_range), +1, false, has_image, NULL},
    [ACT_RANGE_NARROW] = {"tone.range_narrow", "Narrow the luminance range", GROUP_TONE,
                          {K(LEFT_BRACKET)}, V(act_range), -2, false, has_image, NULL},
    [ACT_RANGE_WIDEN] = {"tone.range_widen", "Widen the luminance range", GROUP_TONE,
                         {K(RIGHT_BRACKET)}, V(act_range), +2, false, has_image, NULL},
    [ACT_RANGE_FIT] = {"tone.range_fit", "Fit the luminance range to the image", GROUP_TONE,
                       {K(BACKSLASH)}, V(act_range_fit), 0, false, has_image, NULL},
    [ACT_RANGE_AUTO] = {"tone.range_auto", "Automatic luminance range", GROUP_TONE, {K(A)},
                        S(act_range_auto), 0, false, NULL, NULL},
    [ACT_LDMAX_UP] = {"tone.ldmax_up", "Display maximum Ldmax up (half a stop)", GROUP_TONE,
                      {K(L)}, S(act_ldmax), +1, false, NULL, NULL},
    [ACT_LDMAX_DOWN] = {"tone.ldmax_down", "Display maximum Ldmax down", GROUP_TONE, {KS(L)},
                        S(act_ldmax), -1, false, NULL, NULL},
    [ACT_DRANGE_UP] = {"tone.drange_up", "Display dynamic range up (half a stop)", GROUP_TONE,
                       {K(D)}, S(act_drange), +1, false, NULL, NULL},
    [ACT_DRANGE_DOWN] = {"tone.drange_down", "Display dynamic range down", GROUP_TONE,
                         {KS(D)}, S(act_drange), -1, false, NULL, NULL},
    [ACT_CEILING] = {"tone.ceiling", "Ceiling: linear / human / none", GROUP_TONE, {K(C)},
                     S(act_ceiling), 0, false, NULL, NULL},
    [ACT_LINEAR] = {"tone.linear", "Force the linear mapping (pcond -l)", GROUP_TONE, {K(K)},
                    S(act_linear), 0, false, NULL, on_linear},
    [ACT_SAMPLING] = {"tone.sampling",
                      "Histogram samples: every pixel / foveal (1 per degree)", GROUP_TONE,
                      {K(O)}, S(act_sampling), 0, false, NULL, NULL},
    [ACT_POINTS] = {"tone.points", "pcond point samples (with foveal sampling)", GROUP_TONE,
                    {K(I)}, V(act_points), 0, false, NULL, on_points},
    [ACT_WEIGHTS] = {"tone.weights", "Luminance weights: Rec. 709 / Radiance", GROUP_TONE,
                     {K(W)}, V(act_weights), 0, false, NULL, NULL},
    [ACT_TRANSFER] = {"tone.transfer", "Display transfer: sRGB / gamma", GROUP_TONE, {K(G)},
                      S(act_transfer), 0, false, NULL, NULL},
    [ACT_BINS_UP] = {"tone.bins_up", "Histogram bins x2", GROUP_TONE, {K(B)}, S(act_bins), +1,
                     false, NULL, NULL},
    [ACT_BINS_DOWN] = {"tone.bins_down", "Histogram bins /2", GROUP_TONE, {KS(B)}, S(act_bins),
                       -1, false, NULL, NULL},
    [ACT_PCOND] = {"tone.pcond", "pcond preset / default settings", GROUP_TONE, {KS(P)},
                   V(act_pcond), 0, false, NULL, on_pcond},

    [ACT_VEIL] = {"human.veil", "Veiling glare (--veil, pcond -v)", GROUP_HUMAN, {KS(V)},
                  S(act_human), 0, false, NULL, on_veil},
    [ACT_ACUITY] = {"human.acuity", "Loss of acuity (--acuity, pcond -a)", GROUP_HUMAN,
                    {KS(A)}, S(act_human), 1, false, NULL, on_acuity},
    [ACT_COLOR_LOSS] = {"human.color", "Loss of colour (--color-loss, pcond -c)", GROUP_HUMAN,
                        {KS(C)}, S(act_human), 2, false, NULL, on_color},
    [ACT_HUMAN] = {"human.all",
                   "Human vision (--human): the three and the human ceiling / the three off",
                   GROUP_HUMAN, {KS(H)}, S(act_human_all), 0, false, NULL, on_human},

    [ACT_HIST_MODE] = {"analysis.histogram",
                       "Histogram panel: log-luminance + curve / RGBA / grey", GROUP_ANALYSIS,
                       {K(TAB)}, S(act_hist_mode), 0, false, NULL, NULL},
    [ACT_MARKS] = {"analysis.marks", "Mark the brightest pixel and peaks (--peaks)",
                   GROUP_ANALYSIS, {K(X)}, S(act_marks), 0, false, has_image, on_marks},

    [ACT_PINS_CLEAR] = {"analysis.pins_clear",
                        "Clear the pinned pixels (Ctrl+click on the picture pins one; "
                        "Backspace again then clears the region)",
                        GROUP_ANALYSIS, {K(BACKSPACE)}, V(act_pins_clear), 0, false, has_pins,
                        NULL},
    [ACT_REGION_CLEAR] = {"analysis.region_clear",
                          "Clear the region (Shift+drag on the picture selects one)",
                          GROUP_ANALYSIS, {K(BACKSPACE)}, V(act_region_clear), 0, false, has_region,
                          NULL},

    [ACT_PLAY] = {"sequence.play", "Play / pause (hdrtone shot.%04d.exr)", GROUP_SEQUENCE,
                  {K(SPACE)}, V(act_seq), 0, false, has_seq, NULL},
    [ACT_FRAME_PREV] = {"sequence.previous", "Previous frame", GROUP_SEQUENCE, {KC(LEFT)},
                        V(act_seq), -1, false, has_seq, NULL},
    [ACT_FRAME_NEXT] = {"sequence.next", "Next frame", GROUP_SEQUENCE, {KC(RIGHT)}, V(act_seq),
                        +1, false, has_seq, NULL},
    [ACT_FRAME_FIRST] = {"sequence.first", "First frame", GROUP_SEQUENCE, {K(HOME)}, V(act_seq),
                         -2, false, has_seq, NULL},
    [ACT_FRAME_LAST] = {"sequence.last", "Last frame", GROUP_SEQUENCE, {K(END)}, V(act_seq), +2,
                        false, has_seq, NULL},

    [ACT_HELP] = {"help.keys", "Help: every action and its keys (searchable)", GROUP_HELP,
                  {K(F1), K(H), KS(SLASH)}, V(act_help), 0, false, NULL, on_help, "H"},

    [ACT_SELECT_IMAGE] = {"set.image", NULL, GROUP_HIDDEN, {{0}}, V(act_select_image), 0},
    [ACT_CLOSE_IMAGE] = {"set.close", NULL, GROUP_HIDDEN, {{0}}, V(act_close_image), 0},
    [ACT_SET_PART] = {"set.part", NULL, GROUP_HIDDEN, {{0}}, V(act_set_part), 0},
    [ACT_SET_LAYER] = {"set.layer", NULL, GROUP_HIDDEN, {{0}}, V(act_set_layer), 0},
    [ACT_SET_LMIN] = {"set.lmin", NULL, GROUP_HIDDEN, {{0}}, S(act_set_lmin), 0},
    [ACT_SET_LMAX] = {"set.lmax", NULL, GROUP_HIDDEN, {{0}}, S(act_set_lmax), 0},
    [ACT_SET_LDMAX] = {"set.ldmax", NULL, GROUP_HIDDEN, {{0}}, S(act_set_ldmax), 0},
    [ACT_SET_DRANGE] = {"set.drange", NULL, GROUP_HIDDEN, {{0}}, S(act_set_drange), 0},
    [ACT_SET_CEILING] = {"set.ceiling", NULL, GROUP_HIDDEN, {{0}}, S(act_set_ceiling), 0},
    [ACT_SET_SAMPLING] = {"set.sampling", NULL, GROUP_HIDDEN, {{0}}, S(act_set_sampling), 0},
    [ACT_SET_WEIGHTS] = {"set.weights", NULL, GROUP_HIDDEN, {{0}}, V(act_set_weights), 0},
    [ACT_SET_TRANSFER] = {"set.transfer", NULL, GROUP_HIDDEN, {{0}}, S(act_set_transfer), 0},
    [ACT_SET_MSAA] = {"set.msaa", NULL, GROUP_HIDDEN, {{0}}, S(act_set_msaa), 0},
    [ACT_SET_HIST_MODE] = {"set.hist_mode", NULL, GROUP_HIDDEN, {{0}}, S(act_set_hist_mode), 0},
    [ACT_SET_BINS] = {"set.bins", NULL, GROUP_HIDDEN, {{0}}, S(act_set_bins), 0},
    [ACT_OPEN_TYPED] = {"set.open", NULL, GROUP_HIDDEN, {{0}}, V(act_open_typed), 0},
    [ACT_SET_REFERENCE] = {"set.reference", NULL, GROUP_HIDDEN, {{0}}, V(act_set_reference), 0},
    [ACT_SET_COMPARE] = {"set.compare", NULL, GROUP_HIDDEN, {{0}}, S(act_set_compare), 0},
    [ACT_SET_WIPE] = {"set.wipe", NULL, GROUP_HIDDEN, {{0}}, S(act_set_wipe), 0},
    [ACT_SET_VIEW] = {"set.view", NULL, GROUP_HIDDEN, {{0}}, S(act_set_view), 0},
    [ACT_SET_EXPOSURE] = {"set.exposure", NULL, GROUP_HIDDEN, {{0}}, S(act_set_exposure), 0},
    [ACT_SET_OFFSET] = {"set.offset", NULL, GROUP_HIDDEN, {{0}}, S(act_set_offset), 0},
    [ACT_SET_FC_MAX] = {"set.fc_max", NULL, GROUP_HIDDEN, {{0}}, S(act_set_fc_max), 0},
    [ACT_SET_FC_DECADES] = {"set.fc_decades", NULL, GROUP_HIDDEN, {{0}}, S(act_set_fc_decades), 0},
    [ACT_SET_FC_STEPS] = {"set.fc_steps", NULL, GROUP_HIDDEN, {{0}}, S(act_set_fc_steps), 0},
    [ACT_SET_FC_STYLE] = {"set.fc_style", NULL, GROUP_HIDDEN, {{0}}, S(act_set_fc_style), 0},
    [ACT_SET_CHANNEL] = {"set.channel", NULL, GROUP_HIDDEN, {{0}}, S(act_set_channel), 0},
    [ACT_SET_CH_PALETTE] = {"set.ch_palette", NULL, GROUP_HIDDEN, {{0}}, S(act_set_ch_palette), 0},
    [ACT_REGION_DONE] = {"set.region", NULL, GROUP_HIDDEN, {{0}}, V(act_region_done), 0},
    [ACT_SET_NEIGHBOUR] = {"set.neighbour", NULL, GROUP_HIDDEN, {{0}}, V(act_neighbour), 0},
    [ACT_SET_PPD] = {"set.ppd", NULL, GROUP_HIDDEN, {{0}}, S(act_set_ppd), 0},
    [ACT_SET_FLIP_TONEMAPPER] = {"set.flip_tonemapper", NULL, GROUP_HIDDEN, {{0}},
                                 V(act_set_flip_tonemapper), 0},
    [ACT_SET_OCIO_DISPLAY] = {"set.ocio_display", NULL, GROUP_HIDDEN, {{0}},
                              V(act_set_ocio_display), 0},
    [ACT_SET_OCIO_VIEW] = {"set.ocio_view", NULL, GROUP_HIDDEN, {{0}}, V(act_set_ocio_view), 0},
    [ACT_SET_OCIO_LOOK] = {"set.ocio_look", NULL, GROUP_HIDDEN, {{0}}, V(act_set_ocio_look), 0},
    [ACT_SET_OCIO_INPUT] = {"set.ocio_input", NULL, GROUP_HIDDEN, {{0}}, V(act_set_ocio_input), 0},
    [ACT_PIN] = {"set.pin", NULL, GROUP_HIDDEN, {{0}}, V(act_pin), 0, false, has_image},
    [ACT_SET_PIN_VALUES] = {"set.pin_values", NULL, GROUP_HIDDEN, {{0}}, S(act_set_pin_values), 0},
};

/* Every entry filled: a new id without its row fails here, not at run time. */
static bool table_complete(void)
{
    for (int i = 0; i < ACT_COUNT; i++)
        if (!ACTIONS[i].id || !ACTIONS[i].run.viewer == !ACTIONS[i].run.session)
            return false;
    return true;
}

const action *action_get(action_id id) { return &ACTIONS[id]; }

const char *action_group_name(action_group g)
{
    static const char *const names[GROUP_COUNT] = {"File", "View", "Compare", "Tone",
                                                   "Human vision", "Analysis", "Sequence",
                                                   "Help"};
    return g < GROUP_COUNT ? names[g] : "";
}

void action_menu_label(action_id id, char *buf, size_t len)
{
    const char *l = ACTIONS[id].label ? ACTIONS[id].label : "";
    size_t n = strlen(l);
    const char *ends[] = {strstr(l, " ("), strstr(l, ": ")};
    for (int i = 0; i < 2; i++)
        if (ends[i] && (size_t)(ends[i] - l) < n)
            n = (size_t)(ends[i] - l);
    snprintf(buf, len, "%.*s", (int)n, l);
}

void action_plain_label(action_id id, char *buf, size_t len)
{
    size_t n = 0;
    for (const char *l = ACTIONS[id].label ? ACTIONS[id].label : ""; *l && n + 1 < len; l++)
        if (*l != '`')
            buf[n++] = *l;
    if (len)
        buf[n] = '\0';
}

bool action_enabled(const viewer *v, action_id id)
{
    return !ACTIONS[id].enabled || ACTIONS[id].enabled(v);
}

/* Runs A's function with ARG on the part it takes. */
static void call(const action *a, viewer *v, double arg)
{
    if (a->run.session)
        a->run.session(&v->s, arg);
    else
        a->run.viewer(v, arg);
}

static void run_with(viewer *v, action_id id, double arg)
{
    if (!action_enabled(v, id))
        return;
    call(&ACTIONS[id], v, arg);
    v->dirty = true;
}

void action_run(viewer *v, action_id id) { run_with(v, id, ACTIONS[id].arg); }
void action_set(viewer *v, action_id id, double value) { run_with(v, id, value); }

bool action_key(viewer *v, int key, int mods)
{
    mods &= GLFW_MOD_SHIFT | GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER;
    bool bound = false;   /* a key that two actions share runs the first that can run */
    for (int i = 0; i < ACT_COUNT; i++)
        for (int k = 0; k < ACTION_MAX_KEYS && ACTIONS[i].keys[k].key; k++)
            if (ACTIONS[i].keys[k].key == key && ACTIONS[i].keys[k].mods == mods) {
                bound = true;
                if (!action_enabled(v, (action_id)i))
                    break;
                run_with(v, (action_id)i, ACTIONS[i].key_index ? k : ACTIONS[i].arg);
                return true;
            }
    return bound;
}

void action_key_up(viewer *v, int key)
{
    for (int i = 0; i < ACT_COUNT; i++)
        for (int k = 0; ACTIONS[i].hold && k < ACTION_MAX_KEYS && ACTIONS[i].keys[k].key; k++)
            if (ACTIONS[i].keys[k].key == key) {   /* a release always ends the hold */
                call(&ACTIONS[i], v, 0);
                v->dirty = true;
            }
}

void action_keys_text(action_id id, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    const action *a = &ACTIONS[id];
    for (int k = 0; k < ACTION_MAX_KEYS && a->keys[k].key && n < len; k++) {
        char name[48];
        keys_show(a->keys[k].key, a->keys[k].mods, name, sizeof name);
        n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? ", " : "", name);
    }
}

void actions_print(FILE *f)
{
    if (!table_complete())
        fputs("  (the action table has an empty row)\n", f);
    for (int g = 0; g < GROUP_COUNT; g++) {
        fprintf(f, "  %s\n", action_group_name((action_group)g));
        for (int i = 0; i < ACT_COUNT; i++) {
            if (ACTIONS[i].group != (action_group)g)
                continue;
            char keys[160];
            action_keys_text((action_id)i, keys, sizeof keys);
            fprintf(f, "    %-24s %s\n", keys, ACTIONS[i].label);
        }
    }
}

void actions_print_tev_markdown(FILE *f)
{
    fprintf(f, "| action | tev | hdrtone |\n|---|---|---|\n");
    for (int i = 0; i < ACT_COUNT; i++) {
        if (!ACTIONS[i].tev)
            continue;
        char keys[160];
        action_keys_text((action_id)i, keys, sizeof keys);
        fprintf(f, "| %s | %s | %s |\n", ACTIONS[i].label, ACTIONS[i].tev, keys);
    }
}

/* S into a Markdown table cell: '|' escaped. */
static void md_cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

void actions_print_markdown(FILE *f)
{
    fprintf(f, "| group | keys | action |\n|---|---|---|\n");
    for (int g = 0; g < GROUP_COUNT; g++)
        for (int i = 0; i < ACT_COUNT; i++) {
            const action *a = &ACTIONS[i];
            if (a->group != (action_group)g)
                continue;
            fprintf(f, "| %s | ", action_group_name(a->group));
            for (int k = 0; k < ACTION_MAX_KEYS && a->keys[k].key; k++) {
                char name[48];
                keys_show(a->keys[k].key, a->keys[k].mods, name, sizeof name);
                fprintf(f, "%s`", k ? " " : "");
                md_cell(f, name);
                fputc('`', f);
            }
            fputs(" | ", f);
            md_cell(f, a->label);
            fputs(" |\n", f);
        }
}
