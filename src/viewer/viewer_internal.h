/* The functions the viewer's files share (viewer.h is the public side; viewer_state.h the
 * state, in parts by owner). The files from the top down: calls go downward, in no circle
 * (`scripts/viewer-deps --levels` prints the exact levels; docs/architecture.md):
 *   loop      viewer.c: the loop and the frame (layout -> renderer -> present -> panels), the
 *             screenshot hook; viewer_bench.c its frame without a window
 *   input     input.c: the window's events routed to the GUI or to the actions, --keys
 *   panels    panels*.cpp (C++, Dear ImGui through ui.cpp; C interfaces panels.h, ui.h):
 *             menu bar, dock, status bar, the histogram, help, marks, pins, tiles' labels;
 *             panels_widgets.cpp the widgets they share
 *   services  viewer_session.c (reads a session; session_save.c writes one), viewer_net.c
 *             (tev's protocol, the hand-off: handoff.c), viewer_watch.c (--watch),
 *             viewer_seq.c (sequences), viewer_export.c (S): they call actions or the document
 *   actions   actions.c (THE action table: keys, menus, help; keynames.c key names),
 *             viewer_act.c, pins.c and display_ocio.c (what the actions do)
 *   text      viewer_status.c: the status lines, the pixel inspector (reads only)
 *   render    tiles.c (the layouts' tiles), compare_view.c (the reference and the error
 *             maps), renderer.c (the frame's passes, the statistics, the frame record),
 *             compare_whole.c (the whole image's numbers, a worker), display_view.c
 *   document  viewer_files.c (opening, stepping, dropping, loading, parts and layers),
 *             load_job.c (a decode on a worker), file_list.c (the list, plain data)
 *   bottom    document.c (the document's queries), view_place.c (the view maths on the
 *             state), messages.c (the message line), platform.c (GLFW: the window, events
 *             to input.c's handlers, the clock), view.c (view maths, no GL), json_read.c */
#ifndef HT_VIEWER_INTERNAL_H
#define HT_VIEWER_INTERNAL_H

#include "viewer_state.h"

/* messages.c: the bottom of the viewer's calls */

/* Sets the message shown in the window (green, or red when ERROR) and prints it on stderr. */
void viewer_set_message(viewer *v, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* view_place.c: the view maths on the state (reads only) */

/* The scene pass's view of S's view of D's image in a viewport of W x H. */
scene_view viewer_scene_view_at(const session *s, const viewer_document *d, int w, int h);

/* Where S's view puts D's image in a viewport of W x H. */
view_place viewer_place_at(const session *s, const viewer_document *d, int w, int h);
/* The view that fits the image (both its windows) into the viewport; FIRST: a new image's
 * first view (view_first: 1:1 when it fits). */
view_state viewer_fit_view(const viewer *v, bool first);
/* F (viewer_act.c): the view fitted; nothing without an image or a window. */
void viewer_fit(viewer *v);
/* Whether the frame shows the human-vision stage (human_gpu.h): an option is on and the image
 * fits one texture (the stage reads it whole). With an option on and an image in pieces the
 * frame is tone-mapped without the options. */
bool viewer_human_shown_in(const viewer_render *r, const session *s);
/* The data-window pixel under viewport point (X, Y), clamped to the image. */
void viewer_image_pixel(const viewer *v, double x, double y, int *ix, int *iy);
/* The region's rectangle (x0, y0, x1, y1 inclusive) from its dragged corners. */
void viewer_region_rect(const viewer *v, int rect[4]);
/* S's divider's place in viewport VP's pixels (x, or y when horizontal). */
int viewer_wipe_pos_at(const session *s, viewport vp);
/* Whether the mode draws an error map (in the single layout), and whether it reads the
 * linear pictures (the scene pass then runs with one sample a pixel). */
bool viewer_compare_map(const viewer *v);
bool viewer_compare_linear(const viewer *v);

/* document.c: the document's queries (reads only) */

/* The file name after the last '/' (file_list_name). */
const char *viewer_base_name(const char *path);
/* Layers listed at most (viewer_layer_names). */
enum { VIEWER_MAX_LAYERS = 32 };
/* The layers of the part: "" stands for the un-prefixed channels ("(none)" in the list).
 * Returns the count written to names (at most MAX). */
int viewer_layer_names(const viewer *v, char (*names)[64], int max);
/* What a load asks for: the part and layer (SHOWN: the shown entry's choice, else the command
 * line's) copied into PART[PLEN] and LAYER[LLEN], which the result points into, the pixel
 * limit and --colorspace. */
image_load_options viewer_load_options(const viewer *v, bool shown, char *part, size_t plen,
                                       char *layer, size_t llen);
/* The image name of a network entry of the list, else NULL (a file). */
const char *viewer_net_name(const viewer *v, const char *path);
/* What the pipelines' apply pass shows: NULL for tone mapping, else the resolved mode. */
const display_params *viewer_display_in(const viewer_render *r, const session *s);
/* The reference's entry ("" when there is none, or its index is not in the list). */
const char *viewer_ref_path(const viewer *v);
/* The file name of tile I (its entry's base name). */
const char *viewer_tile_name(const viewer *v, int i);

/* renderer.c */

/* The renderer's GPU objects (the pipeline, the scene pass, the presenting framebuffer) in
 * the current context; false with the reason in ERR. */
bool renderer_create(viewer_render *r, char *err, size_t errlen);

/* Once a frame: takes the analysis' read-back when it has come (R->frame, with the key of
 * the frame it was read from), never waiting; one of a frame drawn meanwhile is started then.
 * True when the record changed (a frame is to be drawn for it). */
bool renderer_poll(viewer_render *r);
/* The frame record's analysis when it is that of what is shown now in viewport VP (its key
 * equals the shown image's, settings' and, when the analysis reads the view, view's), else
 * NULL: its result is pending (a frame or so). Every reader of the analysis reads it here. */
const tonemap_result *renderer_result(const viewer_render *r, const viewer_document *d,
                                      const session *s, viewport vp);
/* The statistics when they are of the shown image and settings (their key), else NULL. */
const imgstats *renderer_stats(const viewer_render *r, const viewer_document *d,
                              const session *s);
/* The statistics for the histogram panel's output modes and the marks, when wanted and out
 * of date; true when it ran passes (the frame must be rendered again). ERR: why they failed,
 * or "" (the loop says it). */
bool renderer_stats_update(viewer_render *r, const viewer_document *d, const session *s,
                           char *err, size_t errlen);
/* The document's shown image into the pipeline when its image_gen changed since the last
 * call (the loop's, before a frame's passes; a sequence's before its adaptation), and the
 * reference's (ref_gen) into a pipeline of its own, created at the first. True when nothing
 * was to do; false with the reason in ERR (the generation is not tried again). */
bool renderer_upload(viewer_render *r, const viewer_document *d, char *err, size_t errlen);
bool renderer_ref_upload(viewer_render *r, const viewer_document *d, char *err, size_t errlen);
/* What a frame's picture depends on (REF: the reference is drawn too, viewer_ref_shown, which
 * the loop asks first: it loads the reference), and whether two are the same (re-present, no
 * passes). */
viewer_frame_key renderer_frame_key(const viewer_render *r, const viewer_document *d,
                                    const session *s, int w, int h, int samples, bool ref);
bool renderer_key_equal(const viewer_frame_key *a, const viewer_frame_key *b);
/* The human-vision stage's picture (human_gpu.h) of PIPE's image with TM in *PIC: the
 * analysis of the image, then the stage over it into the pipeline's float picture; C's kept
 * one while the image and TM are the same. False with the reason in ERR. */
bool renderer_human_picture(pipeline *pipe, human_cache *c, const tonemap_params *tm,
                            ht_source *pic, char *err, size_t errlen);
/* The frame's passes of KEY's picture into the pipeline's output and the read-back of its
 * analysis (SYNC: read at once, for the test hooks); ADAPTED: a sequence's result adapted in
 * time (viewer_seq_adapted) to apply, or NULL. The GPU's errors go to r->errs for the loop
 * to say (the renderer writes only its part). */
void renderer_render(viewer_render *r, const viewer_document *d, const session *s,
                     const viewer_frame_key *key, bool f32, const tonemap_result *adapted,
                     bool sync);

/* viewer.c */

/* The state from the command line's options (no window, no GPU objects yet); and its end:
 * everything the viewer holds freed, its GL objects in the current context (the window's, or
 * bench's when there is no window: viewer_bench.c). */
void viewer_init(viewer *v, const ht_options *o);
void viewer_cleanup(viewer *v);
/* One frame into framebuffer 0 (the window's; bench's stand-in sets v->fb_w and v->fb_h):
 * layout, the passes unless nothing they depend on changed, present, the panels. Returns the
 * samples the picture got (0: minimised). */
int viewer_draw_frame(viewer *v);

/* The frame's clear of the window's framebuffer: only the bands around the picture where the
 * present covers the viewport (one image shown), the whole window otherwise. A whole-window
 * clear was 0.59 ms of a 4K frame's 1.75 on the lent H200 (BENCHMARKS.md). */
void viewer_clear(const viewer *v);

/* S: the export the action asked for (v->export_due), run by the loop after a frame: the
 * full image as `hdrtone export --backend gpu` computes it, to ./NAME_tonemapped[-N].png; with
 * O's --hdr or --format, export's own run to ./NAME_tonemapped[-N].EXT (viewer_export.c). */
void viewer_export(viewer *v, const ht_options *o);

/* input.c */

/* The one entry point of every key press: the window's and the --keys replay. KEY is a
 * GLFW key, MODS GLFW modifier bits: the action table's dispatch (action_key), unless the
 * GUI is editing text. */
void viewer_key(viewer *v, int key, int mods);
/* --keys: fills v->in.replay from KEYS (names as xdotool spells them, separated by blanks).
 * False, with the message on stderr, for an unknown key or no memory. */
bool viewer_parse_replay(viewer *v, const char *keys);

/* platform.c */

/* The window's events, handed to the loop's handlers (input.c's input_events): points in
 * framebuffer pixels, keys, buttons and actions (press, release, repeat) in GLFW's numbers. */
typedef struct platform_events {
    void (*key)(viewer *v, int key, int action, int mods);
    void (*chr)(viewer *v, unsigned codepoint);
    void (*cursor)(viewer *v, double x, double y);
    void (*enter)(viewer *v, bool entered);
    void (*button)(viewer *v, int button, int action, int mods, double x, double y);
    void (*scroll)(viewer *v, double dx, double dy, double x, double y);
    void (*drop)(viewer *v, int n, const char **paths);
    void (*redraw)(viewer *v);
} platform_events;
extern const platform_events input_events;
/* The window with an OpenGL 4.3 core context, its events to EVENTS; false with the reason
 * on stderr. The monitor's content scale (Xft.dpi / 96 on X11; 1 without a window). */
bool platform_open_window(viewer *v, const ht_options *o, const platform_events *events);
float platform_content_scale(const viewer *v);
/* GLFW's last error, for messages ("" when none). */
const char *platform_glfw_error(void);
void platform_set_error_callback(void);
/* GLFW's start and end (false: no display; platform_glfw_error says why); the clock, in
 * seconds; a wake of platform_wait from another thread. */
bool platform_start(void);
void platform_end(void);
double platform_time(void);
void platform_wake(void);
/* The window's: closed (v->win NULL after), its context made current, asked to close, its
 * framebuffer's size into v->fb_w and v->fb_h, the frame shown, its title, the clipboard's
 * text set, raised. Each does nothing without a window. */
void platform_close_window(viewer *v);
void platform_make_current(viewer *v);
bool platform_should_close(const viewer *v);
void platform_framebuffer_size(viewer *v);
void platform_swap(viewer *v);
void platform_title(viewer *v, const char *title);
void platform_clipboard(viewer *v, const char *text);
void platform_focus(viewer *v);
/* The window's events handled: those waiting (SECONDS 0), or waits for one up to SECONDS
 * (< 0: without end). */
void platform_wait(double seconds);

/* viewer_status.c */

/* The status lines (file and view, tone-mapping settings, the pixel under the cursor), with
 * the GPU's numbers from the latest read-back (a frame late at most); SAMPLES is what the
 * frame got. Needs an image. */
void viewer_status_text(const viewer *v, int samples, char *buf, size_t len);
/* Why the frame got SAMPLES, fewer samples a pixel than --msaa / M asks (the Compare section
 * says it; BRIEF: in a few words, for the status line), or NULL when it got them. */
const char *viewer_msaa_note(const viewer *v, int samples, bool brief);
/* The human-vision line of the status (which options, what was skipped and why), "" when
 * none is on. */
void viewer_status_human(const viewer *v, char *buf, size_t len);
/* The pixel inspector: the pixel under the cursor (the file's RGBA to 4 significant digits),
 * its luminance in cd/m^2, its RGB in the display's primaries when the image's differ, and
 * what it maps to (display luminance, the display's bytes); at most VIEWER_PIXEL_LINES lines
 * (the panel keeps their room, so that nothing below it moves when the cursor leaves the
 * picture). */
enum { VIEWER_PIXEL_LINES = 6 };
void viewer_pixel_text(const viewer *v, char *buf, size_t len);
/* The display bytes of the file's pixel P with TM (its colour transform) and the frame's tone
 * curve, as the inspector shows them; false without a curve or for a black pixel. */
bool viewer_pixel_bytes(const viewer *v, const tonemap_params *tm, const float *p, int out[3]);
/* The status bar's one line: the message (ERROR: a failure) or the view's status (with a
 * sequence's playback first: frame, rate, adaptation). */
void viewer_status_line(const viewer *v, char *buf, size_t len, bool *error);
/* The screenshot hook's report after its own first lines (docs/viewer.md, Test hooks): the
 * status bar as "bar: LINE", the status text as "status: LINE" lines when an image shows, the
 * message as "message: TEXT", and why nothing shows as "error: TEXT" (a file that could not
 * be loaded). */
void viewer_status_print(const viewer *v, FILE *f);
/* The luminance (cd/m^2, by the current weights and scale) under the cursor; false when the
 * cursor is not over a valid pixel. */
bool viewer_cursor_lw(const viewer *v, double *lw);

/* viewer_files.c */

/* Replaces the list with what PATHS[0..N) open (file_list_open: a folder its images, a file
 * itself), the first shown. A folder that cannot be read or holds no image is said on stderr;
 * false when nothing is left to open. */
bool viewer_files_set(viewer *v, char **paths, int n);
void viewer_files_free(viewer *v);
/* Files and folders dropped on the window or handed over (viewer_net_poll): added to the list
 * (viewer_drop first ends a sequence), the first of them shown; a problem is said in the
 * window. */
void viewer_files_drop(viewer *v, char **paths, int n);
/* Loads files[cur]. On failure the error stays on screen and on stderr, and the viewer shows
 * no image until another file loads: a bad file never ends the viewer. */
bool viewer_load_current(viewer *v);
/* The same off the UI thread: files[cur] decodes on a worker while the window answers (the
 * canvas says "loading"); viewer_load_poll shows it when it is done, if it is still the one
 * wanted (a newer load, synchronous or not, discards it). Network images, sequences and the
 * test hooks (--keys, --screenshot: each replayed key sees the loaded image) load at once. */
void viewer_load_begin(viewer *v);
void viewer_load_poll(viewer *v);
/* Whether a load is on its way (the loop then polls instead of waiting for events). */
bool viewer_loading(const viewer *v);
/* The shown file's base name into BUF, with " 45 %" while its load is on its way and its
 * decoder tells its rows (load_job_percent): what "loading" shows. */
void viewer_loading_text(const viewer *v, char *buf, size_t len);
/* Waits for the worker and frees its job (the viewer's end). */
void viewer_load_stop(viewer *v);

/* load_job.c: a file decoding on a worker thread, image_load of PATH with
 * viewer_load_options(V, SHOWN) (its inputs copied; on this thread when no thread starts).
 * NULL when out of memory. */
typedef struct load_job load_job;
load_job *load_job_start(viewer *v, const char *path, bool shown);
/* Whether it has finished (without waiting); the path it loads. */
bool load_job_done(const load_job *j);
/* The share of its rows decoded, 0 to 100, from the loader's progress (image_progress: a
 * shown file's load, where its decoder tells it), or -1 while none was told. */
int load_job_percent(const load_job *j);
const char *load_job_path(const load_job *j);
/* Waits for it: whether the image loaded; then its image (the caller may move it out, leaving
 * zeros) or the reason. */
bool load_job_wait(load_job *j);
hdr_image *load_job_image(load_job *j);
const char *load_job_err(const load_job *j);
/* Waits for it and frees it, with the image still in it. */
void load_job_free(load_job *j);
/* A job that runs FN(ARG) on a worker thread (on this thread when none starts): ARG is the
 * caller's, FN's results in it once load_job_done (or load_job_wait); NULL when out of
 * memory. load_job_path is NULL and load_job_image empty for it. */
load_job *load_job_run(void (*fn)(void *arg), void *arg);
/* The reduced copy of a shown file's rows as they land (load_preview.c), or NULL (another
 * job, or out of memory). */
typedef struct preview_rows preview_rows;
preview_rows *load_job_preview(load_job *j);

/* load_preview.c: the picture while a file loads. The copy: made empty; the viewport the
 * image will be shown in (the window's thread, any time: the copy's reduction); the rows of
 * image_progress's call (the loading thread); freed (accepts NULL). */
preview_rows *preview_rows_new(void);
void preview_rows_fit(preview_rows *p, int w, int h);
void preview_rows_add(preview_rows *p, const uint16_t *half, int width, int done, int height);
void preview_rows_free(preview_rows *p);
/* The window's thread: P's new rows into the preview's texture (a redraw asked when there
 * are); the preview gone (its texture; the next load starts afresh), and its pipeline too
 * (the window's end); the preview drawn where the image will first be shown (the rows landed
 * tone-mapped, the rest left as the canvas was cleared), false when there is none. */
void viewer_preview_update(viewer *v, preview_rows *p);
void viewer_preview_drop(viewer *v);
void viewer_preview_destroy(viewer *v);
bool viewer_preview_draw(viewer *v);
/* The preview's pipeline made and run once on a tiny picture, when there is none yet: for the
 * idle window (llvmpipe compiles a program at its first dispatch, ~0.1 s of the cores that the
 * next load's decoder would share with it at its first rows; BENCHMARKS.md). */
void viewer_preview_warm(viewer *v);
/* Where the preview lies: the whole image's rectangle in the window (x, y, w, h: framebuffer
 * pixels, top-left origin) and the image rows it shows, from the top; false when none. */
bool viewer_preview_place(const viewer *v, int rect[4], int *rows);
/* Valid luminance range of the image on the CPU by the current weights (y_min, y_max), for
 * "fit the range to the image" and the panel's x axis. */
void viewer_update_y_range(viewer *v);
/* Key actions, DIR +1 next / -1 previous: the open image (N, P, PageDown, PageUp); the file
 * beside the shown one in its folder (file_list_neighbour), shown in its entry's place
 * (Ctrl+PageDown, Ctrl+PageUp); the part of a multi-part file with its default layer (E;
 * parts are numbered from 0, as --part counts them); the layer of the part (Y); and R,
 * reload. */
void viewer_file_step(viewer *v, int dir);
void viewer_neighbour_step(viewer *v, int dir);
void viewer_part_step(viewer *v, int dir);
void viewer_layer_step(viewer *v, int dir);
void viewer_reload(viewer *v, int arg);
/* Loads files[cur] into a new image and only when that succeeds replaces the shown one,
 * keeping view, zoom and settings when its windows are the same. False with the reason in
 * ERR, the shown image untouched (a file caught half-written keeps the last good picture). */
bool viewer_replace_current(viewer *v, char *err, size_t errlen);

/* Loads PATH into *IMG: a network image (viewer_net_load) or a file, with the part and layer
 * the next load asks for. False with the reason in ERR. */
bool viewer_load_source(viewer *v, const char *path, hdr_image *img, char *err, size_t errlen);
/* Makes the loaded *IMG (taken over) the shown image: parts and layers, a new image_gen
 * (the renderer uploads it: renderer_upload). False with the reason in ERR and no image shown
 * when its colour space does not go on the display. */
bool viewer_show_image(viewer *v, hdr_image *img, char *err, size_t errlen);
/* The shown image gone (freed, have_image false). */
void viewer_image_drop(viewer *v);
/* The shown image's upload failed with ERR: dropped, and said as a failed load of the
 * current entry is (load_err "PATH: ERR", stderr). */
void viewer_upload_failed(viewer *v, const char *err);

/* viewer_net.c */

/* Entries of network images in the file list: the prefix before the image's name. */
#define VIEWER_NET_PREFIX "tev:"
/* --listen: starts the server (false with the message on stderr). */
bool viewer_net_start(viewer *v, const char *listen, const char *layer, double max_pixels);
/* Once a frame: applies what tev's clients sent since the last call, and takes the files
 * handed over by `hdrtone FILE...` (viewer_drop). The first call starts listening for
 * hand-offs (handoff_listen; not when another hdrtone listens, or HT_HANDOFF=off). */
void viewer_net_poll(viewer *v);
/* Copies network image NAME into *img (tev_server_copy_image). */
bool viewer_net_load(viewer *v, const char *name, hdr_image *img, char *err, size_t errlen);
/* Stops the tev server and the hand-off socket. */
void viewer_net_stop(viewer *v);

/* viewer_watch.c */

/* --watch and its key: on, off (ARG 1 = on, 0 = toggle). */
void viewer_watch_key(viewer *v, int arg);
/* Once a frame, never blocking: reads the file events, reloads a changed file when due. */
void viewer_watch_poll(viewer *v);
void viewer_watch_stop(viewer *v);

/* display_view.c */

/* D's image's units (set in DISP, the session's display mode) and DISP resolved for the image
 * (when either changed, WHITE: the session's white rule), set on R's pipeline for the next
 * frame. An OCIO view that cannot be shown falls back to tone mapping in DISP (the session's:
 * the mode shown is the mode asked), the reason in ERR ("" when none), for the loop to say. */
void viewer_display_update(viewer_render *r, const viewer_document *d, display_params *disp,
                           int white, char *err, size_t errlen);
/* Luminance in cd/m^2 of the colour RGB by the image's units (units.h). */
double viewer_luminance_cd_m2(const viewer *v, const float *rgb);

/* display_ocio.c */

/* R's OCIO config (PATH), loaded the first time the mode is shown (by viewer_display_update,
 * for the picture and the panels' lists); false when it cannot be, the reason in ERR
 * ("OCIO: ...") the first time only: it is not tried again. */
bool viewer_ocio_load(viewer_render *r, const char *path, char *err, size_t errlen);
/* D's OCIO input space for DOC's image (d->ocio_input) and r->ocio_x (WHITE: the session's
 * white rule); false when the config cannot be loaded or the image's space is degenerate,
 * the reason in ERR ("OCIO: ..."; "" for a config whose failure was said before). */
bool viewer_ocio_resolve(viewer_render *r, const viewer_document *doc, int white,
                         display_params *d, char *err, size_t errlen);
/* In the OCIO view, TM takes the image's matrix to the view's input space, clipped. */
void viewer_ocio_params(const viewer_render *r, const session *s, tonemap_params *tm);
/* The names of LIST (OCIO_SPACES, OCIO_DISPLAYS, OCIO_LOOKS; -1: the views of DISPLAY) into
 * NAMES, at most MAX; their count (0 without a config). Valid while the config lives. */
int viewer_ocio_names(const viewer_render *r, int list, const char *display, const char **names,
                      int max);
/* The config's default display (DISPLAY NULL), or DISPLAY's default view; "" without one. */
const char *viewer_ocio_default(const viewer_render *r, const char *display);


/* compare_view.c */


/* An entry of the list other than the shown image (the reference, a tile): a network image,
 * or the file with the command line's part and layer (not the ones the shown image was
 * stepped to: it is a file of its own) into *IMG. False with the reason in ERR. */
bool viewer_read_other(viewer *v, const char *path, hdr_image *img, char *err, size_t errlen);
/* TEX's viewport pixels [X0, X1) x [Y0, Y1) (y down) onto AT of the window. */
void viewer_blit(const viewer_render *r, int fb_h, unsigned tex, viewport at, int x0, int y0,
                 int x1, int y1);
/* Whether the frame shows the reference (a mode or Z, a reference of the image's size, the
 * single layout: the tiles of the others show the pictures side by side),
 * loading it when its entry changed; the reason in v->doc.ref_err when not. */
bool viewer_ref_shown(viewer *v);
/* The reference through the scene pass with KEY's view, size and samples and the apply pass
 * with the current image's settings and curve (its latest read-back) into its pipeline's
 * output. False with the reason in ERR (the loop puts it in the document's ref_err). */
bool viewer_ref_render(viewer_render *r, const viewer_document *d, const session *s,
                       const viewer_frame_key *key, char *err, size_t errlen);
/* The picture into viewport VP of a framebuffer FB_H high: the current image's output, then
 * (REF) the reference's over all of it (Z) or over the far side of S's divider. */
void viewer_present(const viewer_render *r, const session *s, viewport vp, int fb_h, bool ref);
/* The error map of the frame's two pictures (r->last's, after both were rendered), when the
 * frame shows one (viewer_compare_map), never waiting (SYNC: the test hooks' wait for its
 * numbers); else they come with viewer_compare_poll, once a frame. False with the reason in
 * ERR (the loop puts it in the document's ref_err). */
bool viewer_compare_run(viewer_render *r, const viewer_document *dc, const session *s, bool sync,
                        char *err, size_t errlen);
void viewer_compare_poll(viewer *v);
/* Whether the numbers (v->rnd.cmp_numbers) are those of the map shown: its run's, not an
 * earlier one's (then the panels say "computing"). */
bool viewer_compare_ready(const viewer *v);
void viewer_compare_free(viewer *v);

/* tiles.c */

/* After panels_layout: the tiles of the layout in v->rnd.area (the picture's area), v->vp made
 * the shown image's tile. A side by side with one open image and no reference, or a grid of
 * one, is the single layout. */
void viewer_tiles_layout(viewer *v);
/* The framebuffer point (X, Y) in another tile moved to the same place of the shown image's
 * tile (pan, zoom and the cursor's pixel are locked across the tiles); the tile it was in
 * (-1: none). */
int viewer_tiles_point(const viewer *v, double *x, double *y);
/* The settings tile T is drawn with: the session's, in T's image's colour space, without
 * the human-vision stage's switches (the Pixel section's; tile_render adds them); false with
 * the reason. */
bool viewer_tile_params(const session *s, const viewer_tile *t, tonemap_params *tm, char *err,
                        size_t errlen);
/* The other tile under the cursor, with its image and tone curve read (the renderer reads it
 * once a render of that tile), or NULL: the cursor is on the shown image's tile or none. */
const viewer_tile *viewer_tile_hovered(const viewer *v);
/* The other tiles' files into their pipelines when their entries changed: decoded on a
 * worker (the loop's services: the list, the tev server's images, the test hooks' wait),
 * uploaded by the frame after. A file that cannot be read leaves its tile empty with the
 * reason (viewer_tile.err, shown on it). */
void viewer_tiles_load(viewer *v);
/* The loaded tiles' pictures (after the shown image's frame R->last, with its SAMPLES and
 * S's settings), each rendered again only when its key changed; the tone curve of the tile
 * IN's cursor is over read back. A pass that fails says why in the tile's err. */
void viewer_tiles_render(viewer_render *r, const session *s, const viewer_input *in,
                         int samples);
/* The tiles' pictures blitted to their places in a framebuffer FB_H high. */
void viewer_tiles_present(const viewer_render *r, int fb_h);
void viewer_tiles_free(viewer *v);
/* Whether a tile's file is decoding (the loop then polls; the frame uploads it once done);
 * viewer_tiles_poll, once a frame, asks for a frame when one is done. */
bool viewer_tiles_loading(const viewer *v);
void viewer_tiles_poll(viewer *v);

/* compare_whole.c */

/* What viewer_whole_peek found. */
enum { WHOLE_NONE, WHOLE_PENDING, WHOLE_READY, WHOLE_FAILED };
/* The whole image's comparison of the list's entry ENTRY against the reference, as `hdrtone
 * compare --backend cpu REF FILE` computes it (flip_input_load, flip_report_cpu: full
 * resolution, FLIP's settings of the session): WHOLE_READY with *R; WHOLE_PENDING while a
 * worker computes it or until viewer_whole_ask starts it; WHOLE_FAILED with the reason in
 * *ERR; WHOLE_NONE without a reference or for the reference itself. A result is kept for its
 * key (both files, ppd, FLIP's tone mapper) and dropped when the key changes. */
int viewer_whole_peek(const viewer *v, int entry, flip_report *r, const char **err);
/* ENTRY's comparison wanted: started on a worker unless kept or running (nothing waits). */
void viewer_whole_ask(viewer *v, int entry);
/* Once a frame: takes a finished result (redraws); starts the next wanted one. */
void viewer_whole_poll(viewer *v);
/* Under the test hooks: waits for the computations wanted so far. Whether one runs (the loop
 * then polls); the files read so far (the reference once a key, each compared file once). */
void viewer_whole_wait(viewer *v);
bool viewer_whole_busy(const viewer *v);
int viewer_whole_reads(const viewer *v);
void viewer_whole_stop(viewer *v);

/* session_save.c, viewer_session.c */

/* Writes the session (the open files as absolute paths, the shown one, the reference, the
 * settings as options, the view, the comparison, the pins) to PATH through a temporary file; false
 * with the reason naming PATH in ERR. */
bool viewer_session_save(viewer *v, const char *path, char *err, size_t errlen);
/* --session: reads PATH into *S and its settings into *O (the option table's limits); false
 * with the reason naming PATH on stderr (a newer version, a broken file, wrong types, values
 * out of range). *S is to be freed either way. */
bool viewer_session_open(const char *path, ht_options *o, viewer_session_file *s);
/* The session's files that can be read into PATHS (at most MAX; strings owned by S), the
 * others listed in MISSING; their count. */
int viewer_session_files(viewer_session_file *s, char **paths, int max, char *missing,
                         size_t mlen);
/* With the list set: the shown entry, the reference, the comparison, the pins, the
 * human-vision switches, the OCIO input, the part and layer the first load asks for; the
 * first image gets the session's view and region (v->session_view). */
void viewer_session_apply(viewer *v, viewer_session_file *s);
/* The first image shown: the session's region and its statistics (update_view, with the
 * session's view). */
void viewer_session_image(viewer *v, const viewer_session_file *s);
void viewer_session_free(viewer_session_file *s);

/* pins.c */

/* Once a frame: the shown image's values at the pins, a finished worker's values of the
 * other open files, a worker started for those that lack them; under the test hooks waited
 * for. viewer_pins_wait waits for the worker; viewer_pins_stop ends it and frees the values. */
void viewer_pins_poll(viewer *v);
void viewer_pins_wait(viewer *v);
/* Whether a file is being read for the pins (the loop then polls). */
bool viewer_pins_busy(const viewer *v);
void viewer_pins_stop(viewer *v);
/* What viewer_pin_value found. */
enum { PIN_READY, PIN_PENDING, PIN_FAILED, PIN_OUTSIDE, PIN_NO_CURVE };
/* Entry FILE's value at pin PIN in v->s.pin_values' terms (RGBA; display bytes: 0..255 and
 * A 255) into OUT: PIN_READY; PIN_PENDING while its file is read, PIN_FAILED when it cannot
 * be (viewer_pin_error says why), PIN_OUTSIDE when the pin is outside that image,
 * PIN_NO_CURVE for display bytes without a tone curve (no analysis yet, another display
 * mode, a black pixel). */
int viewer_pin_value(const viewer *v, int file, int pin, double out[4]);
const char *viewer_pin_error(const viewer *v, int file);

/* viewer_seq.c */

typedef struct viewer_seq viewer_seq;
/* hdrtone SEQ: PATTERN (sequence.h) with O's --frames A-B (default: the first to the last
 * file; missing frames in between are shown as errors), --fps, --adapt, --cut-threshold.
 * Makes the file list the first frame's file (the window's size) and sets v->seq. False with
 * the message on stderr. */
bool viewer_seq_open(viewer *v, const ht_options *o, const char *pattern);
/* With the window: starts the decoding threads and shows the first frame, playing. */
void viewer_seq_start(viewer *v);
/* Stops the threads and frees v->seq (accepts none). */
void viewer_seq_stop(viewer *v);
/* Playing: the loop must not wait for events. */
bool viewer_seq_playing(const viewer *v);
/* Once a frame: shows the frame the clock has reached once it is decoded (never waits for
 * it: frames not ready in time are dropped). Under the test hooks (v->testing) one frame of
 * the sequence per call, waited for, so that screenshots are reproducible. */
void viewer_seq_poll(viewer *v);
/* Keys: ARG 0 play/pause, -1/+1 the frame before/after, -2/+2 the first/last frame. A step
 * forward adapts in order (dt = 1/fps); a step back or a jump starts the adaptation afresh
 * at that frame's still analysis. */
void viewer_seq_key(viewer *v, int arg);
/* The shown frame's adapted result for the frame's passes, or NULL where none applies (no
 * sequence, --adapt none, adapting to the view, human-vision options on: as export, which
 * does not adapt with them). Other settings than those it was made with
 * start the adaptation afresh at the frame. */
const tonemap_result *viewer_seq_adapted(viewer *v);
/* The sequence's status line (frame, playing and the achieved rate, the adaptation), or ""
 * without a sequence. */
void viewer_seq_status(const viewer *v, char *buf, size_t len);

#endif
